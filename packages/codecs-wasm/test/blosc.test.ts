import { describe, expect, it } from "vitest";
import { CodecConfigError, CodecError } from "@z/codecs";
import { checkCodec, contextFor, defaultSamples } from "@z/codecs/testing";
import { blosc } from "../src/blosc.js";
import { computeBlocksize, readHeader } from "../src/blosc-frame.js";
import { kernelsUnavailable, loadKernels, setKeptMemory, setKernelsEnabled } from "../src/kernels.js";
import { numcodecsFixtures } from "./fixtures.js";

const fixtures = numcodecsFixtures("blosc");

for (const itemsize of [1, 2, 4, 8]) {
  const configs =
    itemsize === 4
      ? [
          { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
          { id: "blosc", cname: "blosclz", clevel: 9, shuffle: 2, blocksize: 0 },
          { id: "blosc", cname: "lz4hc", clevel: 5, shuffle: 1, blocksize: 4096 },
          { id: "blosc", cname: "snappy", clevel: 1, shuffle: 0, blocksize: 0 },
          { id: "blosc", cname: "zlib", clevel: 3, shuffle: -1, blocksize: 0 },
          { id: "blosc", cname: "zstd", clevel: 5, shuffle: 1, blocksize: 0 },
        ]
      : itemsize === 2
        ? [{ id: "blosc", cname: "blosclz", clevel: 5, shuffle: 2, blocksize: 1000 }]
        : [{ id: "blosc", cname: "lz4", clevel: 5, shuffle: -1, blocksize: 0 }];
  describe(`item size ${itemsize}`, () => {
    // The default samples (with 1 MiB of mixed data) for LZ4 at item size 4; the others without
    // the 1 MiB sample, to keep the run short.
    const small = defaultSamples(itemsize).filter((sample) => !sample.name.startsWith("large"));
    for (const [index, config] of configs.entries()) {
      checkCodec(
        blosc,
        {
          configs: [config],
          itemsize,
          samples: itemsize === 4 && index === 0 ? defaultSamples(itemsize) : small,
          encoded: itemsize === 4 && index === 0 ? fixtures : [],
          corruption: "truncation",
          boundedDecode: true,
        },
        { describe, it },
      );
    }
  });
}

describe("blosc", () => {
  it("writes numcodecs' config, keys in its order", () => {
    expect(JSON.stringify(blosc.create().toJSON())).toBe(
      '{"id":"blosc","cname":"lz4","clevel":5,"shuffle":1,"blocksize":0}',
    );
    expect(blosc.create({ shuffle: -1, cname: "zstd" }).toJSON()).toEqual({
      id: "blosc",
      cname: "zstd",
      clevel: 5,
      shuffle: -1,
      blocksize: 0,
    });
    expect(() => blosc.create({ cname: "lzma" as "lz4" })).toThrow(/cname/);
    expect(() => blosc.create({ clevel: 10 })).toThrow(/clevel/);
    expect(() => blosc.create({ shuffle: 3 })).toThrow(/shuffle/);
  });

  it("picks the block size, flags, type size and split c-blosc 1.21 picks (header of every numcodecs fixture)", async () => {
    for (const fixture of fixtures) {
      const codec = blosc.create(fixture.config);
      const context = contextFor(fixture.decoded, fixture.context!.itemsize!);
      const ours = readHeader((await codec.encode(fixture.decoded, context)) as Uint8Array);
      const theirs = readHeader(fixture.encoded);
      const what = `${fixture.name}: ours ${JSON.stringify(ours)}, numcodecs ${JSON.stringify(theirs)}`;
      expect(ours.version, what).toBe(theirs.version);
      expect(ours.versionlz, what).toBe(theirs.versionlz);
      expect(ours.typesize, what).toBe(theirs.typesize);
      expect(ours.nbytes, what).toBe(theirs.nbytes);
      expect(ours.blocksize, what).toBe(theirs.blocksize);
      // The stored-uncompressed bit may differ when one side's compressor did better.
      expect(ours.flags & ~2, what).toBe(theirs.flags & ~2);
    }
  });

  it("loads its WebAssembly kernels here, and decodes every numcodecs fixture with and without them", async () => {
    expect(await loadKernels()).toBeDefined();
    expect(await loadKernels(true)).toBeDefined();
    for (const enabled of [true, false]) {
      setKernelsEnabled(enabled);
      try {
        expect(kernelsUnavailable()).toBe(!enabled);
        expect(kernelsUnavailable(true)).toBe(!enabled);
        for (const fixture of fixtures) {
          const decoded = await blosc
            .create(fixture.config)
            .decode(fixture.encoded, { ...contextFor(fixture.decoded, 1), ...fixture.context });
          expect(Buffer.compare(decoded as Uint8Array, fixture.decoded as Uint8Array), fixture.name).toBe(0);
        }
      } finally {
        setKernelsEnabled(true);
      }
    }
  });

  it("gives large WebAssembly memory back after a decode", async () => {
    const big = new Uint8Array(8 << 20);
    for (let i = 0; i < big.length; i += 4096) big.fill((i >>> 12) & 255, i, i + 4096);
    setKeptMemory(4 << 20);
    const context = contextFor(big, 4);
    const codec = blosc.create({ cname: "lz4", clevel: 1, shuffle: 1 });
    const encoded = (await codec.encode(big, context)) as Uint8Array;
    const kernels = await loadKernels();
    const decoded = (await codec.decode(encoded, context)) as Uint8Array;
    expect(Buffer.compare(decoded, big)).toBe(0);
    expect(kernels!.exports.memory.buffer.byteLength).toBeGreaterThan(8 << 20);
    const again = await loadKernels();
    expect(again).not.toBe(kernels);
    expect(again!.exports.memory.buffer.byteLength).toBeLessThan(1 << 20);
    setKeptMemory(256 << 20);
  });

  it("computes c-blosc's automatic block sizes", () => {
    // 4 MiB of float32 at lz4 clevel 5: 128 KiB blocks, split into 4 streams → 512 KiB.
    expect(computeBlocksize("lz4", 5, 4, 4 << 20, 0)).toBe(512 * 1024);
    expect(computeBlocksize("zstd", 5, 4, 4 << 20, 0)).toBe(256 * 1024);
    expect(computeBlocksize("zlib", 9, 8, 64 << 20, 0)).toBe(1024 * 1024);
    expect(computeBlocksize("blosclz", 1, 2, 1 << 20, 0)).toBe(64 * 1024);
    expect(computeBlocksize("lz4", 0, 4, 1 << 20, 0)).toBe(8 * 1024);
    expect(computeBlocksize("lz4", 5, 4, 3, 0)).toBe(1);
    expect(computeBlocksize("lz4", 5, 4, 1000, 100)).toBe(128);
    expect(computeBlocksize("lz4", 5, 4, 100000, 1000)).toBe(65536);
    expect(computeBlocksize("zstd", 5, 4, 100000, 100)).toBe(128);
  });

  const frame = async (bytes: Uint8Array, itemsize = 4) =>
    (await blosc
      .create({ cname: "lz4", clevel: 5, shuffle: 1, blocksize: 256 })
      .encode(bytes, contextFor(bytes, itemsize))) as Uint8Array;
  const data = new Uint8Array(new Float32Array(Array.from({ length: 1000 }, (_, i) => Math.sin(i / 50))).buffer);
  const decode = async (bytes: Uint8Array, elements = 1000) =>
    blosc.create().decode(bytes, { ...contextFor(data, 4), elements, key: "a/0.0" });

  it("refuses headers whose sizes disagree with the buffer", async () => {
    const good = await frame(data);
    expect(await decode(good)).toEqual(data);
    const cases: [string, (b: Uint8Array) => void, RegExp][] = [
      ["frame size past the buffer", (b) => new DataView(b.buffer).setUint32(12, b.length + 1, true), /truncated/],
      ["frame size below the header", (b) => new DataView(b.buffer).setUint32(12, 8, true), /smaller than the header/],
      ["block size 0", (b) => new DataView(b.buffer).setUint32(8, 0, true), /block size/],
      ["block size above the size", (b) => new DataView(b.buffer).setUint32(8, 8000, true), /block size/],
      ["type size 0", (b) => (b[3] = 0), /type size/],
      ["version 3", (b) => (b[0] = 3), /version 3/],
      ["reserved flag", (b) => (b[2] = b[2]! | 8), /flag/],
      ["unknown compressor", (b) => (b[2] = (b[2]! & 31) | (6 << 5)), /compressor format 6/],
      ["block start outside", (b) => new DataView(b.buffer).setUint32(16, 5, true), /outside the frame/],
      [
        "stream length past the end",
        (b) => new DataView(b.buffer).setInt32(new DataView(b.buffer).getUint32(16, true), 1 << 30, true),
        /past the end/,
      ],
      [
        "overlapping streams",
        (b) => new DataView(b.buffer).setUint32(20, new DataView(b.buffer).getUint32(16, true), true),
        /overlap|decodes/,
      ],
    ];
    for (const [what, change, message] of cases) {
      const bad = good.slice();
      change(bad);
      let error: unknown;
      try {
        await decode(bad);
      } catch (e) {
        error = e;
      }
      expect(error, what).toBeInstanceOf(CodecError);
      expect((error as CodecError).message, what).toMatch(message);
      expect((error as CodecError).message, what).toContain("a/0.0");
      expect((error as CodecError).message, what).toContain("blosc");
    }
  });

  it("refuses a frame that claims more than a chunk (a bomb) before allocating", async () => {
    const good = await frame(data);
    await expect(decode(good, 999)).rejects.toThrow(/decodes to more than 3996 bytes/);
    const bomb = good.slice();
    new DataView(bomb.buffer).setUint32(4, 2 ** 31 - 100, true);
    await expect(decode(bomb)).rejects.toThrow(/decodes to more than/);
  });

  it("refuses a memcpyed frame whose size does not match", async () => {
    const stored = (await blosc.create({ clevel: 0 }).encode(data, contextFor(data, 4))) as Uint8Array;
    expect(stored[2]! & 2).toBe(2);
    expect(await decode(stored)).toEqual(data);
    await expect(decode(stored.subarray(0, stored.length - 1))).rejects.toThrow(/truncated/);
    const lying = stored.slice();
    new DataView(lying.buffer).setUint32(12, stored.length - 1, true);
    await expect(decode(lying)).rejects.toThrow(/uncompressed frame/);
  });

  it("shuffles by the array's item size, not a fixed 4", async () => {
    const bytes = new Uint8Array(new Float64Array(Array.from({ length: 4096 }, (_, i) => i * 0.25)).buffer);
    for (const itemsize of [1, 2, 4, 8, 12, 16]) {
      const whole = bytes.subarray(0, bytes.length - (bytes.length % itemsize));
      const encoded = (await blosc.create().encode(whole, contextFor(whole, itemsize))) as Uint8Array;
      expect(encoded[3]).toBe(itemsize);
      expect(
        Buffer.compare((await blosc.create().decode(encoded, contextFor(whole, itemsize))) as Uint8Array, whole),
      ).toBe(0);
    }
    // Object arrays reach the compressor as their object codec's bytes.
    const objects = (await blosc
      .create({ shuffle: -1 })
      .encode(bytes, { ...contextFor(bytes, 8), dtype: { kind: "O", byteOrder: "|", itemsize: 8 } })) as Uint8Array;
    expect(objects[3]).toBe(1);
    expect(objects[2]! & 7).toBe(4);
    // Type sizes above 255 are shuffled as bytes, as c-blosc does.
    const big = (await blosc.create().encode(bytes, contextFor(bytes, 256))) as Uint8Array;
    expect(big[3]).toBe(1);
  });
});

describe("blosc typesize (numcodecs >= 0.16)", () => {
  const newer = numcodecsFixtures("blosc", () => true, "0.16");

  it("reads configs with typesize, null included, and writes typesize back only when the config has it", () => {
    expect(newer.length).toBeGreaterThan(5);
    const config = { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0, typesize: 4 };
    expect(blosc.create(config).toJSON()).toEqual(config);
    expect(blosc.create({ ...config, typesize: null }).toJSON()).toEqual({ ...config, typesize: null });
    expect(blosc.create({ cname: "zstd" }).toJSON()).not.toHaveProperty("typesize");
    expect(() => blosc.create({ ...config, typesize: 0 })).toThrow(
      /field "typesize" must be an integer >= 1 or null, got 0/,
    );
    expect(() => blosc.create({ ...config, typesize: "4" as unknown as number })).toThrow(CodecConfigError);
  });

  it("shuffles by typesize, as numcodecs 0.16 does, whatever the array's item size (header of every fixture)", async () => {
    for (const fixture of newer) {
      const context = contextFor(fixture.decoded as Uint8Array, fixture.context!.itemsize!);
      const ours = readHeader((await blosc.create(fixture.config).encode(fixture.decoded, context)) as Uint8Array);
      const theirs = readHeader(fixture.encoded);
      const what = `${fixture.name}: ours ${JSON.stringify(ours)}, numcodecs ${JSON.stringify(theirs)}`;
      expect(ours.typesize, what).toBe(theirs.typesize);
      expect(ours.blocksize, what).toBe(theirs.blocksize);
      expect(ours.nbytes, what).toBe(theirs.nbytes);
      expect(ours.flags & ~2, what).toBe(theirs.flags & ~2);
    }
  });

  it("writes numcodecs 0.16's very bytes for these, but for zlib streams (fflate's DEFLATE, not zlib's)", async () => {
    for (const fixture of newer.filter((f) => f.config.cname !== "zlib")) {
      const context = contextFor(fixture.decoded as Uint8Array, fixture.context!.itemsize!);
      const ours = (await blosc.create(fixture.config).encode(fixture.decoded, context)) as Uint8Array;
      expect(Buffer.from(ours).toString("base64"), fixture.name).toBe(Buffer.from(fixture.encoded).toString("base64"));
    }
  });

  it("decodes what numcodecs 0.16 wrote, and numcodecs' frames and ours decode to the same bytes", async () => {
    for (const fixture of newer) {
      const codec = blosc.create(fixture.config);
      const context = contextFor(fixture.decoded as Uint8Array, fixture.context!.itemsize!);
      expect(
        Buffer.compare((await codec.decode(fixture.encoded, context)) as Uint8Array, fixture.decoded as Uint8Array),
        fixture.name,
      ).toBe(0);
      const ours = (await codec.encode(fixture.decoded, context)) as Uint8Array;
      expect(
        Buffer.compare((await codec.decode(ours, context)) as Uint8Array, fixture.decoded as Uint8Array),
        fixture.name,
      ).toBe(0);
    }
  });

  it("refuses, on encode, a typesize c-blosc's int cannot hold, as numcodecs does", async () => {
    const bytes = new Uint8Array(1024);
    const codec = blosc.create({ typesize: 2 ** 31 });
    expect(codec.toJSON()).toMatchObject({ typesize: 2 ** 31 });
    await expect(Promise.resolve().then(() => codec.encode(bytes, contextFor(bytes, 4)))).rejects.toThrow(CodecError);
    await expect(Promise.resolve().then(() => codec.encode(bytes, contextFor(bytes, 4)))).rejects.toThrow(
      /typesize 2147483648/,
    );
  });
});
