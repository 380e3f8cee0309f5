/**
 * Sharded v3 arrays (`create({ zarrFormat: 3, shards })`) through the engine: values read and
 * written as an unsharded array holds them; small selections read a shard's index once (then it
 * is cached) and only the inner chunks they touch, neighbours merged (counted exactly below);
 * whole shards read whole; writes of part of a shard read it, change it and store it back, inner
 * chunks of the fill left out; what a write changes is never read from a stale index; corrupt
 * shards are typed errors naming the shard. What TensorStore and zarrita read and write of shards
 * is checked in apps/conformance.
 */
import { afterAll, describe, expect, it } from "vitest";
import { create, MemoryStore, MissingChunkError, openArray, slice, ZarrArray, type Slice } from "@z/core";
import { WorkerPool } from "@z/core/node";
import { ShardError } from "@z/codecs/v3";
import type { ByteRange, NamedConfig, WritableStore } from "@z/meta";

const pool = new WorkerPool({ size: 1, minBytes: 0 });
afterAll(() => pool.close());

/** A store that counts what is asked of it: whole values by key, ranges (and their bytes), writes. */
function counting(inner: MemoryStore = new MemoryStore()) {
  const seen = {
    gets: [] as string[],
    ranges: [] as { key: string; range: ByteRange }[],
    sets: [] as string[],
    deletes: [] as string[],
  };
  const store: WritableStore = {
    get: (key) => {
      if (key === "c" || key.startsWith("c/")) seen.gets.push(key);
      return inner.get(key);
    },
    getRange: (key, range) => {
      seen.ranges.push({ key, range });
      return inner.getRange(key, range);
    },
    set: (key, value) => {
      if (!key.endsWith("zarr.json")) seen.sets.push(key);
      return inner.set(key, value);
    },
    delete: (key) => {
      seen.deletes.push(key);
      return inner.delete(key);
    },
  };
  const reset = () => {
    seen.gets.length = 0;
    seen.ranges.length = 0;
    seen.sets.length = 0;
    seen.deletes.length = 0;
  };
  return { store, seen, inner, reset };
}

/** Values i * 3 + 1 (float64), C order. */
const values = (n: number): Float64Array => Float64Array.from({ length: n }, (_, i) => i * 3 + 1);

/** The entries of a stored shard's index (index at the end, bytes + crc32c): [offset, length] or null. */
function indexOf(shard: Uint8Array, count: number): ([number, number] | null)[] {
  const view = new DataView(shard.buffer, shard.byteOffset + shard.length - 4 - 16 * count, 16 * count);
  return Array.from({ length: count }, (_, i) => {
    const offset = view.getBigUint64(16 * i, true);
    const length = view.getBigUint64(16 * i + 8, true);
    return offset === 2n ** 64n - 1n ? null : [Number(offset), Number(length)];
  });
}

describe("a sharded array holds what an unsharded one holds", () => {
  it("whole, in windows across shard and inner chunk edges, in a pool, with partial edge shards", async () => {
    const shape = [37, 29];
    const data = values(37 * 29);
    const sharded = await create({
      zarrFormat: 3,
      shape,
      chunks: [4, 5],
      shards: [8, 10],
      dtype: "float64",
      fillValue: -1,
    });
    const plain = await create({ zarrFormat: 3, shape, chunks: [4, 5], dtype: "float64", fillValue: -1 });
    for (const a of [sharded, plain]) await a.set([slice(0, 30)], { data: data.subarray(0, 30 * 29), shape: [30, 29] });
    expect(Array.from((await sharded.get()).data as Float64Array)).toEqual(
      Array.from((await plain.get()).data as Float64Array),
    );
    expect(Array.from((await sharded.get(undefined, { pool })).data as Float64Array)).toEqual(
      Array.from((await plain.get()).data as Float64Array),
    );
    const windows: Slice[][] = [
      [slice(3, 9), slice(4, 12)],
      [slice(29, 37), slice(20, 29)],
      [slice(0, 1), slice(0, 1)],
      [slice(7, 33, 5), slice(28, 0, -3)],
    ];
    for (const w of windows) {
      expect(Array.from((await sharded.get(w)).data as Float64Array), JSON.stringify(w)).toEqual(
        Array.from((await plain.get(w)).data as Float64Array),
      );
    }
  });

  it("blosc inner chunks of many blocks: windows decode only the blocks they need, as whole reads give", async () => {
    const codecs: NamedConfig[] = [
      { name: "bytes", configuration: { endian: "little" } },
      { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 8, blocksize: 512 } },
    ];
    const shape = [64, 96];
    const sharded = await create({
      zarrFormat: 3,
      shape,
      chunks: [32, 32],
      shards: [64, 96],
      dtype: "float64",
      codecs,
    });
    const plain = await create({ zarrFormat: 3, shape, chunks: [64, 96], dtype: "float64", codecs });
    const data = Float64Array.from({ length: 64 * 96 }, (_, i) => Math.sin(i) * 1e6);
    for (const a of [sharded, plain]) await a.set(undefined, { data, shape });
    const whole = Array.from((await plain.get()).data as Float64Array);
    for (const [r0, r1, c0, c1] of [
      [0, 1, 0, 1],
      [3, 9, 30, 34],
      [31, 33, 31, 65],
      [40, 64, 90, 96],
      [10, 12, 0, 96],
    ]) {
      const got = Array.from((await sharded.get([slice(r0!, r1!), slice(c0!, c1!)])).data as Float64Array);
      const want: number[] = [];
      for (let r = r0!; r < r1!; r++) for (let c = c0!; c < c1!; c++) want.push(whole[r * 96 + c]!);
      expect(got, `${r0}:${r1}, ${c0}:${c1}`).toEqual(want);
    }
  });

  it("fancy selections (points, orthogonal lists) read by the box they touch", async () => {
    const a = await create({ zarrFormat: 3, shape: [20, 20], chunks: [2, 2], shards: [10, 10], dtype: "int32" });
    const data = Int32Array.from({ length: 400 }, (_, i) => i);
    await a.set(undefined, { data, shape: [20, 20] });
    const points = await a.getCoordinateSelection([Int32Array.of(1, 3, 12), Int32Array.of(2, 0, 19)]);
    expect(Array.from(points.data as Int32Array)).toEqual([22, 60, 259]);
    const orth = await a.getOrthogonalSelection([Int32Array.of(4, 1), Int32Array.of(3, 5, 4)]);
    expect(Array.from(orth.data as Int32Array)).toEqual([83, 85, 84, 23, 25, 24]);
  });
});

describe("strings in shards", () => {
  it("read and written whole shards at a time; a value the inner codec refuses names the shard and inner chunk", async () => {
    const store = new MemoryStore();
    const a = await create({
      store,
      zarrFormat: 3,
      shape: [10],
      chunks: [2],
      shards: [4],
      dtype: "string",
      fillValue: "",
    });
    await a.set([slice(0, 7)], { data: ["a", "", "", "", "é", "x", "yz"], shape: [7] });
    const b = await openArray(store, { mode: "r" });
    expect((await b.get()).data).toEqual(["a", "", "", "", "é", "x", "yz", "", "", ""]);
    expect((await b.get([slice(4, 6)])).data).toEqual(["é", "x"]);
    await expect(a.set([slice(8, 9)], { data: [3], shape: [1] })).rejects.toThrow(
      "shard c/2, inner chunk [0]: codec vlen-utf8 failed to encode in chunk c/2: item 0: expected a string, found 3",
    );
  });
});

describe("reads by ranges: the index once, then the inner chunks touched, neighbours merged", () => {
  // 256 KiB inner chunks (64 x 512 float64, stored as they are), 2 x 8 of them a shard, 4 shards:
  // an inner chunk's neighbour in its row is stored right after it (one request reads both), the
  // one below it 7 inner chunks (1.75 MiB) later, past the 1 MiB gap (two requests).
  const shape = [512, 4096];
  const inner = [64, 512];
  const shards = [128, 4096];

  async function written() {
    const c = counting();
    const a = await create({
      store: c.store,
      zarrFormat: 3,
      shape,
      chunks: inner,
      shards,
      dtype: "float64",
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    });
    await a.set(undefined, { data: values(512 * 4096), shape });
    c.reset();
    return { ...c, array: await openArray(c.store, { mode: "r" }) };
  }

  /** 300 windows of 100 x 100 at places a seeded generator picks. */
  const windows = (() => {
    let seed = 12345;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    return Array.from({ length: 300 }, () => [next(512 - 100), next(4096 - 100)] as const);
  })();

  it("300 random 100 x 100 windows: exactly the index reads and one request per row of inner chunks touched", async () => {
    const { array, seen } = await written();
    const seenShards = new Set<number>();
    let indexReads = 0;
    let merged = 0;
    let touched = 0;
    for (const [r, c] of windows) {
      const nd = await array.get([slice(r, r + 100), slice(c, c + 100)]);
      const got = nd.data as Float64Array;
      expect(got[0]).toBe((r * 4096 + c) * 3 + 1);
      expect(got[100 * 100 - 1]).toBe(((r + 99) * 4096 + c + 99) * 3 + 1);
      const columns = Math.floor((c + 99) / 512) - Math.floor(c / 512) + 1;
      for (let shard = Math.floor(r / 128); shard <= Math.floor((r + 99) / 128); shard++) {
        if (!seenShards.has(shard)) indexReads++;
        seenShards.add(shard);
        const rows =
          Math.floor(Math.min(r + 99, shard * 128 + 127) / 64) - Math.floor(Math.max(r, shard * 128) / 64) + 1;
        merged += rows;
        touched += rows * columns;
      }
    }
    expect(seen.gets).toEqual([]); // no whole shard read
    const indexRanges = seen.ranges.filter(({ range }) => "suffixLength" in range);
    expect(indexRanges.length).toBe(indexReads);
    expect(indexRanges.every(({ range }) => (range as { suffixLength: number }).suffixLength === 16 * 16 + 4)).toBe(
      true,
    );
    expect(seen.ranges.length).toBe(indexReads + merged);
    expect(seen.ranges.length).toBeLessThanOrEqual(indexReads + touched);
    expect([indexReads, merged, touched]).toEqual([4, 749, 887]);
  });

  it("a window in one inner chunk reads the index, then that inner chunk's bytes and the index's size more (checking the index follows it)", async () => {
    const { array, seen, inner: memory } = await written();
    await array.get([slice(70, 80), slice(600, 700)]); // shard 0, inner chunk (1, 1)
    const index = indexOf((await memory.get("c/0/0"))!, 16);
    expect(seen.ranges.map((r) => r.range)).toEqual([
      { suffixLength: 260 },
      { offset: index[9]![0], length: 64 * 512 * 8 + 260 },
    ]);
    // Known now to lie before the index: read alone.
    seen.ranges.length = 0;
    await array.get([slice(64, 66), slice(512, 514)]);
    expect(seen.ranges.map((r) => r.range)).toEqual([{ offset: index[9]![0], length: 64 * 512 * 8 }]);
  });

  it("a window over a shard not stored costs the one read of its index, and reads as the fill", async () => {
    const c = counting();
    const a = await create({
      store: c.store,
      zarrFormat: 3,
      shape: [64, 64],
      chunks: [4, 4],
      shards: [32, 32],
      dtype: "int16",
      fillValue: 9,
    });
    await a.set([slice(0, 32), slice(0, 32)], 1);
    c.reset();
    const nd = await a.get([slice(40, 44), slice(40, 44)]);
    expect(Array.from(nd.data as Int16Array)).toEqual(new Array(16).fill(9));
    expect(c.seen.ranges).toEqual([{ key: "c/1/1", range: { suffixLength: 16 * 64 + 4 } }]);
    expect(c.seen.gets).toEqual([]);
    const strict = await ZarrArray.open(c.store, "", { fillMissingChunks: false });
    await expect(strict.get([slice(40, 44), slice(40, 44)])).rejects.toBeInstanceOf(MissingChunkError);
  });

  it("indexes are cached per opened array, within `sharding.indexCacheBytes`: 0 keeps none", async () => {
    const { array, seen, store } = await written();
    const window = [slice(10, 20), slice(10, 20)];
    await array.get(window);
    await array.get(window);
    expect(seen.ranges.filter(({ range }) => "suffixLength" in range).length).toBe(1);
    seen.ranges.length = 0;
    const uncached = await openArray(store, { mode: "r", sharding: { indexCacheBytes: 0 } });
    await uncached.get(window);
    await uncached.get(window);
    expect(seen.ranges.filter(({ range }) => "suffixLength" in range).length).toBe(2);
  });

  it("a whole shard is read with one get, not by ranges", async () => {
    const { array, seen } = await written();
    await array.get([slice(128, 256)]);
    expect(seen.gets).toEqual(["c/1/0"]);
    expect(seen.ranges).toEqual([]);
  });
});

describe("writes", () => {
  it("a whole shard is one set; part of one reads it and stores it back; inner chunks of the fill are left out", async () => {
    const c = counting();
    const a = await create({
      store: c.store,
      zarrFormat: 3,
      shape: [8, 8],
      chunks: [2, 2],
      shards: [4, 4],
      dtype: "uint8",
      fillValue: 0,
    });
    await a.set([slice(0, 4), slice(0, 4)], {
      data: Uint8Array.from({ length: 16 }, (_, i) => (i < 8 ? i + 1 : 0)),
      shape: [4, 4],
    });
    expect(c.seen).toEqual({ gets: [], ranges: [], sets: ["c/0/0"], deletes: [] });
    // Rows 2-3 were all fill: inner chunks (1, 0) and (1, 1) are not stored.
    expect(indexOf((await c.inner.get("c/0/0"))!, 4).map((e) => e !== null)).toEqual([true, true, false, false]);
    c.reset();
    await a.set([slice(3, 4), slice(1, 2)], 7);
    expect(c.seen).toEqual({ gets: ["c/0/0"], ranges: [], sets: ["c/0/0"], deletes: [] });
    expect(indexOf((await c.inner.get("c/0/0"))!, 4).map((e) => e !== null)).toEqual([true, true, true, false]);
    expect(Array.from((await a.get([slice(0, 4), slice(0, 4)])).data as Uint8Array)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 7, 0, 0,
    ]);
    // The fill over all of it: the shard is deleted, as zarr-python 3 deletes a shard left empty.
    c.reset();
    await a.set([slice(0, 4), slice(0, 4)], 0);
    expect(c.seen.deletes).toEqual(["c/0/0"]);
    expect(await c.inner.get("c/0/0")).toBeUndefined();
  });

  it("writeEmptyChunks: true stores the inner chunks written with the fill too, and only those (as zarr-python 3 and TensorStore)", async () => {
    const store = new MemoryStore();
    const a = await create({
      store,
      zarrFormat: 3,
      shape: [4, 4],
      chunks: [2, 2],
      shards: [4, 4],
      dtype: "uint8",
      writeEmptyChunks: true,
    });
    await a.set([slice(0, 1), slice(0, 1)], 0);
    expect(indexOf((await store.get("c/0/0"))!, 4).map((e) => e !== null)).toEqual([true, false, false, false]);
    await a.set(undefined, 0);
    expect(indexOf((await store.get("c/0/0"))!, 4).every((e) => e !== null)).toBe(true);
  });

  it("part of a shard: the inner chunks it does not touch are copied as stored, never decoded", async () => {
    const c = counting();
    const a = await create({
      store: c.store,
      zarrFormat: 3,
      shape: [8, 8],
      chunks: [4, 4],
      shards: [8, 8],
      dtype: "int32",
      compressors: [{ name: "gzip", configuration: { level: 1 } }],
    });
    await a.set(undefined, { data: Int32Array.from({ length: 64 }, (_, i) => i + 1), shape: [8, 8] });
    // Inner chunk (1, 1) made undecodable: a write elsewhere must neither read nor change it.
    const shard = (await c.inner.get("c/0/0"))!.slice();
    const [at, length] = indexOf(shard, 4)[3]!;
    const broken = shard.subarray(at, at + length).map((b) => b ^ 0xff);
    shard.set(broken, at);
    await c.inner.set("c/0/0", shard);
    await a.set([slice(1, 3), slice(1, 3)], -5);
    const after = (await c.inner.get("c/0/0"))!;
    const [at2, length2] = indexOf(after, 4)[3]!;
    expect(after.subarray(at2, at2 + length2)).toEqual(broken);
    expect(Array.from((await a.get([slice(0, 4), slice(0, 4)])).data as Int32Array)).toEqual([
      1, 2, 3, 4, 9, -5, -5, 12, 17, -5, -5, 20, 25, 26, 27, 28,
    ]);
    await expect(a.get([slice(4, 8), slice(4, 8)])).rejects.toBeInstanceOf(ShardError);
  });

  it("strided, orthogonal and point writes into part of a shard change exactly what they select", async () => {
    const shape = [12, 12];
    const sharded = await create({ zarrFormat: 3, shape, chunks: [3, 4], shards: [6, 12], dtype: "float64" });
    const plain = await create({ zarrFormat: 3, shape, chunks: [3, 4], dtype: "float64" });
    for (const a of [sharded, plain]) {
      await a.set(undefined, { data: values(144), shape });
      await a.set([slice(1, 11, 3), slice(0, 12, 5)], -1);
      await a.oindex.set(
        [
          [2, 7],
          [0, 5, 11],
        ],
        -2,
      );
      await a.vindex.set(
        [
          [4, 9, 11],
          [3, 8, 1],
        ],
        { data: Float64Array.of(7, 8, 9), shape: [3] },
      );
    }
    expect(Array.from((await sharded.get()).data as Float64Array)).toEqual(
      Array.from((await plain.get()).data as Float64Array),
    );
  });

  it("writes of one process to one shard run one after another: none is lost, without a synchronizer", async () => {
    const store = new MemoryStore();
    const a = await create({ store, zarrFormat: 3, shape: [16], chunks: [1], shards: [16], dtype: "uint8" });
    const other = await openArray(store, { mode: "r+" });
    await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? a : other).set([slice(i, i + 1)], i + 1)));
    expect(Array.from((await a.get()).data as Uint8Array)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
  });
  it("a read after a write never uses the index the write made stale (here, and when a pool thread encoded it)", async () => {
    const c = counting();
    const a = await create({
      store: c.store,
      zarrFormat: 3,
      shape: [16, 16],
      chunks: [2, 2],
      shards: [16, 16],
      dtype: "int32",
      fillValue: 0,
    });
    await a.set(undefined, { data: Int32Array.from({ length: 256 }, (_, i) => i + 1), shape: [16, 16] });
    const window = [slice(6, 8), slice(6, 8)];
    expect(Array.from((await a.get(window)).data as Int32Array)).toEqual([103, 104, 119, 120]);
    // Inner chunks before (3, 3) emptied: its bytes move to the start of the shard.
    await a.set([slice(0, 6)], 0);
    expect(Array.from((await a.get(window)).data as Int32Array)).toEqual([103, 104, 119, 120]);
    await a.set([slice(0, 16), slice(0, 6)], { data: new Int32Array(96).fill(-2), shape: [16, 6] }, { pool });
    await a.set(window, { data: Int32Array.of(1, 2, 3, 4), shape: [2, 2] }, { pool });
    expect(Array.from((await a.get(window)).data as Int32Array)).toEqual([1, 2, 3, 4]);
    expect(Array.from((await a.get([slice(0, 2), slice(4, 8)])).data as Int32Array)).toEqual([
      -2, -2, 0, 0, -2, -2, 0, 0,
    ]);
  });
});

describe("corrupt shards: typed errors naming the shard", () => {
  /** One shard of 4 x 4 inner chunks of 2 x 2 int16 stored as they are: 8 bytes each, then the 260-byte index. */
  async function oneShard() {
    const store = new MemoryStore();
    const a = await create({
      store,
      zarrFormat: 3,
      shape: [8, 8],
      chunks: [2, 2],
      shards: [8, 8],
      dtype: "int16",
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    });
    await a.set(undefined, { data: Int16Array.from({ length: 64 }, (_, i) => i + 1), shape: [8, 8] });
    return { store, shard: (await store.get("c/0/0"))! };
  }
  const small = [slice(0, 2), slice(0, 2)];

  it("an index failing its crc32c, read whole and by ranges", async () => {
    const { store, shard } = await oneShard();
    const bad = shard.slice();
    bad[bad.length - 10]! ^= 1;
    await store.set("c/0/0", bad);
    const a = await openArray(store, { mode: "r" });
    for (const read of [() => a.get(), () => a.get(small)]) {
      const error = await read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ShardError);
      expect(error).toMatchObject({ code: "ZARR_CODEC", key: "c/0/0" });
      expect((error as Error).message).toMatch(/^shard c\/0\/0: its index does not decode: .*crc32c/i);
    }
  });

  it("a shard shorter than its index", async () => {
    const { store } = await oneShard();
    await store.set("c/0/0", new Uint8Array(10));
    const a = await openArray(store, { mode: "r" });
    for (const read of [() => a.get(), () => a.get(small)]) {
      await expect(read()).rejects.toThrow(
        "shard c/0/0: its index takes 260 bytes (16 inner chunks), but the shard has only 10",
      );
    }
  });

  it("probes: every cut and every flipped byte of a shard of gzip inner chunks, read whole and by ranges, is a typed error naming the shard or the right values", async () => {
    const store = new MemoryStore();
    const a = await create({
      store,
      zarrFormat: 3,
      shape: [8, 8],
      chunks: [4, 4],
      shards: [8, 8],
      dtype: "int16",
      compressors: [{ name: "gzip", configuration: { level: 1 } }],
    });
    const data = Int16Array.from({ length: 64 }, (_, i) => i * 7 - 100);
    await a.set(undefined, { data, shape: [8, 8] });
    const shard = (await store.get("c/0/0"))!;
    const window = [slice(3, 6), slice(2, 7)];
    const inWindow = Array.from({ length: 15 }, (_, i) => data[(3 + Math.floor(i / 5)) * 8 + 2 + (i % 5)]);
    const probes: Uint8Array[] = [];
    for (let n = 0; n < shard.length; n++) probes.push(shard.subarray(0, n));
    for (let i = 0; i < shard.length; i++) {
      const flipped = shard.slice();
      flipped[i]! ^= 0x5a;
      probes.push(flipped);
    }
    let refused = 0;
    for (const probe of probes) {
      await store.set("c/0/0", probe);
      const fresh = await openArray(store, { mode: "r" }); // no index cached from the last probe
      for (const [read, expected] of [
        [() => fresh.get(), Array.from(data)],
        [() => fresh.get(window), inWindow],
      ] as const) {
        const got = await read().then(
          (nd) => Array.from(nd.data as Int16Array),
          (error: unknown) => error,
        );
        if (Array.isArray(got)) expect(got).toEqual(expected);
        else {
          refused++;
          expect(got).toMatchObject({ code: "ZARR_CODEC", key: "c/0/0" });
          expect((got as Error).message).toMatch(/^shard c\/0\/0/);
        }
      }
    }
    // Each cut and each flip is refused by one read or both (gzip's CRC-32 and length, the index's crc32c).
    expect(refused).toBeGreaterThanOrEqual(probes.length);
  });

  it("an entry reaching into the index (data cut short, index kept), naming the inner chunk, whole and by ranges", async () => {
    const { store, shard } = await oneShard();
    // The data section cut short, the index kept: inner chunk (3, 3)'s bytes are gone.
    const cut = new Uint8Array(shard.length - 4);
    cut.set(shard.subarray(0, shard.length - 264));
    cut.set(shard.subarray(shard.length - 260), shard.length - 264);
    await store.set("c/0/0", cut);
    const a = await openArray(store, { mode: "r" });
    const whole = await a.get().catch((e: unknown) => e);
    expect(whole).toMatchObject({ key: "c/0/0", innerChunk: [[3, 3]] });
    expect((whole as Error).message).toMatch(
      /^shard c\/0\/0, inner chunk \[3, 3\]: its index places the inner chunk at bytes 120 to 128, outside the shard's data \(bytes 0 to 124 of 384\)$/,
    );
    const part = await a.get([slice(6, 8), slice(6, 8)]).catch((e: unknown) => e);
    expect(part).toBeInstanceOf(ShardError);
    expect((part as Error).message).toMatch(
      /^shard c\/0\/0, inner chunk \[3, 3\]: its index places the inner chunk at bytes 120 to 128, which overlap its index \(the shard ends at byte 384, its index is the last 260\)$/,
    );
  });
});
