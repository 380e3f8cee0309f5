/*
 * Windows of a sharded array in a store that reads synchronously (a directory): where reads are
 * cheap, an inner chunk of which a window needs a small part is read by that part only (its blosc
 * header, block table and the blocks holding the window), not whole. The values are those a
 * whole read gives, and the index-at-the-end check holds on this path too.
 */
import { describe, expect, it } from "vitest";
import { create, MemoryStore, openArray, slice } from "@z/core";
import { ShardError } from "@z/codecs/v3";
import { crc32c } from "../../codecs/src/checksum32.js";
import { TempStore } from "@z/store-fs";
import type { ByteRange } from "@z/meta";

const BLOSC = {
  name: "blosc",
  configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 4096 },
};
const values = Float32Array.from({ length: 512 * 512 }, (_, i) => Math.sin(i / 97) * 1000 + (i % 512));

/** A directory store counting the bytes its synchronous range reads return. */
function counted(store: TempStore): { bytes: () => number } {
  let bytes = 0;
  const into = store.getRangeSyncInto.bind(store);
  store.getRangeSyncInto = (key: string, range: ByteRange, buffer: Uint8Array) => {
    const got = into(key, range, buffer);
    bytes += got?.length ?? 0;
    return got;
  };
  return { bytes: () => bytes };
}

async function sharded(store: TempStore | MemoryStore) {
  const a = await create({
    store,
    zarrFormat: 3,
    shape: [512, 512],
    chunks: [256, 256],
    shards: [512, 512],
    dtype: "float32",
    compressors: [BLOSC],
  });
  await a.set(undefined, { data: values, shape: [512, 512] });
  return a;
}

const expected = (r0: number, r1: number, c0: number, c1: number): number[] => {
  const out: number[] = [];
  for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out.push(values[r * 512 + c]!);
  return out;
};

/**
 * Writes the sharded array to `store`, lengthens the index entry of inner chunk [1, 1] (the last
 * stored) by `by` bytes, its crc32c made again, and reads a window of that inner chunk by parts:
 * what the read threw. The index (4 entries of 16 bytes and a crc32c) is the shard's last 68 bytes.
 */
async function lengthenLastEntry(store: TempStore, by: bigint): Promise<unknown> {
  await sharded(store);
  const shard = (await store.get("c/0/0"))!;
  const index = shard.length - 68;
  const view = new DataView(shard.buffer, shard.byteOffset, shard.byteLength);
  const at = index + 3 * 16 + 8;
  view.setBigUint64(at, view.getBigUint64(at, true) + by, true);
  view.setUint32(index + 64, crc32c(shard.subarray(index, index + 64)), true);
  await store.set("c/0/0", shard);
  const a = await openArray(store, { mode: "r" });
  return a.get([slice(300, 302), slice(300, 302)]).catch((e: unknown) => e);
}

describe("windows of a shard in a directory store", () => {
  it("read only the blosc blocks they need of each inner chunk, and give the values a whole read does", async () => {
    const store = new TempStore();
    try {
      await sharded(store);
      const shard = (await store.get("c/0/0"))!;
      const reads = counted(store);
      const a = await openArray(store, { mode: "r" });
      // Each inner chunk's stored length, from the shard's index (the last 4 x 16 + 4 bytes).
      const index = new DataView(shard.buffer, shard.byteOffset + shard.length - 68, 64);
      const stored = (i: number, j: number) => Number(index.getBigUint64((i * 2 + j) * 16 + 8, true));
      const windows = Array.from({ length: 20 }, (_, i) => [(i * 37) % 500, (i * 53) % 500] as const);
      let whole = 0;
      for (const [r, c] of windows) {
        const got = await a.get([slice(r, r + 10), slice(c, c + 10)]);
        expect(Array.from(got.data as Float32Array), `window at ${r}, ${c}`).toEqual(expected(r, r + 10, c, c + 10));
        for (let i = Math.floor(r / 256); i <= Math.floor((r + 9) / 256); i++)
          for (let j = Math.floor(c / 256); j <= Math.floor((c + 9) / 256); j++) whole += stored(i, j);
      }
      // Inner chunks of 4 blosc blocks (blosc keeps 64 KiB ones here): 10 rows lie in one or two of them.
      expect(reads.bytes()).toBeLessThan(whole / 2);
    } finally {
      await store.close();
    }
  });

  it("still refuses an entry reaching into the index, naming the inner chunk", async () => {
    const store = new TempStore();
    try {
      // Into the index, which is the last 68 bytes.
      const error = await lengthenLastEntry(store, 8n);
      expect(error).toBeInstanceOf(ShardError);
      expect(error).toMatchObject({ key: "c/0/0", innerChunk: [[1, 1]] });
      expect((error as Error).message).toMatch(/which overlap its index/);
    } finally {
      await store.close();
    }
  });

  it("refuse an entry reaching past the shard's end, naming the inner chunk", async () => {
    const store = new TempStore();
    try {
      const error = await lengthenLastEntry(store, 100_000n);
      expect(error).toBeInstanceOf(ShardError);
      expect(error).toMatchObject({ key: "c/0/0", innerChunk: [[1, 1]] });
      expect((error as Error).message).toMatch(
        /, but the shard ends at byte \d+ or before \(its index is the last 68\)$/,
      );
    } finally {
      await store.close();
    }
  });

  it("read whole inner chunks from a store whose reads are round trips (memory here), with the same values", async () => {
    const store = new MemoryStore();
    const a = await sharded(store);
    const got = await a.get([slice(100, 110), slice(400, 410)]);
    expect(Array.from(got.data as Float32Array)).toEqual(expected(100, 110, 400, 410));
  });
});
