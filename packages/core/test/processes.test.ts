import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { create, openArray } from "@z/core";
import { FileLockSynchronizer, TempStore } from "@z/store-fs";

const run = promisify(execFile);
const worker = new URL("./workers/hammer.ts", import.meta.url).pathname;
const stores: TempStore[] = [];
afterAll(() => Promise.all(stores.map((s) => s.close())));

/** Several processes each write their own elements of one array; chunks hold elements of all. */
async function hammer(
  processes: number,
  perProcess: number,
  withLocks: boolean,
  sharded = false,
): Promise<{ values: number[]; locks: string }> {
  const store = new TempStore();
  stores.push(store);
  const size = processes * perProcess;
  if (sharded) {
    await create({
      store,
      path: "a",
      zarrFormat: 3,
      shape: [size],
      chunks: [7],
      shards: [28],
      dtype: "int32",
      fillValue: -1,
    });
  } else {
    await create({ store, path: "a", shape: [size], chunks: [7], dtype: "<i4", compressor: null, fillValue: -1 });
  }
  const locks = join(store.root, "locks");
  // Interleave: process p writes elements p, p+n, ... so every chunk is shared by every process.
  const children = Array.from({ length: processes }, (_, p) =>
    run(
      process.execPath,
      [
        "--conditions=@z/source",
        "--import",
        "tsx",
        worker,
        join(store.root, "a"),
        withLocks ? locks : "none",
        String(p * perProcess),
        String(perProcess),
      ],
      {
        cwd: new URL("..", import.meta.url).pathname,
      },
    ),
  );
  await Promise.all(children);
  const z = await openArray(store, { path: "a", mode: "r" });
  return { values: Array.from((await z.get()).data as Int32Array), locks };
}

describe("writers in several processes on one directory store", () => {
  it("lose no update with a FileLockSynchronizer, and leave no lock behind", async () => {
    const { values, locks } = await hammer(4, 60, true);
    expect(values).toEqual(Array.from({ length: 240 }, (_, i) => i + 1));
    expect(await readdir(locks)).toEqual([]);
  }, 60_000);

  it("lose no update of shards every process writes part of, with a FileLockSynchronizer (locking per shard key)", async () => {
    const { values, locks } = await hammer(3, 40, true, true);
    expect(values).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(await readdir(locks)).toEqual([]);
  }, 60_000);

  it("a lock left by a dead process is broken, not waited on forever", async () => {
    const store = new TempStore();
    stores.push(store);
    const sync = new FileLockSynchronizer(join(store.root, "locks"), { timeout: 5_000 });
    const { writeFile } = await import("node:fs/promises");
    await writeFile(sync.lockPath("k"), "999999999"); // no such pid
    const release = await sync.acquire("k");
    await release();
  });

  it("a live holder makes others wait until the timeout", async () => {
    const store = new TempStore();
    stores.push(store);
    const sync = new FileLockSynchronizer(join(store.root, "locks"), { timeout: 100 });
    const release = await sync.acquire("k");
    await expect(sync.acquire("k")).rejects.toMatchObject({ code: "ZARR_STORE" });
    await release();
  });
});
