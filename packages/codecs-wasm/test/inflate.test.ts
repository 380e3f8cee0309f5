/*
 * zlib and gzip decoding with the WebAssembly inflater (wasm/inflate.c): the codec contract, the
 * bytes and errors of @z/codecs' TypeScript decoders, streams zlib refuses, bounded output, the
 * fallback without WebAssembly, and the checksums. Runs in Node and Chromium; inflate-live.test.ts
 * and inflate-corrupt-live.test.ts compare with CPython's zlib.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type CodecError, gzip as gzipTs, zlib as zlibTs, type Codec } from "@z/codecs";
import { checkCodec, contextFor, pseudoRandomBytes } from "@z/codecs/testing";
import { gzip, zlib } from "../src/deflate.js";
import { loadInflate, reserveInflate, setInflateEnabled } from "../src/inflate-kernels.js";
import { BitWriter, adler32, dynamicBlock, zlibWrap } from "./deflate-craft.js";
import { firstDifference, floatBytes, inputs } from "./deflate-inputs.js";

afterEach(() => setInflateEnabled(true));

for (const codec of [zlib, gzip]) {
  checkCodec(codec, { configs: [{ id: codec.id, level: 1 }], boundedDecode: true }, { describe, it });
}

/** What a call threw (its class, code and message), or what it returned. */
async function result(run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return {
      threw: (error as object).constructor.name,
      code: (error as CodecError).code,
      message: (error as Error).message,
    };
  }
}

const pairs: [string, Codec, Codec][] = [
  ["zlib", zlib.create(), zlibTs.create()],
  ["gzip", gzip.create(), gzipTs.create()],
];

describe("zlib and gzip decoding with the WebAssembly inflater", () => {
  beforeAll(async () => {
    expect(await loadInflate(), "the inflater loads").toBeDefined();
  });

  it("gives the TypeScript decoders' bytes for fflate's encodings and ours, through decode and decodeInto", async () => {
    for (const { name, data } of inputs()) {
      for (const level of [1, 9]) {
        for (const [id, ours, ts] of pairs) {
          const what = `${id} level ${level}, ${name}`;
          for (const encoder of [
            (zlib.id === id ? zlib : gzip).create({ level }),
            (id === "zlib" ? zlibTs : gzipTs).create({ level }),
          ]) {
            const encoded = (await encoder.encode(data, contextFor(data))) as Uint8Array;
            expect(firstDifference((await ours.decode(encoded, contextFor(data))) as Uint8Array, data), what).toBe(-1);
            const out = new Uint8Array(data.length);
            expect(await ours.decodeInto!(encoded, out, contextFor(out)), what).toBe(data.length);
            expect(firstDifference(out, data), what).toBe(-1);
            expect(firstDifference((await ts.decode(encoded, contextFor(data))) as Uint8Array, data), what).toBe(-1);
          }
        }
      }
    }
  }, 60_000);

  it("throws the TypeScript decoders' errors for broken streams", async () => {
    const data = floatBytes(5000, 3);
    for (const [id, ours, ts] of pairs) {
      const encoded = (await ours.encode(data, contextFor(data))) as Uint8Array;
      const broken: [string, Uint8Array][] = [
        ["empty", new Uint8Array(0)],
        ["truncated", encoded.subarray(0, encoded.length - 9)],
        ["trailer only", encoded.subarray(0, encoded.length - 3)],
        ["bad header", Uint8Array.from(encoded, (b, i) => (i === 0 ? b ^ 0x40 : b))],
        ["bad checksum", Uint8Array.from(encoded, (b, i) => (i === encoded.length - 5 ? b ^ 1 : b))],
        ["bad length", Uint8Array.from(encoded, (b, i) => (i === encoded.length - 1 ? b ^ 1 : b))],
        ["bad block type", Uint8Array.from(encoded, (b, i) => (i === (id === "zlib" ? 2 : 10) ? b | 6 : b))],
        ["garbage after it", new Uint8Array([...encoded, 1, 2, 3])],
        ["random bytes", pseudoRandomBytes(3000, 8)],
      ];
      for (const [what, bytes] of broken) {
        const context = contextFor(data, 1, { key: "a/0.0" });
        const expected = await result(() => ts.decode(bytes, context));
        expect(await result(() => ours.decode(bytes, context)), `${id}, ${what}`).toEqual(expected);
        const out = new Uint8Array(data.length);
        expect(await result(() => ours.decodeInto!(bytes, out, context)), `${id}, ${what}, decodeInto`).toEqual(
          await result(() => ts.decodeInto!(bytes, out, context)),
        );
      }
    }
  });

  it("refuses what zlib refuses though fflate takes it, naming what is wrong", async () => {
    // Literal/length codes of 2 bits for three symbols: an incomplete code, which zlib refuses.
    const lengths = new Array<number>(257).fill(0);
    lengths[97] = lengths[98] = lengths[256] = 2;
    const w = new BitWriter();
    dynamicBlock(w, lengths, [0], [97, 98]);
    const stream = zlibWrap(w.result(), new Uint8Array([97, 98]));
    const context = contextFor(new Uint8Array(10), 1, { key: "a/0.0" });
    expect(zlibTs.create().decode(stream, context)).toEqual(new Uint8Array([97, 98]));
    const refused = await result(() => zlib.create().decode(stream, context));
    expect(refused).toEqual({
      threw: "CodecError",
      code: "ZARR_CODEC",
      message:
        "corrupt zlib data in chunk a/0.0: invalid literal/lengths set (found by the WebAssembly inflater, which follows zlib; the more lenient TypeScript decoder took the data)",
    });
    expect(await result(() => zlib.create().decodeInto!(stream, new Uint8Array(10), context))).toEqual(refused);
  });

  it("refuses output larger than the chunk or decodeInto's buffer, with the TypeScript decoders' errors", async () => {
    const zeros = new Uint8Array(1 << 20);
    for (const [id, ours, ts] of pairs) {
      const encoded = (await ours.encode(zeros, contextFor(zeros))) as Uint8Array;
      const small = contextFor(new Uint8Array(1000), 1, { key: "a/0.0" });
      const refused = await result(() => ours.decode(encoded, small));
      expect(refused, id).toMatchObject({
        threw: "CodecError",
        message: expect.stringContaining("decodes to more than 1000 bytes") as unknown,
      });
      expect(refused, id).toEqual(await result(() => ts.decode(encoded, small)));
      const out = new Uint8Array(zeros.length - 1);
      const tooSmall = await result(() => ours.decodeInto!(encoded, out, contextFor(out)));
      expect(tooSmall, id).toMatchObject({ threw: "CodecError" });
      expect(tooSmall, id).toEqual(await result(() => ts.decodeInto!(encoded, out, contextFor(out))));
    }
  });

  it("grows the output of decode when the chunk's size is unknown or too large to try first", async () => {
    const big = new Uint8Array(9 << 20).fill(7);
    for (const [id, ours] of pairs) {
      const encoded = (await ours.encode(big, contextFor(big))) as Uint8Array;
      for (const maxDecodedSize of [Infinity, 1 << 30]) {
        const decoded = (await ours.decode(
          encoded,
          contextFor(new Uint8Array(0), 1, { maxDecodedSize }),
        )) as Uint8Array;
        expect(decoded.length, `${id}, limit ${maxDecodedSize}`).toBe(big.length);
        expect(firstDifference(decoded, big), id).toBe(-1);
      }
    }
  });

  it("falls back to the TypeScript decoders without WebAssembly", async () => {
    setInflateEnabled(false);
    const data = floatBytes(3000, 5);
    for (const [id, ours, ts] of pairs) {
      const encoded = (await ts.encode(data, contextFor(data))) as Uint8Array;
      expect(firstDifference((await ours.decode(encoded, contextFor(data))) as Uint8Array, data), id).toBe(-1);
      const truncated = encoded.subarray(0, 20);
      expect(await result(() => ours.decode(truncated, contextFor(data))), id).toEqual(
        await result(() => ts.decode(truncated, contextFor(data))),
      );
    }
  });

  it("computes zlib's Adler-32 and CRC-32 at every length and alignment", async () => {
    const kernels = (await loadInflate())!;
    const data = pseudoRandomBytes(200_003, 9);
    data.fill(255, 1000, 30_000); // sums as large as they get
    const memory = reserveInflate(kernels, data.length + 16)!;
    const at = kernels.heapBase;
    memory.set(data, at);
    for (const [offset, length] of [
      ...Array.from({ length: 80 }, (_, n) => [n % 5, n]),
      [3, 5552],
      [1, 5553],
      [0, 100_000],
      [7, 200_000 - 7],
    ] as const) {
      const part = data.subarray(offset, offset + length);
      expect(kernels.exports.adler32(1, at + offset, length) >>> 0, `Adler-32, ${length} bytes at ${offset}`).toBe(
        adler32(part),
      );
      expect(kernels.exports.crc32(0, at + offset, length) >>> 0, `CRC-32, ${length} bytes at ${offset}`).toBe(
        crc32(part),
      );
    }
  });
});

function crc32(data: Uint8Array): number {
  let c = ~0;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return ~c >>> 0;
}
