import { describe, expect, it } from "vitest";
import { describeStoreContract } from "@z/meta/testing";
import { create, LRUStoreCache, MemoryStore, openArray } from "@z/core";

/** A store that counts the reads reaching it. */
class CountingStore extends MemoryStore {
  gets = 0;
  override async get(key: string): Promise<Uint8Array | undefined> {
    this.gets += 1;
    return super.get(key);
  }
}

describeStoreContract("LRUStoreCache over a MemoryStore", () => new LRUStoreCache(new MemoryStore(), 1 << 20), {
  describe,
  it,
});

describe("LRUStoreCache, as zarr-python's", () => {
  it("answers repeated reads from memory and counts hits and misses", async () => {
    const inner = new CountingStore();
    await inner.set("a", new Uint8Array([1, 2, 3]));
    const cache = new LRUStoreCache(inner, 100);
    await cache.get("a");
    await cache.get("a");
    expect([cache.hits, cache.misses, inner.gets]).toEqual([1, 1, 1]);
    expect(await cache.get("missing")).toBeUndefined();
    expect(await cache.get("missing")).toBeUndefined(); // missing keys are not cached
    expect(inner.gets).toBe(3);
  });

  it("evicts the least recently used values beyond maxSize, and never keeps a value larger than it", async () => {
    const inner = new CountingStore();
    for (const k of ["a", "b", "c"]) await inner.set(k, new Uint8Array(4));
    await inner.set("big", new Uint8Array(20));
    const cache = new LRUStoreCache(inner, 8);
    await cache.get("a");
    await cache.get("b");
    await cache.get("a"); // a is now more recent than b
    await cache.get("c"); // evicts b
    expect(cache.currentSize).toBe(8);
    inner.gets = 0;
    await cache.get("a");
    await cache.get("b");
    expect(inner.gets).toBe(1);
    await cache.get("big");
    expect(cache.currentSize).toBeLessThanOrEqual(8);
  });

  it("shares one request between concurrent reads of a key", async () => {
    const inner = new CountingStore();
    await inner.set("k", new Uint8Array([7]));
    const cache = new LRUStoreCache(inner, null);
    await Promise.all([cache.get("k"), cache.get("k"), cache.get("k")]);
    expect(inner.gets).toBe(1);
  });

  it("sees its own writes and refreshes listings", async () => {
    const store = new LRUStoreCache(new MemoryStore(), 1 << 20);
    const z = await create({ store, shape: [4], chunks: [2], compressor: null, dtype: "u1" });
    await z.set(undefined, 5);
    expect((await store.list()).sort()).toEqual([".zarray", "0", "1"]);
    await z.set(undefined, 6);
    const again = await openArray(store, { mode: "r" });
    expect(Array.from((await again.get()).data as Uint8Array)).toEqual([6, 6, 6, 6]);
  });
});
