/**
 * `compileCodecsV3`: which chains it refuses and how it says so, and what the stages it builds are
 * told and do. The bytes of each codec are checked elsewhere: against TensorStore
 * (v3-tensorstore.test.ts) and, for the v2 codecs the registry builds, against numcodecs.
 * `numcodecs.<id>` kinds and the configs zarr-python 3 fills in come from its source
 * (src/zarr/codecs/numcodecs/_codecs.py; zarr-python 3 cannot be installed here).
 */
import { describe, expect, it } from "vitest";
import {
  CodecConfigError,
  CodecError,
  defaultRegistry,
  defineCodec,
  integer,
  requireBytes,
  UnknownCodecError,
  type Codec,
  type CodecData,
} from "@z/codecs";
import { compileCodecsV3, ShardError, type CodecChainV3 } from "@z/codecs/v3";
import {
  MetadataError,
  UnsupportedExtensionError,
  type DataType,
  type FillValue,
  type JsonObject,
  type NamedConfig,
} from "@z/meta";

const int32: DataType = { kind: "i", byteOrder: "<", itemsize: 4 };
const int16: DataType = { kind: "i", byteOrder: "<", itemsize: 2 };
const uint8: DataType = { kind: "u", byteOrder: "|", itemsize: 1 };
const bool: DataType = { kind: "b", byteOrder: "|", itemsize: 1 };
const float64: DataType = { kind: "f", byteOrder: "<", itemsize: 8 };
const string: DataType = { kind: "O", byteOrder: "|", itemsize: 8 };
const KEY = "a/zarr.json";

/** A codec as zarr.json has it (also a JSON value, to nest in a sharding_indexed's configuration). */
const codec = (name: string, configuration?: JsonObject, mustUnderstand?: boolean): NamedConfig & JsonObject => ({
  name,
  ...(configuration && { configuration }),
  ...(mustUnderstand !== undefined && { must_understand: mustUnderstand }),
});
const bytes = (endian?: "little" | "big") => codec("bytes", endian && { endian });
const transpose = (order: JsonObject["order"]) => codec("transpose", { order });

function compile(
  codecs: NamedConfig[],
  shape: number[] = [2, 3],
  dtype: DataType = int32,
  registry = defaultRegistry,
): Promise<CodecChainV3> {
  const fillValue: FillValue = 0;
  return compileCodecsV3(codecs, { shape, dtype, fillValue }, registry, { key: KEY });
}

/** The error `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

async function encode(chain: CodecChainV3, data: CodecData): Promise<CodecData> {
  for (const stage of chain.stages) data = await stage.codec.encode(data, { ...stage.chunk, key: "a/c/0" });
  return data;
}

async function decode(chain: CodecChainV3, data: CodecData): Promise<CodecData> {
  for (const stage of [...chain.stages].reverse())
    data = await stage.codec.decode(data, { ...stage.chunk, key: "a/c/0" });
  return data;
}

const le32 = (...values: number[]) => new Uint8Array(new Int32Array(values).buffer);

describe("chains compileCodecsV3 refuses", () => {
  it("two array -> bytes codecs: a MetadataError naming the key and the second", async () => {
    const error = await failure(compile([bytes("little"), bytes("big")]));
    expect(error).toBeInstanceOf(MetadataError);
    expect(error).toMatchObject({ code: "ZARR_METADATA", key: KEY, field: "codecs[1]" });
    expect(error.message).toBe(
      '"a/zarr.json" has an invalid "codecs[1]": the codec "bytes" is a second array -> bytes codec (the first is "bytes" at "codecs[0]"); a chain has exactly one',
    );
  });

  it("a bytes -> bytes codec before the array -> bytes codec", async () => {
    const error = await failure(compile([codec("gzip", { level: 1 }), bytes("little")]));
    expect(error).toMatchObject({ name: "MetadataError", key: KEY, field: "codecs[0]" });
    expect(error.message).toContain(
      'the codec "gzip" is a bytes -> bytes codec and comes before any array -> bytes codec',
    );
  });

  it("an array -> array codec after the array -> bytes codec", async () => {
    const error = await failure(compile([bytes("little"), transpose([1, 0])]));
    expect(error).toMatchObject({ name: "MetadataError", field: "codecs[1]" });
    expect(error.message).toContain('comes after the array -> bytes codec "bytes" at "codecs[0]"');
  });

  it("no array -> bytes codec, or no codec at all", async () => {
    const none = await failure(compile([transpose([1, 0])]));
    expect(none).toMatchObject({ name: "MetadataError", field: "codecs" });
    expect(none.message).toContain("expected exactly one array -> bytes codec");
    expect(await failure(compile([]))).toMatchObject({ name: "MetadataError", field: "codecs" });
  });

  it("a transpose whose order is not a permutation of the chunk's dimensions", async () => {
    for (const order of [[0, 0], [0, 2], [-1, 0], [0.5, 1], "A", null, [1, "0"]] as JsonObject["order"][]) {
      const error = await failure(compile([transpose(order), bytes("little")]));
      expect(error, JSON.stringify(order)).toMatchObject({
        name: "MetadataError",
        key: KEY,
        field: "codecs[0].configuration.order",
      });
      expect(error.message).toContain(
        '"a/zarr.json" has an invalid "codecs[0].configuration.order" (codec "transpose")',
      );
    }
    const missing = await failure(compile([codec("transpose"), bytes("little")]));
    expect(missing).toMatchObject({ name: "MetadataError", field: "codecs[0].configuration" });
  });

  it("a transpose of the wrong rank, naming the rank it receives", async () => {
    const error = await failure(compile([transpose([1, 0, 2]), bytes("little")], [2, 3]));
    expect(error).toMatchObject({ name: "MetadataError", field: "codecs[0].configuration.order" });
    expect(error.message).toContain("expected a permutation of 0 to 1 (the chunk it receives has 2 dimensions)");
    expect(error.message).toContain("found [1, 0, 2]");
    // The second transpose receives the first one's output, of the same rank.
    await expect(compile([transpose([1, 0]), transpose([0]), bytes("little")])).rejects.toThrow(/2 dimensions/);
  });

  it("an unknown name: UnknownCodecError naming the name, the key and the member", async () => {
    const error = await failure(compile([bytes("little"), codec("snappy-ish")]));
    expect(error).toBeInstanceOf(UnknownCodecError);
    expect(error).toMatchObject({ code: "ZARR_UNKNOWN_CODEC", codecId: "snappy-ish", key: KEY });
    expect(error.message).toMatch(/^"a\/zarr.json" names an unknown codec at "codecs\[1\]": the codec "snappy-ish"/);
    expect(error.message).toContain('register it with registerCodec("snappy-ish", loader)');
    const prefixed = await failure(compile([bytes("little"), codec("numcodecs.nope")]));
    expect(prefixed).toMatchObject({ name: "UnknownCodecError", codecId: "numcodecs.nope" });
    expect(prefixed.message).toContain('the codec "numcodecs.nope" (the v2 codec "nope")');
  });

  it("an unknown codec marked must_understand: false is left out, as the spec lets a reader do", async () => {
    const chain = await compile([bytes("little"), codec("checksum-of-the-future", {}, false), codec("crc32c")]);
    expect(chain.registryConfigs).toEqual([{ id: "crc32c" }]);
  });

  it("zarr-extensions' packbits and cast_value: known, not supported", async () => {
    const error = await failure(compile([codec("packbits")], [8], bool));
    expect(error).toBeInstanceOf(UnsupportedExtensionError);
    expect(error).toMatchObject({ code: "ZARR_UNSUPPORTED", key: KEY, field: "codecs[0]", extension: "packbits" });
    expect(error.message).toContain("numcodecs.packbits");
    await expect(compile([codec("cast_value", { data_type: "int8" }), bytes("little")])).rejects.toThrow(
      UnsupportedExtensionError,
    );
  });

  it("a sharding_indexed whose inner chunks do not tile the shard, or whose inner chains are wrong", async () => {
    const shard = (configuration: JsonObject) => [codec("sharding_indexed", configuration)];
    const inner = { codecs: [bytes("little")], index_codecs: [bytes("little"), codec("crc32c")] };
    const tiling = await failure(compile(shard({ chunk_shape: [2, 2], ...inner }), [4, 3]));
    expect(tiling).toMatchObject({ name: "MetadataError", key: KEY, field: "codecs[0].configuration.chunk_shape" });
    expect(tiling.message).toContain("expected 2 positive integers, each dividing the shard's [4, 3], found [2, 2]");
    // Errors of the inner chains name where they are.
    const nested = await failure(compile(shard({ chunk_shape: [2, 3], codecs: [bytes()] }), [4, 3]));
    expect(nested).toMatchObject({ field: "codecs[0].configuration.codecs[0].configuration.endian" });
    const compressedIndex = await failure(
      compile(
        shard({ chunk_shape: [2, 3], codecs: [bytes("little")], index_codecs: [bytes("little"), codec("gzip")] }),
        [4, 3],
      ),
    );
    expect(compressedIndex).toMatchObject({ field: "codecs[0].configuration.index_codecs" });
    expect(compressedIndex.message).toContain("codecs of a fixed size");
    await expect(compile(shard({ chunk_shape: [2, 3], ...inner, index_location: "middle" }), [4, 3])).rejects.toThrow(
      /index_location.*expected "start" or "end", found "middle"/,
    );
  });

  it("bytes without the endian a multi-byte type needs, or with another", async () => {
    const missing = await failure(compile([bytes()]));
    expect(missing).toMatchObject({ name: "MetadataError", field: "codecs[0].configuration.endian" });
    expect(missing.message).toContain("required for a data type of 4-byte elements");
    const other = await failure(compile([codec("bytes", { endian: "middle" })]));
    expect(other.message).toContain('expected "little" or "big", found "middle"');
    await expect(compile([codec("bytes", { endian: "little", order: "C" })])).rejects.toThrow(/unknown member "order"/);
  });

  it("a serializer for the wrong kind of data", async () => {
    await expect(compile([bytes()], [3], string)).rejects.toThrow(
      /cannot store a variable-length data type; use "vlen-utf8"/,
    );
    await expect(compile([codec("vlen-utf8")], [3], int32)).rejects.toThrow(
      /not fixed-size elements of 4 bytes; use "bytes"/,
    );
  });

  it("bad configurations of blosc, gzip, zstd and crc32c, naming the member", async () => {
    const bad: [NamedConfig, string][] = [
      [codec("blosc", { cname: "lz5" }), "codecs[1].configuration.cname"],
      [codec("blosc", { shuffle: 1 }), "codecs[1].configuration.shuffle"],
      [codec("blosc", { clevel: 10 }), "codecs[1].configuration.clevel"],
      [codec("blosc", { typesize: 0 }), "codecs[1].configuration.typesize"],
      [codec("blosc", { cname: "lz4", level: 5 }), "codecs[1].configuration"],
      [codec("gzip", { level: 10 }), "codecs[1].configuration.level"],
      [codec("zstd", { level: 3, checksum: "yes" }), "codecs[1].configuration.checksum"],
      [codec("zstd", { level: 23 }), "codecs[1].configuration.level"],
      [codec("crc32c", { location: "start" }), "codecs[1].configuration"],
    ];
    for (const [given, field] of bad) {
      const error = await failure(compile([bytes("little"), given]));
      expect(error, JSON.stringify(given)).toMatchObject({ name: "MetadataError", key: KEY, field });
    }
  });

  it("a bad configuration of a numcodecs codec: CodecConfigError naming the member, the codec and the field", async () => {
    const error = await failure(compile([bytes("little"), codec("numcodecs.zlib", { level: 12 })]));
    expect(error).toBeInstanceOf(CodecConfigError);
    expect(error).toMatchObject({ codecId: "zlib", field: "level", key: KEY });
    expect(error.message).toMatch(/^"a\/zarr.json" has an invalid "codecs\[1\]" \(codec "numcodecs.zlib"\): /);
    const id = await failure(compile([bytes("little"), codec("numcodecs.zlib", { id: "gzip" })]));
    expect(id).toMatchObject({ name: "MetadataError", field: "codecs[1].configuration.id" });
  });
});

describe("the stages of a chain", () => {
  it("leave out what does nothing to z's little-endian bytes, so one compressor is the only stage", async () => {
    const chain = await compile([transpose([0, 1]), bytes("little"), codec("gzip", { level: 1 })]);
    expect(chain.stages.map((s) => s.kind)).toEqual(["bytes-bytes"]);
    expect(chain.stages[0]!.codec.id).toBe("gzip");
    expect(chain.registryConfigs).toEqual([{ id: "gzip", level: 1 }]);
    // A one-byte type has no byte order to swap; endian "big" changes nothing.
    expect((await compile([bytes("big")], [4], uint8)).stages).toEqual([]);
  });

  it("tell each stage the chunk it receives: a transpose's output shape, the serializer's array for compressors", async () => {
    const chain = await compile([transpose([1, 0]), bytes("big"), codec("crc32c")], [2, 3]);
    expect(chain.stages.map((s) => [s.codec.id, s.kind, s.chunk])).toEqual([
      ["transpose", "array-array", { dtype: int32, itemsize: 4, elements: 6, shape: [2, 3] }],
      ["bytes", "array-bytes", { dtype: int32, itemsize: 4, elements: 6, shape: [3, 2] }],
      ["crc32c", "bytes-bytes", { dtype: int32, itemsize: 4, elements: 6, shape: [3, 2] }],
    ]);
    // [[1, 2, 3], [4, 5, 6]] is stored as its transpose, big-endian, then the CRC-32C.
    const stored = (await encode(chain, le32(1, 2, 3, 4, 5, 6))) as Uint8Array;
    expect([...stored.subarray(0, 24)]).toEqual([1, 4, 2, 5, 3, 6].flatMap((v) => [0, 0, 0, v]));
    expect(stored.length).toBe(28);
    expect(await decode(chain, stored)).toEqual(le32(1, 2, 3, 4, 5, 6));
  });

  it("transpose complex128 elements (16 bytes) of an unaligned chunk as an aligned one", async () => {
    const chain = await compile([transpose([1, 0]), bytes("little")], [2, 3], {
      kind: "c",
      byteOrder: "<",
      itemsize: 16,
    });
    const data = Uint8Array.from({ length: 96 }, (_, i) => i);
    const shifted = new Uint8Array(97).subarray(1);
    shifted.set(data);
    const element = (k: number) => [...data.subarray(16 * k, 16 * k + 16)];
    const expected = new Uint8Array([0, 3, 1, 4, 2, 5].flatMap(element));
    expect(await encode(chain, data)).toEqual(expected);
    expect(await encode(chain, shifted)).toEqual(expected);
    expect(await decode(chain, expected)).toEqual(data);
  });

  it('read "C" and "F" orders (TensorStore does), and the bytes codec by its first name, "endian"', async () => {
    const f = await compile([transpose("F"), codec("endian", { endian: "little" })], [2, 3]);
    expect(f.stages.map((s) => s.codec.toJSON())).toEqual([{ id: "transpose", order: [1, 0] }]);
    expect((await compile([transpose("C"), bytes("little")])).stages).toEqual([]);
  });

  it("transpose values of object arrays, and hand them to vlen-utf8 (numcodecs' format: count, then length and bytes of each)", async () => {
    const chain = await compile([transpose([1, 0]), codec("vlen-utf8")], [2, 2], string);
    const stored = (await encode(chain, ["a", "bc", "d", ""])) as Uint8Array;
    expect([...stored]).toEqual([4, 0, 0, 0, 1, 0, 0, 0, 97, 1, 0, 0, 0, 100, 2, 0, 0, 0, 98, 99, 0, 0, 0, 0]);
    expect(await decode(chain, stored)).toEqual(["a", "bc", "d", ""]);
    expect(chain.registryConfigs).toEqual([{ id: "vlen-utf8" }]);
    const raw = await compile([codec("vlen-bytes", {}), codec("zstd", { level: 1 }, true)], [1], string).catch(
      (e: Error) => e,
    );
    // zstd is @z/codecs-wasm's: the error names it.
    expect(raw).toBeInstanceOf(UnknownCodecError);
  });

  it("swap each field of a structure to its own width, and each half of a complex", async () => {
    const struct: DataType = {
      kind: "structured",
      itemsize: 7,
      fields: [
        { name: "a", dtype: int16, shape: [], offset: 0 },
        { name: "b", dtype: uint8, shape: [], offset: 2 },
        { name: "c", dtype: { kind: "f", byteOrder: "<", itemsize: 4 }, shape: [], offset: 3 },
      ],
    };
    const chain = await compile([bytes("big")], [1], struct);
    expect(await encode(chain, new Uint8Array([1, 2, 3, 4, 5, 6, 7]))).toEqual(new Uint8Array([2, 1, 3, 7, 6, 5, 4]));
    const complex: DataType = { kind: "c", byteOrder: "<", itemsize: 8 };
    const c = await compile([bytes("big")], [1], complex);
    expect(await encode(c, new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))).toEqual(new Uint8Array([4, 3, 2, 1, 8, 7, 6, 5]));
    // zarr-python 3 takes a structure without endian as little-endian ("for legacy compatibility").
    expect((await compile([bytes()], [1], struct)).stages).toEqual([]);
  });

  it("swap 2-, 4- and 8-byte numbers and UTF-32 units alike whatever the alignment of the chunk", async () => {
    const types: DataType[] = [
      int16,
      { kind: "f", byteOrder: "<", itemsize: 4 },
      float64,
      { kind: "U", byteOrder: "<", itemsize: 8 },
    ];
    for (const dtype of types) {
      const chain = await compile([bytes("big")], [5], dtype);
      const data = Uint8Array.from({ length: 5 * dtype.itemsize }, (_, i) => i * 7 + 1);
      const unit = dtype.kind === "U" ? 4 : dtype.itemsize;
      const expected = data.map((_, i) => data[i - (i % unit) + unit - 1 - (i % unit)]!);
      const shifted = new Uint8Array(data.length + 1).subarray(1);
      shifted.set(data);
      expect(await encode(chain, data), JSON.stringify(dtype)).toEqual(expected);
      expect(await encode(chain, shifted), JSON.stringify(dtype)).toEqual(expected);
    }
  });

  it("refuse a chunk of the wrong size with a CodecError naming the codec and the chunk", async () => {
    const chain = await compile([transpose([1, 0]), bytes("big")]);
    const error = await failure(Promise.resolve().then(() => decode(chain, new Uint8Array(20))));
    expect(error).toBeInstanceOf(CodecError);
    expect(error.message).toBe(
      "codec bytes failed to decode in chunk a/c/0: expected 24 bytes (6 elements of 4 bytes), got 20 bytes",
    );
  });
});

describe("sharding_indexed", () => {
  const shard = (location: "start" | "end") =>
    codec("sharding_indexed", {
      chunk_shape: [1, 2],
      codecs: [bytes("big")],
      index_codecs: [bytes("little"), codec("crc32c")],
      index_location: location,
    });

  it("stores each inner chunk that is not all fill value, and an index of offsets and lengths (2^64 - 1: not stored)", async () => {
    const chain = await compile([shard("end")], [2, 4], int16);
    // [[1, 2, 0, 0], [0, 0, 3, 4]]: the inner chunks [0, 0] are left out.
    const data = new Uint8Array(new Int16Array([1, 2, 0, 0, 0, 0, 3, 4]).buffer);
    const stored = (await encode(chain, data)) as Uint8Array;
    expect(stored.length).toBe(8 + 4 * 16 + 4);
    expect([...stored.subarray(0, 8)]).toEqual([0, 1, 0, 2, 0, 3, 0, 4]);
    const index = new DataView(stored.buffer, stored.byteOffset + 8, 64);
    const entries = [0, 1, 2, 3].map((j) => [index.getBigUint64(16 * j, true), index.getBigUint64(16 * j + 8, true)]);
    const missing = 2n ** 64n - 1n;
    expect(entries).toEqual([
      [0n, 4n],
      [missing, missing],
      [missing, missing],
      [4n, 4n],
    ]);
    expect(await decode(chain, stored)).toEqual(data);
    // With the index first, offsets count it.
    const first = (await encode(await compile([shard("start")], [2, 4], int16), data)) as Uint8Array;
    expect(new DataView(first.buffer, first.byteOffset).getBigUint64(0, true)).toBe(68n);
  });

  it("holds strings in shards, missing inner chunks read as the fill value", async () => {
    const chain = await compileCodecsV3(
      [codec("sharding_indexed", { chunk_shape: [2], codecs: [codec("vlen-utf8")] })],
      { shape: [4], dtype: string, fillValue: "" },
      defaultRegistry,
      { key: KEY },
    );
    const stored = await encode(chain, ["", "", "a", "bc"]);
    expect(await decode(chain, stored)).toEqual(["", "", "a", "bc"]);
    // The registry's codecs inside shards are listed (a worker's registry must build them too).
    expect(chain.registryConfigs).toEqual([{ id: "vlen-utf8" }, { id: "crc32c" }]);
  });

  it("refuses a corrupt shard with a CodecError (a ShardError) naming the chunk", async () => {
    const chain = await compile([shard("end")], [2, 4], int16);
    const stored = (await encode(chain, new Uint8Array(new Int16Array([1, 2, 3, 4, 5, 6, 7, 8]).buffer))) as Uint8Array;
    const short = await failure(decode(chain, stored.subarray(0, 40)));
    expect(short).toBeInstanceOf(CodecError);
    expect(short).toBeInstanceOf(ShardError);
    expect(short.message).toBe("shard a/c/0: its index takes 68 bytes (4 inner chunks), but the shard has only 40");
    const flipped = stored.slice();
    flipped[stored.length - 10]! ^= 1;
    await expect(decode(chain, flipped)).rejects.toThrow(/crc32c|checksum/i);
  });
});

describe("numcodecs.<id> and registered ids", () => {
  it("build the registry's v2 codec from the flattened configuration, with the kind zarr-python 3 gives it", async () => {
    const chain = await compile(
      [codec("numcodecs.delta", { dtype: "<i4", astype: "<i2" }), bytes("big"), codec("numcodecs.zlib", { level: 1 })],
      [4],
    );
    expect(chain.stages.map((s) => [s.codec.id, s.kind])).toEqual([
      ["delta", "array-array"],
      ["bytes", "array-bytes"],
      ["zlib", "bytes-bytes"],
    ]);
    // Delta hands on int16 (its astype), which the bytes codec stores big-endian.
    expect(chain.stages[1]!.chunk).toEqual({ dtype: int16, itemsize: 2, elements: 4, shape: [4] });
    expect(chain.registryConfigs).toEqual([
      { id: "delta", dtype: "<i4", astype: "<i2" },
      { id: "zlib", level: 1 },
    ]);
    // The stored bytes are numcodecs' delta, big-endian, then zlib: what the v2 codecs make.
    const delta = await defaultRegistry.create({ id: "delta", dtype: "<i4", astype: "<i2" });
    const zlib = await defaultRegistry.create({ id: "zlib", level: 1 });
    const context = { dtype: int32, itemsize: 4, elements: 4 };
    const deltas = (await delta.encode(le32(10, 13, 11, 20), context)) as Uint8Array;
    const swapped = deltas.map((_, i) => deltas[i ^ 1]!);
    const expected = await zlib.encode(swapped, context);
    const stored = await encode(chain, le32(10, 13, 11, 20));
    expect(stored).toEqual(expected);
    expect(await decode(chain, stored)).toEqual(le32(10, 13, 11, 20));
  });

  it("fill in what zarr-python 3 takes from the array: shuffle's elementsize, fixedscaleoffset's and quantize's dtype, astype's decode_dtype", async () => {
    const shuffled = await compile([bytes("little"), codec("numcodecs.shuffle")], [4], float64);
    expect(shuffled.registryConfigs).toEqual([{ id: "shuffle", elementsize: 8 }]);
    const scaled = await compile(
      [codec("numcodecs.fixedscaleoffset", { scale: 10, offset: 0, astype: "<i2" }), bytes("little")],
      [3],
      float64,
    );
    expect(scaled.registryConfigs).toEqual([
      { id: "fixedscaleoffset", scale: 10, offset: 0, dtype: "<f8", astype: "<i2" },
    ]);
    expect(await encode(scaled, new Uint8Array(new Float64Array([0.1, 1.25, -3]).buffer))).toEqual(
      new Uint8Array(new Int16Array([1, 12, -30]).buffer),
    );
    const cast = await compile([codec("numcodecs.astype", { encode_dtype: "<i2" }), bytes("big")], [2], float64);
    expect(cast.registryConfigs).toEqual([{ id: "astype", encode_dtype: "<i2", decode_dtype: "<f8" }]);
    expect(await encode(cast, new Uint8Array(new Float64Array([1, -2]).buffer))).toEqual(
      new Uint8Array([0, 1, 255, 254]),
    );
  });

  it("packbits hands on one padding byte then the bits", async () => {
    const chain = await compile([codec("numcodecs.packbits"), bytes(), codec("crc32c")], [10], bool);
    // The bytes codec (one-byte type: left out) and crc32c receive the 3 bytes packbits makes of 10 booleans.
    expect(chain.stages.map((s) => s.codec.id)).toEqual(["packbits", "crc32c"]);
    expect(chain.stages[1]!.chunk).toEqual({ dtype: uint8, itemsize: 1, elements: 3, shape: [3] });
    const stored = (await encode(chain, new Uint8Array([1, 0, 1, 1, 0, 0, 0, 0, 1, 1]))) as Uint8Array;
    expect(stored.subarray(0, 3)).toEqual(new Uint8Array([6, 0b10110000, 0b11000000]));
  });

  it("a codec registered by its v2 id is usable by its bare name, bytes -> bytes unless it declares a kind", async () => {
    // Bare numcodecs ids: zlib after the serializer.
    expect((await compile([bytes("little"), codec("zlib", { level: 1 })])).registryConfigs).toEqual([
      { id: "zlib", level: 1 },
    ]);
    const negate = (data: CodecData, chunk: { key?: string }) =>
      requireBytes(data, "negate", chunk).map((b) => 255 - b);
    const xor = defineCodec({
      id: "xor",
      config: { key: integer({ min: 0, max: 255, default: 0x5a }) },
      create: ({ key }) => {
        const apply = (data: CodecData, chunk: { key?: string }) =>
          requireBytes(data, "xor", chunk).map((b) => b ^ key);
        return { encode: apply, decode: apply };
      },
    });
    const negation = defineCodec({
      id: "negate-elements",
      config: {},
      v3: { kind: "array-array" },
      create: () => ({ encode: negate, decode: negate }),
    });
    const registry = defaultRegistry
      .clone()
      .register("xor", () => xor)
      .register("negate-elements", () => negation);
    const chain = await compile([codec("negate-elements"), bytes(), codec("xor", { key: 1 })], [3], uint8, registry);
    expect(chain.stages.map((s) => [s.codec.id, s.kind])).toEqual([
      ["negate-elements", "array-array"],
      ["xor", "bytes-bytes"],
    ]);
    expect(await encode(chain, new Uint8Array([0, 1, 2]))).toEqual(new Uint8Array([254, 255, 252]));
    // Without a declared kind, a codec before the serializer is a bytes -> bytes codec out of place.
    await expect(compile([codec("xor"), bytes()], [3], uint8, registry)).rejects.toThrow(
      /"xor" is a bytes -> bytes codec and comes before any array -> bytes codec/,
    );
  });

  it("a known codec marked must_understand: false is used all the same", async () => {
    const chain = await compile([bytes("little"), codec("crc32c", undefined, false)]);
    expect(chain.stages.map((s: { codec: Codec }) => s.codec.id)).toEqual(["crc32c"]);
  });
});
