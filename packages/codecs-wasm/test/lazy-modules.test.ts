// What of this package loads when. The WebAssembly kernels: the LZ4 ones (no Zstandard decoder) for
// Blosc frames of LZ4 streams, the full ones for Zstd streams. The encoders (blosc's, LZ4's,
// Zstandard's — libzstd — and the WebAssembly DEFLATE) are modules of their own, registered by
// enableWasmEncoders() and loaded when a codec first encodes: decoding numcodecs' bytes loads none
// of them, and a program that registered none is told what to register. The test setup registers every encoder, as Node's entry does; a program that
// registered none is a fresh set of module instances (vi.resetModules).
import { deflateSync, gzipSync, inflateSync } from "node:zlib";
import type { ChunkContext } from "@z/codecs";
import { describe, expect, it, vi } from "vitest";
import { numcodecsFixtures } from "./fixtures.js";

/** The encoder and kernel modules this file saw loaded (each is wrapped to say so when it is imported). */
const { loaded, watch } = vi.hoisted(() => {
  const loaded = new Set<string>();
  const watch = (name: string) => async (importOriginal: () => Promise<object>) => {
    loaded.add(name);
    return importOriginal();
  };
  return { loaded, watch };
});
vi.mock("../src/blosc-encode.js", watch("blosc-encode"));
vi.mock("../src/blosc-streams-encode.js", watch("blosc-streams-encode"));
vi.mock("../src/lz4-encode.js", watch("lz4-encode"));
vi.mock("../src/lz4-block-encode.js", watch("lz4-block-encode"));
vi.mock("../src/zstd-encode.js", watch("zstd-encode"));
vi.mock("../src/deflate-encode.js", watch("deflate-encode"));
vi.mock("../src/encode-kernels.js", watch("encode-kernels"));
vi.mock("../src/kernels-wasm.js", watch("kernels-wasm"));
vi.mock("../src/kernels-lz4-wasm.js", watch("kernels-lz4-wasm"));

const encoders = () => [...loaded].filter((name) => !name.startsWith("kernels"));

const text = new TextEncoder().encode("a chunk of text, a chunk of text, a chunk of text");
const bytes = { dtype: { kind: "u", byteOrder: "|", itemsize: 1 }, itemsize: 1, elements: text.length } as const;

/** One numcodecs 0.11 fixture of each cname of blosc (zlib and zstd frames included), and of zstd and lz4. */
const fixtures = [
  ...["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"].map(
    (cname) => numcodecsFixtures("blosc", (name) => name.startsWith(`arange-i2 ${cname} `))[0]!,
  ),
  numcodecsFixtures("zstd", (name) => name.startsWith("text-u1 "))[0]!,
  numcodecsFixtures("lz4", (name) => name.startsWith("text-u1 "))[0]!,
];

describe("the WebAssembly kernels", () => {
  it("of Blosc frames of LZ4 streams are the LZ4 ones; Zstd streams load the full ones (with Zstandard)", async () => {
    vi.resetModules();
    loaded.clear();
    const { blosc } = await import("../src/index.js");
    const frame = (cname: string) =>
      numcodecsFixtures("blosc", (name) => name.startsWith(`arange-i2 ${cname} clevel 5 shuffle 1`))[0]!;
    const lz4 = frame("lz4");
    expect(await blosc.create(lz4.config).decode(lz4.encoded, lz4.context as ChunkContext)).toEqual(lz4.decoded);
    expect([...loaded]).toEqual(["kernels-lz4-wasm"]);
    const zstd = frame("zstd");
    expect(await blosc.create(zstd.config).decode(zstd.encoded, zstd.context as ChunkContext)).toEqual(zstd.decoded);
    expect([...loaded]).toEqual(["kernels-lz4-wasm", "kernels-wasm"]);
  });
});

describe("decoding", () => {
  it("loads no encoder", async () => {
    const { blosc, zstd, lz4, zlib, gzip } = await import("../src/index.js");
    const factories = { blosc, zstd, lz4 } as const;
    for (const fixture of fixtures) {
      const codec = factories[fixture.config.id as keyof typeof factories].create(fixture.config);
      expect(await codec.decode(fixture.encoded, fixture.context as ChunkContext), fixture.name).toEqual(
        fixture.decoded,
      );
    }
    expect(await zlib.create().decode(deflateSync(text), bytes)).toEqual(text);
    expect(await gzip.create().decode(gzipSync(text), bytes)).toEqual(text);
    expect(encoders()).toEqual([]);
  });
});

describe("a program that registered no encoder", () => {
  it("decodes, and is told what to register when it encodes", async () => {
    vi.resetModules();
    const { blosc, zstd, lz4, zlib, gzip } = await import("../src/index.js");
    const { MissingEncoderError } = await import("@z/codecs/define");
    const blocks = fixtures.find((f) => f.config.id === "blosc")!;
    expect(await blosc.create(blocks.config).decode(blocks.encoded, blocks.context as ChunkContext)).toEqual(
      blocks.decoded,
    );
    const cases = [
      [blosc, "blosc"],
      [zstd, "zstd"],
      [lz4, "lz4"],
      [zlib, "wasm-deflate"],
      [gzip, "wasm-deflate"],
    ] as const;
    for (const [factory, encoder] of cases) {
      const encode = () => factory.create().encode(text, { ...bytes, key: "x/0" });
      expect(encode).toThrow(MissingEncoderError);
      expect(encode).toThrow(
        new RegExp(`codec ${factory.id} cannot encode in chunk x/0: its encoder \\("${encoder}"\\)`),
      );
    }
  });
});

describe("enableWasmEncoders", () => {
  it("registers every encoder, each loaded when a codec first encodes with it", async () => {
    vi.resetModules();
    const { blosc, zstd, lz4, zlib, enableWasmEncoders } = await import("../src/index.js");
    const { hasEncoder } = await import("@z/codecs/registry");
    const names = ["blosc", "lz4", "zstd", "wasm-deflate", "zlib", "gzip", "lzma", "bz2"];
    expect(names.filter(hasEncoder)).toEqual([]);
    enableWasmEncoders();
    expect(names.filter(hasEncoder)).toEqual(names);
    expect(encoders()).toEqual([]);

    const chunk = { ...bytes, key: "x/0" };
    expect(inflateSync((await zlib.create().encode(text, chunk)) as Uint8Array)).toEqual(Buffer.from(text));
    expect(encoders().sort()).toEqual(["deflate-encode", "encode-kernels"]);
    for (const codec of [lz4.create(), blosc.create({ cname: "lz4" }), zstd.create({ level: 3 })]) {
      expect(await codec.decode(await codec.encode(text, chunk), chunk)).toEqual(text);
    }
    expect(encoders().sort()).toEqual([
      "blosc-encode",
      "blosc-streams-encode",
      "deflate-encode",
      "encode-kernels",
      "lz4-block-encode",
      "lz4-encode",
      "zstd-encode",
    ]);
  });

  it("is called by the package's Node entry", async () => {
    vi.resetModules();
    const { zstd } = await import("../src/index-node.js");
    const { hasEncoder } = await import("@z/codecs/registry");
    expect(["blosc", "lz4", "zstd", "wasm-deflate", "zlib", "gzip", "lzma", "bz2"].every(hasEncoder)).toBe(true);
    const codec = zstd.create();
    expect(await codec.decode(await codec.encode(text, bytes), bytes)).toEqual(text);
  });
});
