import { Worker } from "node:worker_threads";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { create, openArray, SharedSynchronizer } from "@z/core";
import { TempStore } from "@z/store-fs";

const bootstrap = new URL("./workers/bootstrap.mjs", import.meta.url);
const entry = new URL("./workers/thread-hammer.ts", import.meta.url).href;
const stores: TempStore[] = [];
afterAll(() => Promise.all(stores.map((s) => s.close())));

function runWorker(data: object): Promise<void> {
  return new Promise((resolve, reject) => {
    const w = new Worker(bootstrap, { workerData: { ...data, entry }, execArgv: ["--conditions=@z/source"] });
    w.once("message", () => resolve());
    w.once("error", reject);
    w.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`worker exited with ${code}`))));
  });
}

describe("writers in several worker threads", () => {
  it("lose no update with a SharedSynchronizer over one SharedArrayBuffer", async () => {
    const store = new TempStore();
    stores.push(store);
    const threads = 3;
    const size = 150;
    await create({ store, path: "a", shape: [size], chunks: [7], dtype: "<i4", compressor: null, fillValue: -1 });
    const buffer = SharedSynchronizer.createBuffer(64);
    await Promise.all(
      Array.from({ length: threads }, (_, t) =>
        runWorker({
          root: join(store.root, "a"),
          buffer,
          indices: Array.from({ length: size / threads }, (_, i) => i * threads + t),
        }),
      ),
    );
    const z = await openArray(store, { path: "a", mode: "r" });
    expect(Array.from((await z.get()).data as Int32Array)).toEqual(Array.from({ length: size }, (_, i) => i + 1));
  }, 60_000);
});
