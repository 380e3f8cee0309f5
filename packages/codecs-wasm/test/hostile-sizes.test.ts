/**
 * Chunk contexts built from hostile metadata (`chunks: [2**40, 16]` in a .zarray) reach every codec
 * as a chunk of 2^46 bytes. No codec may try to allocate that: each refuses with a `CodecError`
 * naming the codec and the chunk, before allocating (before: zlib, gzip, zstd and lz4 threw
 * `RangeError: Invalid typed array length: 70368744177664`).
 */
import { describe, expect, it } from "vitest";
import { CodecError, defaultRegistry, maxDecodedSize, type ChunkContext, type Codec } from "@z/codecs";
import { MAX_CHUNK_BYTES } from "@z/meta";
import { contextFor } from "@z/codecs/testing";
import { wasmCodecLoaders } from "../src/index.js";

const configs: Record<string, object> = {
  delta: { dtype: "<f4" },
  fixedscaleoffset: { scale: 10, offset: 0, dtype: "<f4" },
  quantize: { digits: 2, dtype: "<f4" },
  astype: { encode_dtype: "<f8", decode_dtype: "<f4" },
  categorize: { labels: ["a"], dtype: "<U1" },
  bitround: { keepbits: 4 },
  "vlen-array": { dtype: "<i4" },
};

const ids = [...new Set([...defaultRegistry.ids(), ...Object.keys(wasmCodecLoaders)])].sort();
const factory = async (id: string) =>
  id in wasmCodecLoaders
    ? await wasmCodecLoaders[id as keyof typeof wasmCodecLoaders]()
    : await defaultRegistry.factory(id);

async function encoded(codec: Codec, chunk: ChunkContext): Promise<Uint8Array> {
  const data = new Uint8Array(64).map((_, i) => i);
  return (await codec.encode(data, { ...contextFor(data, 4), dtype: chunk.dtype })) as Uint8Array;
}

describe("a chunk larger than any buffer (chunks: [2**40, 16] of <f4)", () => {
  const dtype = { kind: "f", byteOrder: "<", itemsize: 4 } as const;
  const huge: ChunkContext = { dtype, itemsize: 4, elements: 2 ** 40 * 16, shape: [2 ** 40, 16], key: "a/0.0" };

  for (const id of ids.filter(
    (id) => !["vlen-utf8", "vlen-bytes", "vlen-array", "json2", "msgpack2", "categorize"].includes(id),
  )) {
    it(`${id}: decode is a CodecError naming the chunk, not a RangeError`, async () => {
      const codec = (await factory(id)).create({ id, ...configs[id] }) as Codec;
      const bytes = await encoded(codec, huge);
      const error = await Promise.resolve()
        .then(() => codec.decode(bytes, huge))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(CodecError);
      expect(error).toMatchObject({ code: "ZARR_CODEC", codecId: id, key: "a/0.0" });
      expect((error as Error).message).toMatch(/more than the 2147483647 bytes a chunk can have/);
      if (codec.decodeInto) {
        const into = await Promise.resolve()
          .then(() => codec.decodeInto!(bytes, new Uint8Array(64), huge))
          .then(
            () => undefined,
            (e: unknown) => e,
          );
        expect(into).toBeInstanceOf(CodecError);
      }
    });
  }

  it("bounds what a decoder may allocate even when the pipeline allows more (a filter's 8x)", () => {
    expect(MAX_CHUNK_BYTES).toBe(2 ** 31 - 1);
    const chunk = { dtype, itemsize: 4, elements: 2 ** 28, maxDecodedSize: 2 ** 33 };
    expect(maxDecodedSize(chunk)).toBe(2 ** 31 - 1);
    expect(maxDecodedSize({ ...chunk, maxDecodedSize: Infinity })).toBe(Infinity);
    expect(maxDecodedSize({ dtype, itemsize: 4, elements: 1000 })).toBe(4000);
  });
});

describe("object codecs: counts read from the data are checked against the data before allocating", () => {
  const objects: ChunkContext = {
    dtype: { kind: "O", byteOrder: "|", itemsize: 8 },
    itemsize: 8,
    elements: 2 ** 40,
    shape: [2 ** 40],
    key: "o/0",
  };
  const u32 = (...words: number[]) => new Uint8Array(new Uint32Array(words).buffer);
  const cases: [string, object, Uint8Array][] = [
    ["vlen-utf8", {}, u32(0xffffffff, 0)],
    ["vlen-bytes", {}, u32(0xffffffff, 0)],
    ["vlen-array", { dtype: "<i4" }, u32(0xffffffff, 0)],
    ["vlen-utf8", {}, u32(2, 0xfffffff0, 0)],
    ["vlen-array", { dtype: "<f8" }, u32(1, 0xfffffff0)],
    // msgpack array32 of 2^32 - 1 items, then nothing.
    ["msgpack2", {}, new Uint8Array([0xdd, 0xff, 0xff, 0xff, 0xff, 0xc0])],
    // msgpack bin32 of 2^32 - 1 bytes.
    ["msgpack2", {}, new Uint8Array([0x92, 0xc6, 0xff, 0xff, 0xff, 0xff, 0x00])],
    // msgpack map32 of 2^32 - 1 pairs.
    ["msgpack2", {}, new Uint8Array([0xdf, 0xff, 0xff, 0xff, 0xff])],
  ];
  for (const [id, config, data] of cases) {
    it(`${id} ${Buffer.from(data).toString("hex")}: a CodecError`, async () => {
      const codec = (await factory(id)).create({ id, ...config }) as Codec;
      const error = await Promise.resolve()
        .then(() => codec.decode(data, objects))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error, String(error)).toBeInstanceOf(CodecError);
      expect(error).toMatchObject({ codecId: id, key: "o/0" });
    });
  }
});

describe("filters whose output size comes from their config", () => {
  it("categorize with a huge <U dtype refuses more than a chunk before allocating it", async () => {
    const codec = (await defaultRegistry.factory("categorize")).create({
      id: "categorize",
      labels: ["a"],
      dtype: "<U100000000",
      astype: "|u1",
    }) as Codec;
    const chunk: ChunkContext = {
      dtype: { kind: "U", byteOrder: "<", itemsize: 4 },
      itemsize: 4,
      elements: 50,
      key: "c/0",
    };
    const error = await Promise.resolve()
      .then(() => codec.decode(new Uint8Array(50), chunk))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(CodecError);
    expect((error as Error).message).toMatch(/categorize data in chunk c\/0 decodes to more than 200 bytes/);
  });
});
