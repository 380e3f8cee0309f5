// A child process of processes.test.ts: opens the shared array and writes its own elements,
// racing the other processes on every chunk, with a FileLockSynchronizer.
import { enableEncoders, openArray } from "@z/core";
import { DirectoryStore, FileLockSynchronizer } from "@z/store-fs";

// Run from the sources (`--conditions=@z/source`), @z/core's entry is the browser one, which
// registers no encoders (its Node entry does): a sharded array's shards need theirs.
enableEncoders();
const [root, locks, first, count] = process.argv.slice(2);
const start = Number(first);
const z = await openArray(new DirectoryStore(root!), {
  mode: "r+",
  synchronizer: locks === "none" ? undefined : new FileLockSynchronizer(locks!),
});
await Promise.all(Array.from({ length: Number(count) }, (_, i) => z.set([start + i], start + i + 1)));
