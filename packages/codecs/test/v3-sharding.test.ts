/**
 * `sharding_indexed` as a codec: a shard TensorStore 0.1.85 wrote decodes and re-encodes byte for
 * byte; boxes of a shard are read by ranges (the index once, then the inner chunks touched, merged
 * under the gap; nested shards within their bytes); the index cache is shared, bounded and dropped
 * on encode and `forget`; `writeEmptyChunks`; corrupt shards are `ShardError`s naming the shard and
 * the inner chunk. The engine's use of it is in @z/core's v3-sharding test; whole arrays against
 * TensorStore and zarrita in apps/conformance.
 */
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "@z/codecs";
import {
  compileCodecsV3,
  SHARD_COALESCE_GAP_BYTES,
  SHARD_INDEX_CACHE_BYTES,
  ShardError,
  type ShardingOptions,
} from "@z/codecs/v3";
import type { ChunkContext, Codec, StoredPart, StoredPartReader } from "@z/codecs/registry";
import { parseDataType, type DataType, type JsonObject, type JsonValue } from "@z/meta";
import { coalesce } from "../src/v3/shard-reads.js";

const LE: JsonObject = { name: "bytes", configuration: { endian: "little" } };
const CRC: JsonObject = { name: "crc32c" };
const sharding = (configuration: JsonObject): JsonObject => ({ name: "sharding_indexed", configuration });

/** The one stage of the chain `codecs` compiles to, for shards of `shape` and `dtype`. */
async function shardCodec(
  codecs: JsonObject[],
  shape: number[],
  dtype: DataType,
  fillValue: JsonValue = 0,
  sharding?: ShardingOptions,
): Promise<{ codec: Codec; chunk: (key?: string) => ChunkContext }> {
  const chain = await compileCodecsV3(codecs as never, { shape, dtype, fillValue }, defaultRegistry, {
    key: "a/zarr.json",
    ...(sharding === undefined ? {} : { sharding }),
  });
  expect(chain.stages.length).toBe(1);
  const elements = shape.reduce((a, b) => a * b, 1);
  return {
    codec: chain.stages[0]!.codec,
    chunk: (key = "a/c/0/0") => ({ dtype, itemsize: dtype.itemsize, elements, shape, key }),
  };
}

/** A reader of `stored` that records what it was asked for. */
function reader(stored: Uint8Array | undefined) {
  const asked: StoredPart[] = [];
  const read: StoredPartReader = async (part) => {
    asked.push(part);
    if (stored === undefined) return undefined;
    if ("suffixLength" in part) return stored.slice(Math.max(0, stored.length - part.suffixLength));
    return stored.slice(part.offset, part.offset + part.length);
  };
  return { read, asked };
}

/** `codec.decode`, its failure a rejection whether it throws or rejects (a codec may do either). */
const decoding = async (codec: Codec, data: Uint8Array, chunk: ChunkContext) => codec.decode(data, chunk);

const hex = (text: string): Uint8Array => Uint8Array.from(text.match(/../g)!, (h) => Number.parseInt(h, 16));
const int16 = parseDataType("<i2");
const int32 = parseDataType("<i4");
const i16 = (bytes: Uint8Array): number[] => Array.from(new Int16Array(bytes.slice().buffer));

describe("a shard TensorStore 0.1.85 wrote", () => {
  // ts.open({"driver": "zarr3", "metadata": {"shape": [6, 5], "data_type": "int16", "fill_value": -1,
  // "chunk_grid": [4, 4], "codecs": [sharding_indexed chunk_shape [2, 2], bytes little, index bytes
  // little + crc32c, index_location end]}}), then [0:3, 0:5] = arange(30).reshape(6, 5)[0:3]: its
  // shard c/0/0, all four inner chunks stored in C order ([0, 1, 5, 6], [2, 3, 7, 8], [10, 11, -1, -1],
  // [12, 13, -1, -1]: row 3 was not written), then the index.
  const TENSORSTORE =
    "000001000500060002000300070008000a000b00ffffffff0c000d00ffffffff" +
    "0000000000000000080000000000000008000000000000000800000000000000" +
    "100000000000000008000000000000001800000000000000080000000000000099858c3c";
  const codecs = [sharding({ chunk_shape: [2, 2], codecs: [LE], index_codecs: [LE, CRC], index_location: "end" })];

  it("decodes to its values, the rows TensorStore did not write as the fill", async () => {
    const { codec, chunk } = await shardCodec(codecs, [4, 4], int16, -1);
    const decoded = (await codec.decode(hex(TENSORSTORE), chunk())) as Uint8Array;
    expect(i16(decoded)).toEqual([0, 1, 2, 3, 5, 6, 7, 8, 10, 11, 12, 13, -1, -1, -1, -1]);
    expect(Buffer.from((await codec.encode(decoded, chunk())) as Uint8Array).toString("hex")).toBe(TENSORSTORE);
  });

  it("a box of it: the index from the end, then the four inner chunks in one read", async () => {
    const { codec, chunk } = await shardCodec(codecs, [4, 4], int16, -1);
    const { read, asked } = reader(hex(TENSORSTORE));
    const box = await codec.decodeRegion!(
      read,
      [
        { start: 1, stop: 3 },
        { start: 1, stop: 4 },
      ],
      chunk(),
    );
    expect(i16(box!)).toEqual([6, 7, 8, 11, 12, 13]);
    // The index is 4 x 16 + 4 bytes; the inner chunks lie at 0 to 32, read on for the index's size.
    expect(asked).toEqual([{ suffixLength: 68 }, { offset: 0, length: 32 + 68 }]);
  });
});

describe("a whole shard into its place in a larger buffer (decodeIntoBox)", () => {
  const GZIP: JsonObject = { name: "gzip", configuration: { level: 1 } };
  // A 4 x 6 int16 shard whose inner chunks 1 and 2 (C order) are the fill value, -7, so not stored.
  const values = Int16Array.from({ length: 24 }, (_, i) => (i % 6 >= 3 && i < 12 ? -7 : i));
  const cases: [string, number[], JsonObject[]][] = [
    ["inner chunks 2 x 3, stored as they are (decoded, then copied)", [2, 3], [LE]],
    ["inner chunks 2 x 3, gzip (decoded into one reused buffer, then copied)", [2, 3], [LE, GZIP]],
    ["inner chunks 1 x 6, gzip (each one run of the result: decoded straight there)", [1, 6], [LE, GZIP]],
  ];
  for (const [what, inner, innerCodecs] of cases) {
    it(what, async () => {
      const codecs = [sharding({ chunk_shape: inner, codecs: innerCodecs, index_codecs: [LE, CRC] })];
      const { codec, chunk } = await shardCodec(codecs, [4, 6], int16, -7);
      const stored = (await codec.encode(new Uint8Array(values.buffer), chunk())) as Uint8Array;
      // The shard at rows 2-5 of a 7 x 6 result, and at rows 2-5, columns 1-6 of a 7 x 9 one.
      for (const [shape, start] of [
        [
          [7, 6],
          [2, 0],
        ],
        [
          [7, 9],
          [2, 1],
        ],
      ] as const) {
        const out = new Int16Array(shape[0] * shape[1]).fill(99);
        await codec.decodeIntoBox!(stored, new Uint8Array(out.buffer), { shape, start }, chunk());
        const expected = Int16Array.from({ length: out.length }, (_, i) => {
          const [r, c] = [Math.floor(i / shape[1]) - start[0], (i % shape[1]) - start[1]];
          return r >= 0 && r < 4 && c >= 0 && c < 6 ? values[r * 6 + c]! : 99;
        });
        expect(Array.from(out)).toEqual(Array.from(expected));
      }
    });
  }

  it("refuses a box the buffer cannot hold, and names the shard", async () => {
    const codecs = [sharding({ chunk_shape: [2, 3], codecs: [LE], index_codecs: [LE, CRC] })];
    const { codec, chunk } = await shardCodec(codecs, [4, 6], int16, -7);
    const stored = (await codec.encode(new Uint8Array(values.buffer), chunk())) as Uint8Array;
    const place = { shape: [5, 6], start: [2, 0] };
    expect(() => codec.decodeIntoBox!(stored, new Uint8Array(60), place, chunk())).toThrow(
      "shard a/c/0/0: a buffer of 60 bytes of shape [5, 6] cannot hold the shard at [2, 0]",
    );
  });
});

describe("reading boxes by ranges", () => {
  // 8 x 8 int32 in inner chunks of 2 x 2 (16 bytes each, stored as they are): 16 inner chunks.
  async function stored(location: "start" | "end", options?: ShardingOptions, fill = 0) {
    const codecs = [sharding({ chunk_shape: [2, 2], codecs: [LE], index_codecs: [LE, CRC], index_location: location })];
    const shard = await shardCodec(codecs, [8, 8], int32, fill, options);
    const values = Int32Array.from({ length: 64 }, (_, i) => (i % 8 < 4 ? 0 : i)); // columns 0-3 are fill
    const bytes = (await shard.codec.encode(new Uint8Array(values.buffer), shard.chunk())) as Uint8Array;
    return { ...shard, values, bytes };
  }
  const box = (r0: number, r1: number, c0: number, c1: number) => [
    { start: r0, stop: r1 },
    { start: c0, stop: c1 },
  ];
  const expected = (values: Int32Array, r0: number, r1: number, c0: number, c1: number): number[] => {
    const out: number[] = [];
    for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out.push(values[r * 8 + c]!);
    return out;
  };

  it("touch only the inner chunks stored: missing ones read as the fill, costing nothing", async () => {
    const { codec, chunk, values, bytes } = await stored("end", undefined, 0);
    // 8 inner chunks stored (columns 4-7), 16 bytes each: 128 bytes of data, then 260 of index.
    expect(bytes.length).toBe(128 + 260);
    const { read, asked } = reader(bytes);
    const got = await codec.decodeRegion!(read, box(1, 4, 2, 6), chunk());
    expect(Array.from(new Int32Array(got!.buffer))).toEqual(expected(values, 1, 4, 2, 6));
    // Inner chunks (0, 2) and (1, 2) are stored 32 bytes apart, under the gap: one read.
    expect(asked).toEqual([{ suffixLength: 260 }, { offset: 0, length: 16 + 16 + 16 + 260 }]);
  });

  it("the index at the start is read as a prefix; entries need no read past them", async () => {
    const { codec, chunk, values, bytes } = await stored("start");
    const { read, asked } = reader(bytes);
    const got = await codec.decodeRegion!(read, box(6, 8, 6, 8), chunk());
    expect(Array.from(new Int32Array(got!.buffer))).toEqual(expected(values, 6, 8, 6, 8));
    expect(asked).toEqual([
      { offset: 0, length: 260 },
      { offset: 260 + 7 * 16, length: 16 },
    ]);
  });

  it("inner chunks further apart than the gap are read apart, all at once", async () => {
    const { codec, chunk, bytes } = await stored("start", { coalesceGapBytes: 15 });
    const { read, asked } = reader(bytes);
    await codec.decodeRegion!(read, box(0, 4, 4, 5), chunk()); // inner chunks (0, 2) and (1, 2): 16 bytes between
    expect(asked).toEqual([
      { offset: 0, length: 260 },
      { offset: 260, length: 16 },
      { offset: 260 + 32, length: 16 },
    ]);
    asked.length = 0;
    await codec.decodeRegion!(read, box(0, 2, 4, 8), chunk()); // (0, 2) and (0, 3): adjacent
    expect(asked).toEqual([{ offset: 260, length: 32 }]);
  });

  it("a shard that is not stored: undefined, after the one read of its index", async () => {
    const { codec, chunk } = await stored("end");
    const { read, asked } = reader(undefined);
    expect(await codec.decodeRegion!(read, box(0, 1, 0, 1), chunk())).toBeUndefined();
    expect(asked).toEqual([{ suffixLength: 260 }]);
  });

  it("a 0-d shard, and a region of nothing", async () => {
    const { codec, chunk } = await shardCodec([sharding({ chunk_shape: [] })], [], int16);
    const bytes = (await codec.encode(new Uint8Array(Int16Array.of(-3).buffer), chunk("z/c"))) as Uint8Array;
    expect(i16((await codec.decodeRegion!(reader(bytes).read, [], chunk("z/c")))!)).toEqual([-3]);
    const wide = await stored("end");
    expect((await wide.codec.decodeRegion!(reader(wide.bytes).read, box(2, 2, 0, 8), wide.chunk()))!.length).toBe(0);
  });

  it("refuses a region outside the shard", async () => {
    const { codec, chunk, bytes } = await stored("end");
    await expect(codec.decodeRegion!(reader(bytes).read, box(0, 9, 0, 1), chunk())).rejects.toThrow(
      "shard a/c/0/0: a region of [0:9, 0:1] is not within a shard of [8, 8]",
    );
  });
});

describe("nested shards", () => {
  // 8 x 8 shards of 4 x 4 inner shards of 2 x 2 inner chunks, gzip inside.
  const codecs = [
    sharding({
      chunk_shape: [4, 4],
      codecs: [sharding({ chunk_shape: [2, 2], codecs: [LE, { name: "gzip", configuration: { level: 1 } }] })],
    }),
  ];

  it("decode whole, and a box inside one inner shard reads that inner shard's index and inner chunk only", async () => {
    const { codec, chunk } = await shardCodec(codecs, [8, 8], int16, 7);
    const values = Int16Array.from({ length: 64 }, (_, i) => (i < 32 ? i : 7));
    const bytes = (await codec.encode(new Uint8Array(values.buffer), chunk())) as Uint8Array;
    expect(i16((await codec.decode(bytes, chunk())) as Uint8Array)).toEqual(Array.from(values));
    const { read, asked } = reader(bytes);
    const got = await codec.decodeRegion!(
      read,
      [
        { start: 2, stop: 3 },
        { start: 5, stop: 7 },
      ],
      chunk(),
    );
    expect(i16(got!)).toEqual([21, 22]);
    // The outer index; inner shard (0, 1)'s index (the end of its bytes); its inner chunks (1, 0)
    // and (1, 1), stored one after the other, in one read.
    expect(asked.length).toBe(3);
    expect(asked[0]).toEqual({ suffixLength: 4 * 16 + 4 });
    // The lower half is fill: inner shards (1, 0) and (1, 1) are not stored at all.
    const half = await codec.decodeRegion!(
      reader(bytes).read,
      [
        { start: 4, stop: 8 },
        { start: 0, stop: 8 },
      ],
      chunk(),
    );
    expect(i16(half!)).toEqual(new Array(32).fill(7));
  });

  it("a corrupt inner chunk of an inner shard names both", async () => {
    const { codec, chunk } = await shardCodec(codecs, [8, 8], int16, 7);
    const values = Int16Array.from({ length: 64 }, (_, i) => i);
    const bytes = (await codec.encode(new Uint8Array(values.buffer), chunk())) as Uint8Array;
    // The first stored byte is inner shard (0, 0)'s first inner chunk's gzip header.
    const bad = bytes.slice();
    bad[0]! ^= 0xff;
    const whole = await decoding(codec, bad, chunk()).catch((e: unknown) => e);
    expect(whole).toBeInstanceOf(ShardError);
    expect(whole).toMatchObject({
      key: "a/c/0/0",
      innerChunk: [
        [0, 0],
        [0, 0],
      ],
    });
    expect((whole as Error).message).toMatch(/^shard a\/c\/0\/0, inner chunk \[0, 0\], its inner chunk \[0, 0\]: /);
    const part = await codec.decodeRegion!(
      reader(bad).read,
      [
        { start: 0, stop: 1 },
        { start: 0, stop: 1 },
      ],
      chunk(),
    ).catch((e: unknown) => e);
    expect(part).toBeInstanceOf(ShardError);
    expect(part).toMatchObject({
      key: "a/c/0/0",
      innerChunk: [
        [0, 0],
        [0, 0],
      ],
    });
  });
});

describe("the index cache", () => {
  async function twoShards(options?: ShardingOptions) {
    const codecs = [sharding({ chunk_shape: [2], codecs: [LE] })];
    const shard = await shardCodec(codecs, [8], int32, 0, options);
    const encode = async (key: string, base: number) =>
      (await shard.codec.encode(
        new Uint8Array(Int32Array.from({ length: 8 }, (_, i) => base + i).buffer),
        shard.chunk(key),
      )) as Uint8Array;
    return { ...shard, encode };
  }
  const all = [{ start: 0, stop: 2 }];

  it("is read once per shard, shared by reads at once, dropped when the shard is encoded or forgotten", async () => {
    const { codec, chunk, encode } = await twoShards();
    const bytes = await encode("k", 10);
    const { read, asked } = reader(bytes);
    await Promise.all([codec.decodeRegion!(read, all, chunk("k")), codec.decodeRegion!(read, all, chunk("k"))]);
    expect(asked.filter((p) => "suffixLength" in p).length).toBe(1);
    await codec.decodeRegion!(read, all, chunk("k"));
    expect(asked.filter((p) => "suffixLength" in p).length).toBe(1);
    codec.forget!("k");
    await codec.decodeRegion!(read, all, chunk("k"));
    expect(asked.filter((p) => "suffixLength" in p).length).toBe(2);
    // Encoding k drops its entry: the next read reads the new shard's index.
    const again = reader(await encode("k", 20));
    expect(Array.from(new Int32Array((await codec.decodeRegion!(again.read, all, chunk("k")))!.buffer))).toEqual([
      20, 21,
    ]);
    expect(again.asked[0]).toEqual({ suffixLength: 4 * 16 + 4 });
  });

  it("holds at most indexCacheBytes of entries (16 bytes an inner chunk), least recently used out first", async () => {
    expect(SHARD_INDEX_CACHE_BYTES).toBe(8 << 20);
    expect(SHARD_COALESCE_GAP_BYTES).toBe(1 << 20);
    // Room for two indexes of 4 inner chunks (64 bytes each).
    const { codec, chunk, encode } = await twoShards({ indexCacheBytes: 128 });
    const shards = {
      a: reader(await encode("a", 0)),
      b: reader(await encode("b", 0)),
      c: reader(await encode("c", 0)),
    };
    const indexReads = (k: keyof typeof shards) => shards[k].asked.filter((p) => "suffixLength" in p).length;
    for (const k of ["a", "b", "a", "c", "a", "b"] as const) await codec.decodeRegion!(shards[k].read, all, chunk(k));
    // a, b cached; a used; c pushes b out; a still there; b read again.
    expect([indexReads("a"), indexReads("b"), indexReads("c")]).toEqual([1, 2, 1]);
    expect((codec as unknown as { cachedIndexBytes: number }).cachedIndexBytes).toBe(128);
  });
});

describe("encoding", () => {
  const codecs = [sharding({ chunk_shape: [2], codecs: [LE], index_codecs: [LE] })];

  it("leaves out inner chunks equal to the fill value, unless told writeEmptyChunks", async () => {
    const { codec, chunk } = await shardCodec(codecs, [6], int16, 5);
    const data = new Uint8Array(Int16Array.of(5, 5, 1, 5, 5, 5).buffer);
    const lean = (await codec.encode(data, chunk())) as Uint8Array;
    expect(lean.length).toBe(4 + 3 * 16);
    const full = (await codec.encode(data, { ...chunk(), writeEmptyChunks: true })) as Uint8Array;
    expect(full.length).toBe(12 + 3 * 16);
    for (const stored of [lean, full])
      expect(i16((await codec.decode(stored, chunk())) as Uint8Array)).toEqual([5, 5, 1, 5, 5, 5]);
    // All fill: the index alone, every entry missing (the engine deletes such a shard instead).
    const none = (await codec.encode(new Uint8Array(Int16Array.of(5, 5, 5, 5, 5, 5).buffer), chunk())) as Uint8Array;
    expect(Array.from(none)).toEqual(new Array(48).fill(0xff));
  });

  it("strings, inner chunks of the fill left out", async () => {
    const string: DataType = { kind: "O", byteOrder: "|", itemsize: 8 };
    const chain = await compileCodecsV3(
      [sharding({ chunk_shape: [2], codecs: [{ name: "vlen-utf8" }] })] as never,
      { shape: [6], dtype: string, fillValue: "" },
      defaultRegistry,
    );
    const codec = chain.stages[0]!.codec;
    const chunk = { dtype: string, itemsize: string.itemsize, elements: 6, shape: [6], key: "s/c/0" };
    const stored = (await codec.encode(["", "", "é", "", "x", "yz"], chunk)) as Uint8Array;
    expect(await codec.decode(stored, chunk)).toEqual(["", "", "é", "", "x", "yz"]);
    await expect(codec.decodeRegion!(reader(stored).read, [{ start: 0, stop: 1 }], chunk)).rejects.toThrow(
      "not read by regions",
    );
  });
});

describe("corrupt shards", () => {
  const codecs = [sharding({ chunk_shape: [2], codecs: [LE] })];
  async function one() {
    const shard = await shardCodec(codecs, [4], int16);
    const bytes = (await shard.codec.encode(
      new Uint8Array(Int16Array.of(1, 2, 3, 4).buffer),
      shard.chunk(),
    )) as Uint8Array;
    return { ...shard, bytes };
  }
  /** `bytes` with entry `i` of its 2-entry index set (a crc32c of `crc` bytes after it then no longer matches). */
  const withEntry = (bytes: Uint8Array, i: number, offset: bigint, length: bigint, crc = 0): Uint8Array => {
    const out = bytes.slice();
    const view = new DataView(out.buffer, out.length - crc - 32);
    view.setBigUint64(16 * i, offset, true);
    view.setBigUint64(16 * i + 8, length, true);
    return out;
  };
  const noCrc = [sharding({ chunk_shape: [2], codecs: [LE], index_codecs: [LE] })];

  it("an index failing its crc32c", async () => {
    const { codec, chunk, bytes } = await one();
    const bad = withEntry(bytes, 0, 0n, 3n, 4);
    const error = await decoding(codec, bad, chunk()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShardError);
    expect(error).toMatchObject({ code: "ZARR_CODEC", codecId: "sharding_indexed", key: "a/c/0/0", innerChunk: [] });
    expect((error as Error).message).toMatch(/^shard a\/c\/0\/0: its index does not decode: .*crc32c/i);
  });

  it("entries half missing, past 2^53, or outside the data; an inner chunk of the wrong size", async () => {
    const { codec, chunk } = await shardCodec(noCrc, [4], int16);
    const bytes = (await codec.encode(new Uint8Array(Int16Array.of(1, 2, 3, 4).buffer), chunk())) as Uint8Array;
    const cases: [Uint8Array, string][] = [
      [
        withEntry(bytes, 1, 2n ** 64n - 1n, 4n),
        "inner chunk [1]: its index has an invalid entry: offset 18446744073709551615, length 4",
      ],
      [
        withEntry(bytes, 0, 2n ** 60n, 4n),
        "inner chunk [0]: its index has an invalid entry: offset 1152921504606846976, length 4",
      ],
      [
        withEntry(bytes, 1, 6n, 4n),
        "inner chunk [1]: its index places the inner chunk at bytes 6 to 10, outside the shard's data (bytes 0 to 8 of 40)",
      ],
      [withEntry(bytes, 1, 4n, 2n), "inner chunk [1]: decoded to 2 bytes, expected 4 bytes (2 elements of 2 bytes)"],
      [
        withEntry(bytes, 1, 2n, 4n),
        "inner chunk [1]: its index places the inner chunk at bytes 2 to 6, which overlap inner chunk [0] at bytes 0 to 4",
      ],
      [
        withEntry(withEntry(bytes, 0, 4n, 4n), 1, 0n, 6n),
        "inner chunk [0]: its index places the inner chunk at bytes 4 to 8, which overlap inner chunk [1] at bytes 0 to 6",
      ],
    ];
    for (const [bad, message] of cases) {
      await expect(decoding(codec, bad, chunk())).rejects.toThrow(`shard a/c/0/0, ${message}`);
    }
    // Two entries naming the same bytes (identical inner chunks stored once) read as written.
    const shared = withEntry(bytes, 1, 0n, 4n);
    expect(new Int16Array(((await decoding(codec, shared, chunk())) as Uint8Array).buffer)).toEqual(
      Int16Array.of(1, 2, 1, 2),
    );
    // By ranges: an entry past the end comes back short.
    const past = withEntry(bytes, 1, 30n, 20n);
    await expect(codec.decodeRegion!(reader(past).read, [{ start: 2, stop: 3 }], chunk())).rejects.toThrow(
      "shard a/c/0/0, inner chunk [1]: its index places the inner chunk at bytes 30 to 50, but the shard ends at byte 40",
    );
  });

  it("a shard shorter than its index, whole and by ranges", async () => {
    const { codec, chunk } = await one();
    const message = "shard a/c/0/0: its index takes 36 bytes (2 inner chunks), but the shard has only 5";
    await expect(decoding(codec, new Uint8Array(5), chunk())).rejects.toThrow(message);
    await expect(codec.decodeRegion!(reader(new Uint8Array(5)).read, [{ start: 0, stop: 1 }], chunk())).rejects.toThrow(
      message,
    );
  });
});

describe("configuration", () => {
  const compile = (configuration: JsonObject, shape = [4, 6]) =>
    compileCodecsV3([sharding(configuration)] as never, { shape, dtype: int16, fillValue: 0 }, defaultRegistry, {
      key: "a/zarr.json",
    });

  it("takes zarr-python 3's defaults for what is left out, and says them in toJSON", async () => {
    const chain = await compile({ chunk_shape: [2, 3] });
    expect(chain.stages[0]!.codec.toJSON()).toEqual({
      id: "sharding_indexed",
      chunk_shape: [2, 3],
      codecs: [LE],
      index_codecs: [LE, CRC],
      index_location: "end",
    });
    expect(chain.registryConfigs).toEqual([{ id: "crc32c" }]);
  });

  it("refuses an index of variable size, an inner chunk shape not dividing the shard's, other members", async () => {
    await expect(compile({ chunk_shape: [2, 3], index_codecs: [LE, { name: "gzip" }] })).rejects.toThrow(
      /"codecs\[0\]\.configuration\.index_codecs".*codecs of a fixed size/,
    );
    await expect(compile({ chunk_shape: [3, 3] })).rejects.toThrow(
      /each dividing the shard's \[4, 6\], found \[3, 3\]/,
    );
    await expect(compile({ chunk_shape: [2, 3], order: "C" })).rejects.toThrow(/unknown member "order"/);
  });
});

describe("coalescing", () => {
  it("merges spans at most the gap apart, within the cap; spans within a group's bytes always", () => {
    const spans = [
      { offset: 100, length: 10 },
      { offset: 0, length: 10 },
      { offset: 15, length: 5 },
      { offset: 105, length: 2 },
      { offset: 40, length: 100 },
    ];
    const groups = coalesce(spans, 5, 1000).map((g) => [g.offset, g.length, g.members.length]);
    expect(groups).toEqual([
      [0, 20, 2],
      [40, 100, 3],
    ]);
    expect(coalesce(spans, 5, 60).map((g) => [g.offset, g.length])).toEqual([
      [0, 20],
      [40, 100],
    ]);
    expect(coalesce(spans, 0, 1000).map((g) => [g.offset, g.length])).toEqual([
      [0, 10],
      [15, 5],
      [40, 100],
    ]);
  });
});
