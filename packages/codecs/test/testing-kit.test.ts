import { describe, expect, it } from "vitest";
import {
  CodecConfigError,
  CodecError,
  defaultRegistry,
  defineCodec,
  integer,
  maxDecodedSize,
  requireBytes,
  zlib,
  type Codec,
  type CodecFactory,
} from "@z/codecs";
import {
  checkBoundedDecode,
  checkCodec,
  checkCodecV3,
  checkConfigRoundTrip,
  checkCorruptInput,
  checkPartialDecode,
  checkRoundTrip,
  CodecContractError,
  contextFor,
  defaultSamples,
} from "@z/codecs/testing";

// How a codec author runs the kit on a codec of their own: see readme-example.test.ts. Here, what
// the kit catches.

/** Builds a byte codec from plain functions, to show what the kit catches. */
function broken(name: string, encode: (bytes: Uint8Array) => Uint8Array, decode = encode): Codec {
  return {
    id: name,
    encode: (data, chunk) => encode(requireBytes(data, name, chunk)),
    decode: (data, chunk) => decode(requireBytes(data, name, chunk)),
    toJSON: () => ({ id: name }),
  };
}

const few = defaultSamples().filter((s) => ["one item", "short text", "random 4 KiB"].includes(s.name));

describe("the kit catches broken codecs", () => {
  it("a codec that ignores byteOffset (reads .buffer)", async () => {
    const codec = broken("lazy", (bytes) => new Uint8Array(bytes.buffer).slice(0, bytes.length));
    await expect(checkRoundTrip(codec, few)).rejects.toThrow(
      /lazy.*round trip of one item: decode\(encode\(x\)\) differs from x/,
    );
  });

  it("a codec whose decodeRange or decodeInto disagrees with decode", async () => {
    const identity = (bytes: Uint8Array) => bytes.slice();
    const good: Codec = {
      ...broken("ranges", identity),
      decodeRange: async (read, start, end) => {
        const bytes = await read(start, end - start);
        return bytes && { bytes, decodedSize: 4096 };
      },
    };
    // The sizes only hold for the 4 KiB sample.
    const random = few.filter((s) => s.name === "random 4 KiB");
    await expect(checkPartialDecode(good, random)).resolves.toBeUndefined();
    const offByOne: Codec = {
      ...good,
      decodeRange: async (read, start, end) => ({ bytes: (await read(start + 1, end - start))!, decodedSize: 4096 }),
    };
    await expect(checkPartialDecode(offByOne, random)).rejects.toThrow(
      /decodeRange\(0, 4096\) differs from decode's bytes/,
    );
    const spills: Codec = {
      ...broken("into", identity),
      decodeInto: (data, out) => (
        out.set(data as Uint8Array), out.fill(0, (data as Uint8Array).length), (data as Uint8Array).length
      ),
    };
    await expect(checkPartialDecode(spills, random)).rejects.toThrow(/decodeInto wrote past the decoded bytes/);
  });

  it("a codec that changes its input", async () => {
    const codec = broken("in-place", (bytes) => {
      for (let i = 0; i < bytes.length; i++) bytes[i]! ^= 1;
      return bytes;
    });
    await expect(checkRoundTrip(codec, few)).rejects.toThrow(/encode changed its input/);
  });

  it("a codec that decodes corrupt data to garbage, or throws something other than a CodecError", async () => {
    const garbage = broken("garbage", (bytes) => bytes.slice());
    await expect(checkCorruptInput(garbage, few)).rejects.toThrow(
      /\{"id":"garbage"\}: one item encoded to 1 bytes, bit 0 of byte 0 flipped: decoded to 1 bytes \[2b\] instead of throwing a CodecError/,
    );
    await expect(checkCorruptInput(garbage, few, { corruption: "none" })).resolves.toBeUndefined();
    const typeError = broken(
      "type-error",
      (bytes) => bytes.slice(),
      () => {
        throw new TypeError("oops");
      },
    );
    await expect(checkCorruptInput(typeError, few, { corruption: "none" })).rejects.toThrow(
      /threw TypeError: oops, expected a CodecError \(code "ZARR_CODEC"\)/,
    );
  });

  it("a CodecError that does not name the chunk key", async () => {
    const vague = broken(
      "vague",
      (bytes) => bytes.slice(),
      () => {
        throw new CodecError("vague: bad data", { codecId: "vague" });
      },
    );
    await expect(checkCorruptInput(vague, few)).rejects.toThrow(/does not name the chunk key checks\/0.0/);
  });

  it("a toJSON that loses part of the config", async () => {
    const forgetful = defineCodec({
      id: "forgetful",
      config: { key: integer({ default: 0 }) },
      create: ({ key }) => ({
        encode: (d, c) => requireBytes(d, "forgetful", c).map((b) => b ^ key),
        decode: (d) => d,
      }),
    });
    const leaky: CodecFactory = {
      id: "forgetful",
      create: (config) => ({ ...forgetful.create(config), toJSON: () => ({ id: "forgetful" }) }),
    };
    await expect(checkConfigRoundTrip(leaky, [{ id: "forgetful", key: 7 }], { samples: few })).rejects.toThrow(
      /rebuilt from toJSON\(\) \{"id":"forgetful"\} encodes one item differently/,
    );
  });

  it("a decoder without a bound on its output", async () => {
    const unbounded = defineCodec({
      id: "unbounded",
      config: {},
      create: () => ({ encode: (d) => d, decode: (d) => d }),
    });
    await expect(checkBoundedDecode(unbounded.create(), few)).rejects.toThrow(
      /unbounded.*decoded as a chunk of 0 bytes: returned 1 bytes \[2a\] instead of throwing a CodecError/,
    );
    const bounded = defineCodec({
      id: "bounded",
      config: {},
      create: () => ({
        encode: (d) => d,
        decode: (d, chunk) => {
          if ((d as Uint8Array).length > maxDecodedSize(chunk))
            throw new CodecError(`bounded: too big in ${chunk.key}`, { codecId: "bounded", key: chunk.key });
          return d;
        },
      }),
    });
    await expect(checkBoundedDecode(bounded.create(), few)).resolves.toBeUndefined();
  });

  it("a decode that never finishes", async () => {
    const stuck: Codec = { ...broken("stuck", (b) => b.slice()), decode: () => new Promise<never>(() => {}) };
    await expect(checkRoundTrip(stuck, few, { timeout: 50 })).rejects.toThrow(
      /stuck.*decode did not finish within 50 ms/,
    );
  });
});

describe("checkCodec without a test runner", () => {
  it("runs every check and rejects with a CodecContractError at the first failure", async () => {
    const samples = [new Uint8Array([1, 2, 3]), { name: "zeros", data: new Uint8Array(1000) }];
    await expect(checkCodec(zlib, { samples, boundedDecode: true })).resolves.toBeUndefined();
    const error = await checkCodec(
      broken("garbage", (b) => b.slice()),
      { samples },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodecContractError);
  });

  it("checks a plain Codec object too", async () => {
    const codec = zlib.create({ level: 3 });
    await expect(checkCodec(codec, { samples: few })).resolves.toBeUndefined();
    await expect(checkCodec(codec, { samples: few, configs: [{ id: "zlib", level: 4 }] })).rejects.toThrow(
      /pass options.factory/,
    );
    await expect(
      checkCodec(codec, { samples: few, configs: [{ id: "zlib", level: 4 }], factory: zlib }),
    ).resolves.toBeUndefined();
  });

  it("describes chunks the way arrays do", () => {
    expect(contextFor(new Uint8Array(12), 4)).toEqual({
      dtype: { kind: "u", byteOrder: "<", itemsize: 4 },
      itemsize: 4,
      elements: 3,
      key: "checks/0.0",
    });
    expect(contextFor(["a", "b"])).toMatchObject({ dtype: { kind: "O" }, elements: 2 });
  });
});

describe("the kit checks a codec under its Zarr v3 name", () => {
  // numcodecs' zlib as zarr-python 3 writes it into zarr.json, and the v3 core crc32c, both built
  // by @z/codecs/v3 from the default registry's v2 codecs.
  checkCodecV3(
    { name: "numcodecs.zlib", configuration: { level: 1 } },
    { registry: defaultRegistry, samples: few, boundedDecode: true },
    { describe, it },
  );
  checkCodecV3({ name: "crc32c" }, { registry: defaultRegistry, samples: few }, { describe, it });

  it("refuses a configuration the v3 codec refuses, naming the codec", async () => {
    const error = await checkCodecV3(
      { name: "crc32c", configuration: { location: "start" } },
      { registry: defaultRegistry, samples: few },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodecConfigError);
    expect((error as Error).message).toContain('(codec "crc32c")');
  });
});
