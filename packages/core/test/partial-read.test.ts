/*
 * Reads that decode only the part of a chunk a selection touches (blosc's partial decoding, or no
 * compressor, through a store's getRange) give exactly what whole-chunk reads give: every
 * selection kind, dtypes in both byte orders, C and F order, edge chunks, missing chunks.
 */
import { describe, expect, it } from "vitest";
import {
  ChunkError,
  consolidateMetadata,
  create,
  defaultCodecRegistry,
  LRUStoreCache,
  MemoryStore,
  openConsolidated,
  openArray,
  slice,
  type NdArray,
  type ZarrArray,
} from "@z/core";
import { CodecError } from "@z/codecs";
import type { ArrayMetadata, ByteRange, CodecConfig, Store } from "@z/meta";
import { chainV2 } from "../src/array-format.js";
import { ChunkCodec } from "../src/chunk-codec.js";

/** The same values without getRange: every read decodes whole chunks. */
const wholeChunksOnly = (store: Store): Store => ({ get: (key, options) => store.get(key, options) });

/** Counts getRange calls and the bytes they return. */
function counting(store: Store): Store & { ranges: number; rangeBytes: number } {
  const counted = {
    ranges: 0,
    rangeBytes: 0,
    get: (key: string) => store.get(key),
    getRange: async (key: string, range: ByteRange) => {
      const bytes = await store.getRange!(key, range);
      counted.ranges++;
      counted.rangeBytes += bytes?.length ?? 0;
      return bytes;
    },
  };
  return counted;
}

const bytesOf = (nd: NdArray) => {
  const data = nd.data as unknown as ArrayBufferView;
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
};

function expectSame(a: NdArray, b: NdArray, what: string): void {
  expect(a.shape, what).toEqual(b.shape);
  expect(Buffer.compare(bytesOf(a), bytesOf(b)), what).toBe(0);
}

const SHAPE = [130, 250];
const CHUNKS = [60, 100];

/** Values that tell elements apart, in the dtype's typed array. */
async function filled(dtype: string, order: "C" | "F", compressor: CodecConfig | null): Promise<ZarrArray> {
  const z = await create({ shape: SHAPE, chunks: CHUNKS, dtype, order, compressor, store: new MemoryStore() });
  const all = await z.get();
  const data = all.data as unknown as { length: number; [i: number]: number | bigint };
  const big = data instanceof BigInt64Array || data instanceof BigUint64Array;
  for (let i = 0; i < data.length; i++) {
    const v = (i * 7919) % 65521;
    data[i] = big
      ? BigInt(v)
      : dtype.includes("b1")
        ? v & 1
        : dtype.includes("u1")
          ? v & 255
          : v / (dtype.includes("f") ? 3 : 1);
  }
  await z.set(null, all);
  return z;
}

/** A selection of every kind, small and large, on and across chunk edges. */
function selections(): [string, (z: ZarrArray) => Promise<NdArray>][] {
  const mask = new Uint8Array(SHAPE[0]! * SHAPE[1]!);
  for (const [i, j] of [
    [0, 0],
    [61, 101],
    [129, 249],
    [70, 5],
  ])
    mask[i! * SHAPE[1]! + j!] = 1;
  return [
    ["a window inside one chunk", (z) => z.get([slice(3, 17), slice(5, 40)])],
    ["a window across four chunks", (z) => z.get([slice(50, 70), slice(90, 110)])],
    ["a window in the edge chunk", (z) => z.get([slice(121, 130), slice(203, 250)])],
    ["one element", (z) => z.get([61, 101])],
    ["one row", (z) => z.get([5, slice(null)])],
    ["one column with a step", (z) => z.get([slice(10, 125, 3), 7])],
    ["negative steps", (z) => z.get([slice(null, null, -2), slice(110, 90, -1)])],
    ["the whole array", (z) => z.get()],
    ["orthogonal index lists", (z) => z.oindex.get([[3, 70, 5, 5, 64], slice(10, 20)])],
    [
      "orthogonal lists in both dimensions",
      (z) =>
        z.oindex.get([
          [1, 2],
          [200, 3, 3],
        ]),
    ],
    [
      "coordinates",
      (z) =>
        z.vindex.get([
          [1, 65, 129, 1],
          [2, 240, 0, 3],
        ]),
    ],
    ["a mask", (z) => z.vindex.get({ data: mask, shape: SHAPE, dtype: { kind: "b" } })],
    ["a block", (z) => z.blocks.get([1, 2])],
  ];
}

const COMPRESSORS: [string, CodecConfig | null, boolean][] = [
  ["blosc lz4 shuffle", { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 }, true],
  // zstd blocks are never split: 2 KiB blocks stand, so a chunk has many.
  ["blosc zstd bitshuffle, small blocks", { id: "blosc", cname: "zstd", clevel: 3, shuffle: 2, blocksize: 2048 }, true],
  ["blosc stored (clevel 0)", { id: "blosc", cname: "lz4", clevel: 0, shuffle: 0, blocksize: 0 }, true],
  ["no compressor", null, true],
  ["zlib (no partial decoding)", { id: "zlib", level: 1 }, false],
];

describe("partial chunk reads", () => {
  for (const [name, compressor, partial] of COMPRESSORS) {
    for (const order of ["C", "F"] as const) {
      it(`give what whole-chunk reads give: ${name}, order ${order}`, async () => {
        for (const dtype of ["<f4", ">f8", "<i2", "|u1", ">i4", "<c8", "<u8", "|b1", "bfloat16"]) {
          const z = await filled(dtype, order, compressor);
          const store = counting(z.store);
          const partly = await openArray(store);
          const whole = await openArray(wholeChunksOnly(z.store));
          for (const [what, select] of selections()) {
            expectSame(await select(partly), await select(whole), `${dtype} ${what}`);
          }
          expect(store.ranges > 0, `${dtype}: partial reads used`).toBe(partial);
        }
      }, 60_000);
    }
  }

  it("read fields of structured arrays and caller buffers the same way", async () => {
    const z = await create({
      shape: SHAPE,
      chunks: CHUNKS,
      dtype: [
        ["a", "<i4"],
        ["b", ">f8"],
      ],
      store: new MemoryStore(),
    });
    const all = await z.get();
    (all.data as Uint8Array).forEach((_, i, a) => (a[i] = (i * 13) & 255));
    await z.set(null, all);
    const partly = await openArray(z.store);
    const whole = await openArray(wholeChunksOnly(z.store));
    const sel = [slice(40, 80), slice(95, 120)];
    expectSame(await partly.get(sel, { fields: "b" }), await whole.get(sel, { fields: "b" }), "field b");
    expectSame(await partly.get(sel), await whole.get(sel), "whole elements");
    const f = await filled("<f4", "C", { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 });
    const out = new Float32Array(14 * 35).fill(-1);
    const r = await (await openArray(f.store)).get([slice(3, 17), slice(5, 40)], { out });
    expect(r.data).toBe(out);
    expectSame(r, await (await openArray(wholeChunksOnly(f.store))).get([slice(3, 17), slice(5, 40)]), "into out");
  });

  it("read only a part of large chunks", async () => {
    const z = await create({ shape: [1024, 1024], chunks: [1024, 1024], dtype: "<f4", store: new MemoryStore() });
    await z.set(null, {
      data: Float32Array.from({ length: 1024 * 1024 }, (_, i) => Math.sin(i / 5000) + (i % 7) / 100),
      shape: [1024, 1024],
    });
    const stored = (await z.store.get("0.0"))!.length;
    const store = counting(z.store);
    const window = await (await openArray(store)).get([slice(500, 600), slice(10, 110)]);
    expectSame(
      window,
      await (await openArray(wholeChunksOnly(z.store))).get([slice(500, 600), slice(10, 110)]),
      "window",
    );
    // The header and block starts, then one or two 512 KiB blocks of eight.
    expect(store.ranges).toBe(2);
    expect(store.rangeBytes).toBeLessThan(stored / 3);
  });

  it("leave arrays behind an LRUStoreCache to whole chunks, which the cache keeps", async () => {
    const z = await filled("<f4", "C", { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 });
    const inner = counting(z.store);
    const cache = new LRUStoreCache(inner, 1 << 24);
    const cached = await openArray(cache);
    for (let i = 0; i < 3; i++)
      expectSame(
        await cached.get([slice(3, 17), slice(5, 40)]),
        await z.get([slice(3, 17), slice(5, 40)]),
        "through the cache",
      );
    expect(inner.ranges).toBe(0);
    expect(cache.hits).toBeGreaterThan(0);
  });

  it("go through consolidated metadata to the store's ranges, and read whole chunks when it has none", async () => {
    const z = await filled("<f4", "C", { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 });
    await consolidateMetadata(z.store as MemoryStore);
    const inner = counting(z.store);
    let gets = 0;
    const wholeOnly: Store = { get: (key) => (gets++, z.store.get(key)) };
    const window = [slice(3, 17), slice(5, 40)];
    const expected = await z.get(window);
    expectSame(await ((await openConsolidated(inner)) as ZarrArray).get(window), expected, "consolidated over ranges");
    expect(inner.ranges).toBeGreaterThan(0);
    expectSame(
      await ((await openConsolidated(wholeOnly)) as ZarrArray).get(window),
      expected,
      "consolidated without ranges",
    );
    expect(gets).toBe(3); // zarr.json (none: a v3 root would hold its consolidation) and .zmetadata at once, then the one chunk, once
  });

  it("fill missing chunks, also into a caller's buffer", async () => {
    const z = await create({ shape: SHAPE, chunks: CHUNKS, dtype: "<i4", fillValue: 42, store: new MemoryStore() });
    await z.set([slice(0, 60), slice(0, 100)], 1);
    const r = await z.get([slice(55, 65), slice(95, 105)]);
    const expected = Array.from({ length: 100 }, (_, i) => (Math.floor(i / 10) < 5 && i % 10 < 5 ? 1 : 42));
    expect(Array.from(r.data as Int32Array)).toEqual(expected);
    const out = new Int32Array(100).fill(-7);
    expect(Array.from((await z.get([slice(55, 65), slice(95, 105)], { out })).data as Int32Array)).toEqual(expected);
  });

  it("refuse corrupt and wrongly sized chunks with typed errors naming the chunk", async () => {
    const z = await filled("<f4", "C", { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 });
    const store = z.store as MemoryStore;
    const frame = (await store.get("0.0"))!;
    const bad = frame.slice();
    new DataView(bad.buffer).setUint32(16, 3, true); // the first block's start, inside the header
    await store.set("0.0", bad);
    await expect(z.get([slice(3, 17), slice(5, 40)])).rejects.toThrow(CodecError);
    await expect(z.get([slice(3, 17), slice(5, 40)])).rejects.toThrow(/0\.0/);
    const plain = await filled("<f4", "C", null);
    const raw = (await plain.store.get("0.0"))!;
    const longer = new Uint8Array(raw.length + 4);
    longer.set(raw);
    await (plain.store as MemoryStore).set("0.0", longer);
    await expect(plain.get([slice(55, 60), slice(0, 100)])).rejects.toThrow(ChunkError);
    await (plain.store as MemoryStore).set("0.0", raw.subarray(0, raw.length - 4));
    await expect(plain.get([slice(55, 60), slice(90, 100)])).rejects.toThrow(/decoded to 23996 bytes, expected 24000/);
  });
});

describe("ChunkCodec.decodeInto (for decoding into reused buffers)", () => {
  it("decodes into the caller's buffer what decode gives, through the codec's decodeInto or a copy", async () => {
    for (const compressor of [
      { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
      { id: "zlib", level: 1 },
      null,
    ] as (CodecConfig | null)[]) {
      const z = await filled(">f8", "F", compressor);
      const codec = ChunkCodec.fromChain(
        await chainV2(z.metadata as ArrayMetadata, defaultCodecRegistry(), ".zarray"),
        z.metadata as ArrayMetadata,
      );
      const stored = (await z.store.get("1.2"))!;
      const expected = await codec.decode(stored, "1.2");
      const out = new Uint8Array(codec.chunkBytes + 16).fill(7);
      const got = await codec.decodeInto(stored, out, "1.2");
      expect(got.buffer, JSON.stringify(compressor)).toBe(out.buffer);
      expect(Buffer.compare(got, expected), JSON.stringify(compressor)).toBe(0);
      expect(out[codec.chunkBytes], "left alone past the chunk").toBe(7);
      // Thrown at once or rejected later, as the codec decodes synchronously or not.
      await expect(
        Promise.resolve().then(() => codec.decodeInto(stored, new Uint8Array(codec.chunkBytes - 1), "1.2")),
      ).rejects.toThrow(ChunkError);
    }
  });
});

describe("partial reads of a directory store", () => {
  it("read the parts of chunks into a few reused buffers, window after window", async () => {
    const { TempStore } = await import("@z/store-fs");
    const store = new TempStore();
    try {
      const z = await create({
        store,
        shape: [1000, 1000],
        chunks: [500, 500],
        dtype: "<f4",
        compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 4096 },
      });
      await z.set(null, { data: Float32Array.from({ length: 1e6 }, (_, i) => i * 0.5), shape: [1000, 1000] });
      const buffers = new Set<ArrayBufferLike>();
      let reads = 0;
      const read = store.getRangeSyncInto.bind(store);
      store.getRangeSyncInto = (key, range, buffer) => {
        const bytes = read(key, range, buffer);
        reads++;
        if (bytes !== undefined) buffers.add(bytes.buffer);
        return bytes;
      };
      const whole = await openArray(wholeChunksOnly(store), { mode: "r" });
      for (let i = 0; i < 20; i++) {
        const window = [slice(23 * i, 23 * i + 30), slice(41 * i, 41 * i + 20)];
        expectSame(await z.get(window), await whole.get(window), `window ${i}`);
      }
      expect(reads).toBeGreaterThan(40);
      // The first buffers grow to fit the largest parts; after that they are reused.
      expect(buffers.size).toBeLessThanOrEqual(4);
    } finally {
      await store.close();
    }
  });

  it("read ranges on the calling thread, unless the store changes how it reads ranges", async () => {
    const { TempStore } = await import("@z/store-fs");
    class CountingStore extends TempStore {
      ranges = 0;
      override async getRange(key: string, range: ByteRange) {
        this.ranges++;
        return super.getRange(key, range);
      }
    }
    for (const store of [new TempStore(), new CountingStore()]) {
      try {
        const z = await create({
          store,
          shape: [1000, 1000],
          chunks: [500, 500],
          dtype: "<f4",
          compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 4096 },
        });
        await z.set(null, { data: Float32Array.from({ length: 1e6 }, (_, i) => i * 0.5), shape: [1000, 1000] });
        let sync = 0;
        const read = store.getRangeSyncInto.bind(store);
        store.getRangeSyncInto = (key, range, buffer) => (sync++, read(key, range, buffer));
        const window = await z.get([slice(490, 510), slice(10, 20)]);
        expectSame(
          window,
          await (await openArray(wholeChunksOnly(store), { mode: "r" })).get([slice(490, 510), slice(10, 20)]),
          "a window across two chunks",
        );
        if (store instanceof CountingStore) expect([sync, store.ranges > 0]).toEqual([0, true]);
        else expect(sync).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    }
  });
});
