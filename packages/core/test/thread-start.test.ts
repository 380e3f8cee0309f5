import { describe, expect, it } from "vitest";
import { create, MemoryStore, slice, type ChunkPool } from "@z/core";
import { threadStarter } from "../src/pooled.js";

/**
 * A pool that never gets work (no thread is ever ready) but records whether it was asked to start:
 * what the calling thread decides from its own pace.
 */
function idlePool(): ChunkPool & { warmed: number } {
  return {
    size: 1,
    ready: 0,
    minBytes: 0,
    warmed: 0,
    warm() {
      this.warmed++;
    },
    run: () => Promise.reject(new Error("no thread is ready")),
    close: async () => undefined,
  };
}

async function filled(store: MemoryStore, chunks: number): Promise<Awaited<ReturnType<typeof create>>> {
  const z = await create({ store, shape: [chunks * 8], chunks: [8], dtype: "<i4", compressor: null, fillValue: -1 });
  await z.set(
    null,
    { data: Int32Array.from({ length: chunks * 8 }, (_, i) => i), shape: [chunks * 8] },
    { pool: false },
  );
  return z;
}

describe("a pool's threads start only for work long enough to repay starting them", () => {
  it("a quick read stays on the calling thread and leaves the threads unstarted", async () => {
    const pool = idlePool();
    const z = await filled(new MemoryStore(), 400);
    const got = await z.get(null, { pool });
    expect(Array.from(got.data as Int32Array).slice(0, 3)).toEqual([0, 1, 2]);
    expect(pool.warmed).toBe(0);
  });

  it("the pace after the first work (which loads codecs) decides, and they start once", () => {
    const pool = idlePool();
    const observe = threadStarter(pool);
    observe(128, 50, 4000); // the first batch: codecs loading, nothing decided
    expect(pool.warmed).toBe(0);
    observe(128, 5, 3872); // ~150 ms to go at 39 µs a chunk: not worth a thread
    expect(pool.warmed).toBe(0);
    observe(128, 15, 3744); // 20 ms for 256 chunks, ~290 ms to go
    expect(pool.warmed).toBe(0);
    observe(128, 20, 3616); // 40 ms for 384: ~380 ms to go, less than a thread repays
    expect(pool.warmed).toBe(0);
    observe(128, 30, 3488); // 70 ms for 512: ~480 ms to go
    expect(pool.warmed).toBe(1);
    observe(128, 50, 3488);
    expect(pool.warmed).toBe(1);
  });

  it("large chunks slow to decode start them after the second", () => {
    const pool = idlePool();
    const observe = threadStarter(pool);
    observe(1, 30, 63);
    observe(1, 8, 62);
    expect(pool.warmed).toBe(1);
  });

  it("a large read asks for them as it begins", async () => {
    const pool = idlePool();
    // 24 chunks of 8 MiB, none stored: nothing to decode, but the threads are asked for first.
    const z = await create({
      store: new MemoryStore(),
      shape: [24 << 21],
      chunks: [1 << 21],
      dtype: "<f4",
      compressor: null,
    });
    await z.get([slice(0, 24 << 21)], { pool });
    expect(pool.warmed).toBe(1);
  });

  it("a large write asks for them before it encodes a chunk", async () => {
    const store = new MemoryStore();
    const z = await create({ store, shape: [24 << 21], chunks: [1 << 21], dtype: "<f4", compressor: null });
    const pool = idlePool();
    let storedWhenAsked: number | undefined;
    pool.warm = () => void (storedWhenAsked ??= store.size);
    await z.set([slice(0, 24 << 21)], 1, { pool });
    expect(storedWhenAsked).toBe(1); // .zarray only
    expect(store.size).toBe(25);
  });

  it("threads started earlier are used at once, without asking again", async () => {
    const pool = { ...idlePool(), ready: 1 } as ChunkPool & { warmed: number };
    let sent = 0;
    // Each chunk answered as missing: only whether batches are sent matters here.
    pool.run = async (batch) => (
      sent++, { ok: true, decoded: batch.op === "read" ? batch.items.map(() => null) : undefined }
    );
    const z = await filled(new MemoryStore(), 400);
    await z.get(null, { pool });
    expect(sent).toBeGreaterThan(0);
    expect(pool.warmed).toBe(0);
  });
});
