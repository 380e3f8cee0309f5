// Encoders are modules of their own, registered by enableEncoders() and loaded when a codec first
// encodes: a program that only decodes never loads one (and a browser bundle of it holds none).
// The test setup registers every encoder, as Node's entry does; a program that registered none is
// a fresh set of module instances (vi.resetModules).
import { deflateSync, gunzipSync, gzipSync, inflateSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";

const text = new TextEncoder().encode("a chunk of text, a chunk of text, a chunk of text");
const chunk = { dtype: { kind: "u", byteOrder: "|", itemsize: 1 }, itemsize: 1, elements: text.length } as const;

/** `@z/codecs` as a browser page loads it: no encoder registered. */
async function withoutEncoders() {
  vi.resetModules();
  return import("../src/index.js");
}

describe("a program that registered no encoder", () => {
  it("decodes what zlib and gzip wrote", async () => {
    const { zlib, gzip } = await withoutEncoders();
    expect(zlib.create({ level: 1 }).decode(deflateSync(text, { level: 1 }), chunk)).toEqual(text);
    expect(gzip.create({ level: 1 }).decode(gzipSync(text, { level: 1 }), chunk)).toEqual(text);
  });

  it("is told what to register when it encodes", async () => {
    const { zlib, lzma, MissingEncoderError } = await withoutEncoders();
    const encode = () => zlib.create({ level: 1 }).encode(text, { ...chunk, key: "a/0.0" });
    expect(encode).toThrow(MissingEncoderError);
    expect(encode).toThrow(/codec zlib cannot encode in chunk a\/0.0: .*call enableEncoders\(\) from @z\/core/);
    try {
      encode();
    } catch (error) {
      expect(error).toMatchObject({ code: "ZARR_MISSING_ENCODER", codecId: "zlib", encoder: "zlib", key: "a/0.0" });
    }
    expect(() => lzma.create().encode(text, chunk)).toThrow(MissingEncoderError);
  });
});

describe("sharding_indexed without its encoder", () => {
  it("reads shards, and is told what to register to write one", async () => {
    vi.resetModules();
    const { defaultRegistry, MissingEncoderError } = await import("../src/index.js");
    const { compileCodecsV3 } = await import("../src/v3.js");
    const chain = await compileCodecsV3(
      [
        {
          name: "sharding_indexed",
          configuration: { chunk_shape: [2], index_codecs: [{ name: "bytes", configuration: { endian: "little" } }] },
        },
      ],
      { shape: [4], dtype: chunk.dtype, fillValue: 0 },
      defaultRegistry,
    );
    const codec = chain.stages[0]!.codec;
    const shardChunk = { ...chunk, elements: 4, shape: [4], key: "s/c/0" };
    // Inner chunk 1 only: [3, 4] at byte 0; inner chunk 0 missing.
    const stored = Uint8Array.of(3, 4, ...new Array(16).fill(0xff), 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0);
    expect(await codec.decode(stored, shardChunk)).toEqual(Uint8Array.of(0, 0, 3, 4));
    const encode = () => codec.encode(Uint8Array.of(0, 0, 3, 4), shardChunk);
    expect(encode).toThrow(MissingEncoderError);
    expect(encode).toThrow(/codec sharding_indexed cannot encode in chunk s\/c\/0: .*call enableEncoders\(\)/);
  });
});

describe("an encoder", () => {
  it("loads when a codec first encodes, once, and not for decoding", async () => {
    const { zlib, registerEncoder } = await withoutEncoders();
    let loads = 0;
    registerEncoder("zlib", () => {
      loads++;
      return import("../src/zlib-encode.js");
    });
    const codec = zlib.create({ level: 1 });
    expect(codec.decode(deflateSync(text), chunk)).toEqual(text);
    expect(loads).toBe(0);
    const first = codec.encode(text, chunk);
    expect(first).toBeInstanceOf(Promise); // loading the encoder
    expect(inflateSync((await first) as Uint8Array)).toEqual(Buffer.from(text));
    const second = codec.encode(text, chunk); // loaded: encodes at once
    expect(second).toBeInstanceOf(Uint8Array);
    expect(second).toEqual(await first);
    expect(loads).toBe(1);
  });

  it("that failed to load is loaded again next time", async () => {
    const { zlib, registerEncoder } = await withoutEncoders();
    let loads = 0;
    registerEncoder("zlib", async () => {
      if (++loads === 1) throw new Error("offline");
      return import("../src/zlib-encode.js");
    });
    const codec = zlib.create();
    await expect(codec.encode(text, chunk)).rejects.toThrow(/offline/);
    expect(inflateSync((await codec.encode(text, chunk)) as Uint8Array)).toEqual(Buffer.from(text));
    expect(loads).toBe(2);
  });
});

describe("enableEncoders", () => {
  it("registers zlib's, gzip's, LZMA's and bzip2's encoders", async () => {
    const { enableEncoders, hasEncoder, zlib, gzip, lzma, bz2 } = await withoutEncoders();
    const names = ["zlib", "gzip", "lzma", "bz2"];
    expect(names.filter(hasEncoder)).toEqual([]);
    enableEncoders();
    expect(names.filter(hasEncoder)).toEqual(names);
    expect(inflateSync((await zlib.create().encode(text, chunk)) as Uint8Array)).toEqual(Buffer.from(text));
    expect(gunzipSync((await gzip.create().encode(text, chunk)) as Uint8Array)).toEqual(Buffer.from(text));
    for (const codec of [lzma.create(), bz2.create()]) {
      expect(codec.decode(await codec.encode(text, chunk), chunk)).toEqual(text);
    }
  });

  it("is called by the package's Node entry", async () => {
    vi.resetModules();
    const { hasEncoder, zlib } = await import("../src/index-node.js");
    expect(["zlib", "gzip", "lzma", "bz2"].every(hasEncoder)).toBe(true);
    expect(inflateSync((await zlib.create().encode(text, chunk)) as Uint8Array)).toEqual(Buffer.from(text));
  });
});
