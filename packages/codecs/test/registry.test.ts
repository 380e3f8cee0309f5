import { describe, expect, it, vi } from "vitest";
import {
  CodecConfigError,
  CodecError,
  CodecRegistry,
  defaultRegistry,
  defineCodec,
  gzip,
  integer,
  registerCodec,
  requireBytes,
  UnknownCodecError,
  zlib,
  type Codec,
  type CodecFactory,
} from "@z/codecs";
import { contextFor } from "@z/codecs/testing";

// A third-party codec, written against the published types only.
const xor = defineCodec({
  id: "xor",
  config: { key: integer({ min: 0, max: 255, default: 0x5a }) },
  create: ({ key }) => {
    const apply = (bytes: Uint8Array) => bytes.map((b) => b ^ key);
    return {
      encode: (data, chunk) => apply(requireBytes(data, "xor", chunk)),
      decode: (data, chunk) => apply(requireBytes(data, "xor", chunk)),
    };
  },
});

describe("defaultRegistry", () => {
  it("has this package's codecs", async () => {
    expect(defaultRegistry.ids()).toEqual(expect.arrayContaining(["gzip", "zlib"]));
    expect(defaultRegistry.has("zlib")).toBe(true);
    const codec = await defaultRegistry.create({ id: "gzip", level: 9 });
    expect(codec.toJSON()).toEqual({ id: "gzip", level: 9 });
    expect(await defaultRegistry.factory("zlib")).toBe(zlib);
  });

  it("takes third-party codecs with registerCodec", async () => {
    registerCodec("xor", () => xor);
    try {
      const codec = await defaultRegistry.create({ id: "xor", key: 1 }, { key: "a/.zarray" });
      const bytes = new Uint8Array([1, 2, 3]);
      expect(await codec.encode(bytes, contextFor(bytes))).toEqual(new Uint8Array([0, 3, 2]));
      expect(codec.toJSON()).toEqual({ id: "xor", key: 1 });
    } finally {
      defaultRegistry.unregister("xor");
    }
    expect(defaultRegistry.has("xor")).toBe(false);
  });
});

describe("CodecRegistry", () => {
  it("loads a codec only when a config first uses it, and once", async () => {
    const loader = vi.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1)); // e.g. import() of a WASM codec
      return xor;
    });
    const registry = new CodecRegistry().register("xor", loader);
    expect(loader).not.toHaveBeenCalled();
    const [a, b] = await Promise.all([registry.create({ id: "xor" }), registry.create({ id: "xor", key: 7 })]);
    expect(loader).toHaveBeenCalledTimes(1);
    expect(a.toJSON()).toEqual({ id: "xor", key: 0x5a });
    expect(b.toJSON()).toEqual({ id: "xor", key: 7 });
  });

  it("names the id, the key and the registered ids for an unknown codec", async () => {
    const registry = new CodecRegistry([
      ["zlib", () => zlib],
      ["gzip", () => gzip],
    ]);
    const error = await registry
      .create({ id: "blosc", cname: "lz4" }, { key: "data/.zarray" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownCodecError);
    expect(error).toMatchObject({
      code: "ZARR_UNKNOWN_CODEC",
      codecId: "blosc",
      key: "data/.zarray",
      registered: ["gzip", "zlib"],
    });
    expect((error as Error).message).toBe(
      'unknown codec "blosc" in data/.zarray (registered codecs: gzip, zlib); register it with registerCodec("blosc", loader)',
    );
  });

  it("passes config errors through, naming the key", async () => {
    const error = await defaultRegistry
      .create({ id: "zlib", level: 12 }, { key: "data/.zarray" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodecConfigError);
    expect((error as Error).message).toBe(
      'invalid config for codec "zlib" in data/.zarray: field "level" must be an integer from -1 to 9, got 12',
    );
  });

  it("refuses a config without a string id", async () => {
    const error = await defaultRegistry.create({ level: 1 } as never, { key: "data/.zarray" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ZARR_CODEC_CONFIG", field: "id" });
    expect((error as Error).message).toMatch(
      /a codec config in data\/.zarray must have a string "id", got \{"level": 1\}/,
    );
  });

  it("reports a failed load as a CodecError, and tries again next time", async () => {
    const flaky = defineCodec({ id: "flaky", config: {}, create: () => ({ encode: (d) => d, decode: (d) => d }) });
    let attempts = 0;
    const registry = new CodecRegistry().register("flaky", () => {
      if (++attempts === 1) throw new Error("network down");
      return flaky;
    });
    const error = await registry.create({ id: "flaky" }, { key: "x/.zarray" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodecError);
    expect((error as Error).message).toBe('failed to load codec "flaky": network down');
    expect((await registry.create({ id: "flaky" })).toJSON()).toEqual({ id: "flaky" });
  });

  it("catches loaders that return the wrong codec", async () => {
    const registry = new CodecRegistry().register("lz4", () => zlib);
    await expect(registry.create({ id: "lz4" })).rejects.toThrow(
      'the loader registered for codec "lz4" returned the factory of codec "zlib"',
    );
  });

  it("accepts hand-written factories and turns their plain errors into CodecConfigErrors", async () => {
    const identity: Codec = { id: "identity", encode: (d) => d, decode: (d) => d, toJSON: () => ({ id: "identity" }) };
    const factory: CodecFactory = {
      id: "identity",
      create(config) {
        if (Object.keys(config).length > 1) throw new TypeError("identity takes no parameters");
        return identity;
      },
    };
    const registry = new CodecRegistry([["identity", () => factory]]);
    expect(await registry.create({ id: "identity" })).toBe(identity);
    const error = await registry.create({ id: "identity", x: 1 }, { key: "k/.zarray" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodecConfigError);
    expect((error as Error).message).toBe(
      'invalid config for codec "identity" in k/.zarray: identity takes no parameters',
    );
  });

  it("clones, so an application can add codecs without changing the default registry", async () => {
    const mine = defaultRegistry.clone().register("xor", () => xor);
    expect(mine.has("xor")).toBe(true);
    expect(mine.has("zlib")).toBe(true);
    expect(defaultRegistry.has("xor")).toBe(false);
  });
});
