// A child process of processes.test.ts: opens the shared array and writes its own elements,
// racing the other processes on every chunk, with a FileLockSynchronizer.
import { openArray } from "@z/core";
import { DirectoryStore, FileLockSynchronizer } from "@z/store-fs";

const [root, locks, first, count] = process.argv.slice(2);
const start = Number(first);
const z = await openArray(new DirectoryStore(root!), {
  mode: "r+",
  synchronizer: locks === "none" ? undefined : new FileLockSynchronizer(locks!),
});
await Promise.all(Array.from({ length: Number(count) }, (_, i) => z.set([start + i], start + i + 1)));
