import { describe, expect, it } from "vitest";
import { CodecRegistry } from "@z/codecs";
import { contextFor } from "@z/codecs/testing";
import { blosc, gzip, loadBlosc, lz4, registerWasmCodecs, wasmCodecLoaders, zlib, zstd } from "../src/index.js";

describe("@z/codecs-wasm", () => {
  it("registers blosc, zstd, lz4, zlib and gzip lazily", async () => {
    const registry = registerWasmCodecs(new CodecRegistry());
    expect(registry.ids()).toEqual(["blosc", "gzip", "lz4", "zlib", "zstd"]);
    const codec = await registry.create(
      { id: "blosc", cname: "zstd", clevel: 3, shuffle: 2, blocksize: 0 },
      { key: "a/.zarray" },
    );
    expect(codec.toJSON()).toEqual({ id: "blosc", cname: "zstd", clevel: 3, shuffle: 2, blocksize: 0 });
    const data = new Uint8Array(4000).map((_, i) => i % 13);
    const context = contextFor(data, 2);
    expect(await codec.decode(await codec.encode(data, context), context)).toEqual(data);
    expect((await registry.create({ id: "zstd", level: 2 })).toJSON()).toEqual({ id: "zstd", level: 2 });
    expect((await registry.create({ id: "lz4" })).toJSON()).toEqual({ id: "lz4", acceleration: 1 });
    await expect(registry.create({ id: "blosc", cname: "nope" })).rejects.toThrow(/cname/);
  });

  it("exports the factories and their loaders", async () => {
    expect(await loadBlosc()).toBe(blosc);
    expect(await wasmCodecLoaders.zstd()).toBe(zstd);
    expect(await wasmCodecLoaders.lz4()).toBe(lz4);
    expect(await wasmCodecLoaders.zlib()).toBe(zlib);
    expect(await wasmCodecLoaders.gzip()).toBe(gzip);
  });
});
