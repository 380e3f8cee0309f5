/*
 * zlib and gzip with the WebAssembly DEFLATE encoder: the same configs as @z/codecs' codecs, output
 * that @z/codecs decodes, compression close to fflate's (deflate-live.test.ts has Python's zlib,
 * gzip and numcodecs decode it). Runs in Node and Chromium.
 */
import { afterEach, describe, expect, it } from "vitest";
import { gzip as gzipTs, zlib as zlibTs } from "@z/codecs";
import { contextFor } from "@z/codecs/testing";
import { gzip, zlib } from "../src/deflate.js";
import { setEncodeKernelsEnabled } from "../src/encode-kernels.js";
import { LEVELS, firstDifference, floatBytes, inputs } from "./deflate-inputs.js";

afterEach(() => setEncodeKernelsEnabled(true));

describe("zlib and gzip with the WebAssembly encoder", () => {
  it("keep @z/codecs' ids and configs", () => {
    expect(zlib.id).toBe("zlib");
    expect(gzip.id).toBe("gzip");
    expect(zlib.create({ level: 5 }).toJSON()).toEqual(zlibTs.create({ level: 5 }).toJSON());
    expect(gzip.create().toJSON()).toEqual({ id: "gzip", level: 1 });
    expect(() => zlib.create({ level: 10 })).toThrow(/level/);
  });

  it("write zlib's header bytes and CPython's gzip header", async () => {
    const data = new Uint8Array(5000).fill(3);
    const header = async (level: number) =>
      Array.from(((await zlib.create({ level }).encode(data, contextFor(data))) as Uint8Array).subarray(0, 2));
    expect(await header(1)).toEqual([0x78, 0x01]);
    expect(await header(6)).toEqual([0x78, 0x9c]);
    expect(await header(-1)).toEqual([0x78, 0x9c]);
    expect(await header(9)).toEqual([0x78, 0xda]);
    const gz = (await gzip.create({ level: 1 }).encode(data, contextFor(data))) as Uint8Array;
    expect(Array.from(gz.subarray(0, 10))).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255]);
  });

  for (const { name, data } of inputs()) {
    it(`round-trip at every level (${name})`, async () => {
      for (const level of LEVELS) {
        for (const codec of [zlib.create({ level }), gzip.create({ level })]) {
          const encoded = (await codec.encode(data, contextFor(data))) as Uint8Array;
          const back = (await codec.decode(encoded, contextFor(data))) as Uint8Array;
          expect(firstDifference(back, data), `${codec.toJSON().id} level ${level}`).toBe(-1);
          // Never much larger than stored blocks.
          expect(encoded.length).toBeLessThanOrEqual(data.length + 5 * Math.ceil(data.length / 16383 + 1) + 18);
        }
      }
    });
  }

  it("compress about as well as fflate (the TypeScript encoder) at every level", async () => {
    const data = floatBytes(1 << 18, 5);
    for (const level of LEVELS) {
      const ours = (await zlib.create({ level }).encode(data, contextFor(data, 4))) as Uint8Array;
      const theirs = (await zlibTs.create({ level }).encode(data, contextFor(data, 4))) as Uint8Array;
      expect(ours.length / theirs.length, `level ${level}`).toBeLessThan(1.03);
    }
  }, 60_000);

  it("fall back to the TypeScript encoder without WebAssembly", async () => {
    setEncodeKernelsEnabled(false);
    const data = floatBytes(5000, 2);
    const encoded = (await zlib.create({ level: 3 }).encode(data, contextFor(data))) as Uint8Array;
    expect(encoded).toEqual(await zlibTs.create({ level: 3 }).encode(data, contextFor(data)));
    const gz = (await gzip.create({ level: 3 }).encode(data, contextFor(data))) as Uint8Array;
    expect(gz).toEqual(await gzipTs.create({ level: 3 }).encode(data, contextFor(data)));
  });
});
