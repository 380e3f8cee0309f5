// A store of one's own, read and written by the pool's threads themselves: its `threadStore()`
// names the module whose `threadStoreDriver` reopens it in a thread (`ThreadStoreSpec` of @z/meta).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { create, openArray, type PoolBatch } from "@z/core";
import { WorkerPool } from "@z/core/node";
import { FileKeyStore } from "./fixtures/file-key-store.js";

const pool = new WorkerPool({ size: 2, minBytes: 0 });
const root = mkdtempSync(join(tmpdir(), "z-file-keys-"));
beforeAll(() => pool.warm());
afterAll(async () => {
  await pool.close();
  rmSync(root, { recursive: true, force: true });
});

it("writes and reads a store of one's own in the threads, through the module its threadStore() names", async () => {
  const store = new FileKeyStore(root);
  expect(pool.storeSpec(store)).toEqual({ kind: "file-keys", root, module: expect.stringContaining("file-key-store") });
  const z = await create({
    store,
    shape: [40, 30],
    chunks: [10, 10],
    dtype: "<i4",
    compressor: { id: "zlib", level: 1 },
  });
  const values = Int32Array.from({ length: 1200 }, (_, i) => i * 7 - 300);

  const sent: PoolBatch[] = [];
  const run = pool.run.bind(pool);
  pool.run = (batch, transfer) => (sent.push(batch), run(batch, transfer));
  const writesBefore = store.writes;
  const filesBefore = readdirSync(root).length;
  try {
    await z.set(null, { data: values, shape: [40, 30] }, { pool });
    // This thread encodes and writes its share of the 12 chunks; the threads wrote the others
    // through the store they opened, which this thread's store does not count.
    const threadWrites = 12 - (store.writes - writesBefore);
    expect(threadWrites).toBeGreaterThan(0);
    expect(readdirSync(root).length).toBe(filesBefore + 12);
    const read = await (await openArray(store, { mode: "r" })).get(undefined, { pool });
    expect(Array.from(read.data as Int32Array)).toEqual(Array.from(values));
  } finally {
    pool.run = run;
  }
  expect(sent.map((batch) => batch.op).sort()).toEqual(expect.arrayContaining(["encode", "read"]));
  for (const batch of sent) {
    expect(batch.store).toEqual(store.threadStore());
    if (batch.op === "read") expect(batch.items.every((item) => item.bytes === undefined)).toBe(true);
    else expect(batch.items.length).toBeGreaterThan(0);
  }
});

it("refuses a thread spec whose module has no threadStoreDriver, as a StoreError naming the module", async () => {
  const store = new FileKeyStore(join(root, "no-driver"));
  const module = "data:text/javascript,export const nothing = 1;";
  store.threadStore = () => ({ kind: "no-driver", root: store.root, module });
  const z = await create({ store, shape: [40], chunks: [10], dtype: "<i4", compressor: null });
  const wrote = z.set(null, { data: new Int32Array(40), shape: [40] }, { pool });
  await expect(wrote).rejects.toMatchObject({ code: "ZARR_STORE", message: expect.stringContaining(module) });
});
