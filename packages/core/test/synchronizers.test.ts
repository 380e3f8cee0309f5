import { describe, expect, it } from "vitest";
import { create, MemoryStore, openArray, SharedSynchronizer, slice, ThreadSynchronizer } from "@z/core";
import type { Synchronizer, WritableStore } from "@z/meta";

/** A store whose reads and writes take a while, so concurrent read-modify-writes interleave. */
class SlowStore extends MemoryStore {
  override async get(key: string): Promise<Uint8Array | undefined> {
    const value = await super.get(key);
    await new Promise((r) => setTimeout(r, 2));
    return value;
  }
  override async set(key: string, value: Uint8Array): Promise<void> {
    await new Promise((r) => setTimeout(r, 1));
    await super.set(key, value);
  }
}

/** Every task writes its own element; elements share chunks, so writers race on each chunk. */
async function hammer(synchronizer: Synchronizer | undefined, tasks = 120): Promise<number[]> {
  const z = await create({
    store: new SlowStore(),
    shape: [tasks],
    chunks: [10],
    dtype: "<i4",
    compressor: null,
    fillValue: -1,
    synchronizer,
  });
  await Promise.all(Array.from({ length: tasks }, (_, i) => z.set([i], i + 1)));
  return Array.from((await z.get()).data as Int32Array);
}

const expected = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe("concurrent writers to overlapping chunks", () => {
  it("lose nothing in one thread without a synchronizer: writes to one chunk of one store wait for one another", async () => {
    expect(await hammer(undefined)).toEqual(expected(120));
  });

  it("lose updates when writers share no lock (the hazard these tests guard against)", async () => {
    // Two store objects over the same values, as two processes would have: no lock is shared.
    const shared = new SlowStore();
    const other: WritableStore = {
      get: (key) => shared.get(key),
      set: (key, value) => shared.set(key, value),
      delete: (key) => shared.delete(key),
    };
    const z = await create({ store: shared, shape: [20], chunks: [10], dtype: "<i4", compressor: null, fillValue: -1 });
    const z2 = await openArray(other, { mode: "r+" });
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? z : z2).set([i], i + 1)));
    const values = Array.from((await z.get()).data as Int32Array);
    expect(values.filter((v) => v === -1).length).toBeGreaterThan(0);
  });

  it("lose nothing with a ThreadSynchronizer", async () => {
    expect(await hammer(new ThreadSynchronizer())).toEqual(expected(120));
  });

  it("lose nothing with a SharedSynchronizer, even with few lock slots", async () => {
    expect(await hammer(new SharedSynchronizer(SharedSynchronizer.createBuffer(3)))).toEqual(expected(120));
  });

  it("lose no attribute updates", async () => {
    const z = await create({
      store: new SlowStore(),
      shape: [1],
      compressor: null,
      synchronizer: new ThreadSynchronizer(),
    });
    await Promise.all(Array.from({ length: 30 }, (_, i) => z.attrs.set(`a${i}`, i)));
    expect(Object.keys(await z.attrs.asObject()).length).toBe(30);
  });

  it("overlapping region writes end as one of the writes, chunk by chunk", async () => {
    const z = await create({
      store: new SlowStore(),
      shape: [40],
      chunks: [7],
      dtype: "<i4",
      compressor: null,
      synchronizer: new ThreadSynchronizer(),
    });
    await Promise.all([z.set([slice(0, 30)], 1), z.set([slice(10, 40)], 2), z.set([slice(5, 35)], 3)]);
    const values = Array.from((await z.get()).data as Int32Array);
    expect(values.every((v) => v === 1 || v === 2 || v === 3)).toBe(true);
    expect(values.slice(0, 5)).toEqual([1, 1, 1, 1, 1]);
    expect(values.slice(35)).toEqual([2, 2, 2, 2, 2]);
  });

  it("an aborted acquire gives up without taking the lock", async () => {
    const sync = new ThreadSynchronizer();
    const release = await sync.acquire("k");
    const controller = new AbortController();
    controller.abort(new Error("gave up"));
    await expect(sync.acquire("k", { signal: controller.signal })).rejects.toThrow("gave up");
    await release();
    await (await sync.acquire("k"))();
  });
});
