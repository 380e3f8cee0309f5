// How many chunk reads an array keeps in flight: the call's `concurrency`, else the array's, else
// the store's `preferredConcurrency` (a store that merges reads asked for at once into fewer
// requests, as @z/store-reference's does, asks for more), else 8.
import type { Store } from "@z/meta";
import { describe, expect, it } from "vitest";
import { create, MemoryStore, openArray } from "../src/index.js";

/** A MemoryStore that counts the most chunk reads waiting at once (each waits one timer turn). */
class CountingStore extends MemoryStore {
  inFlight = 0;
  mostInFlight = 0;
  constructor(readonly preferredConcurrency?: number) {
    super();
  }
  override async get(key: string): Promise<Uint8Array | undefined> {
    if (!/\/\d+\.\d+$/.test(key)) return super.get(key);
    this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
    await new Promise((done) => setTimeout(done, 1));
    this.inFlight--;
    return super.get(key);
  }
}

async function mostInFlight(store: CountingStore, open: { concurrency?: number }, call: { concurrency?: number }) {
  const written = await create({ store, path: "a", shape: [40, 40], chunks: [5, 5], dtype: "<i2", pool: false });
  await written.set(null, { data: new Int16Array(1600).fill(7), shape: [40, 40] });
  store.mostInFlight = 0;
  const array = await openArray(store as Store, { path: "a", mode: "r", pool: false, ...open });
  const read = await array.get(null, call);
  expect((read.data as Int16Array).every((v) => v === 7)).toBe(true);
  return store.mostInFlight;
}

describe("chunk reads in flight (64 chunks)", () => {
  it("are 8 by default", async () => {
    expect(await mostInFlight(new CountingStore(), {}, {})).toBe(8);
  });

  it("are the store's preferredConcurrency when neither the array nor the call says", async () => {
    expect(await mostInFlight(new CountingStore(20), {}, {})).toBe(20);
  });

  it("are the array's concurrency, then the call's, over the store's", async () => {
    expect(await mostInFlight(new CountingStore(20), { concurrency: 3 }, {})).toBe(3);
    expect(await mostInFlight(new CountingStore(20), { concurrency: 3 }, { concurrency: 5 })).toBe(5);
  });
});
