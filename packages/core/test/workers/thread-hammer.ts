// A worker thread of threads.test.ts: writes its own elements of the shared array, racing the
// other threads on every chunk, locking through the SharedArrayBuffer it was given.
import { parentPort, workerData } from "node:worker_threads";
import { openArray, SharedSynchronizer } from "@z/core";
import { DirectoryStore } from "@z/store-fs";

const { root, buffer, indices } = workerData as { root: string; buffer: SharedArrayBuffer; indices: number[] };
const z = await openArray(new DirectoryStore(root), { mode: "r+", synchronizer: new SharedSynchronizer(buffer) });
await Promise.all(indices.map((i) => z.set([i], i + 1)));
parentPort!.postMessage("done");
