/*
 * The WebAssembly encoders give the same bytes as the TypeScript ones (shuffles, LZ4, whole Blosc
 * frames), so either path writes what numcodecs reads (numcodecs-live.test.ts checks that).
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { contextFor, pseudoRandomBytes } from "@z/codecs/testing";
import { blosc } from "../src/blosc.js";
import { lz4 } from "../src/lz4.js";
import {
  loadEncodeKernels,
  reserveEncode,
  setEncodeKernelsEnabled,
  type EncodeKernels,
} from "../src/encode-kernels.js";
import { lz4Bound, lz4DecodeBlock } from "../src/lz4-block.js";
import { lz4EncodeBlock } from "../src/lz4-block-encode.js";
import { shuffleBits, shuffleBytes } from "../src/shuffle.js";

let kernels: EncodeKernels;

beforeAll(async () => {
  const loaded = await loadEncodeKernels();
  if (!loaded) throw new Error("the WebAssembly encoders did not load");
  kernels = loaded;
});

afterEach(() => setEncodeKernelsEnabled(true));

/** Runs a kernel on `input` copied into the encoders' memory; returns `outLength` bytes of its output. */
function inWasm(
  input: Uint8Array,
  outLength: number,
  run: (src: number, dst: number, tmp: number) => unknown,
): Uint8Array {
  const src = kernels.heapBase;
  const dst = src + input.length + 64;
  const tmp = dst + outLength + 64;
  const memory = reserveEncode(kernels, tmp + input.length + 64 - src)!;
  memory.set(input, src);
  const r = run(src, dst, tmp);
  return memory.slice(dst, dst + (typeof r === "number" ? r : outLength));
}

/** -1 when a and b hold the same bytes, else the first index where they differ (toEqual is slow on large arrays). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** A smooth float32 field plus a little noise, as bytes (what the bench compresses). Browser-safe (no samples.ts: it needs node:crypto). */
function floatBytes(n: number, seed: number): Uint8Array {
  const noise = pseudoRandomBytes(n, seed);
  const side = Math.max(1, Math.round(Math.sqrt(n)));
  const values = Float32Array.from(
    { length: n },
    (_, i) =>
      100 * Math.sin((6 * (i % side)) / side) * Math.cos((4 * Math.floor(i / side)) / side) + (noise[i]! - 128) / 256,
  );
  return new Uint8Array(values.buffer);
}

/** Deterministic inputs of several item sizes. */
function sampleInputs(): { name: string; itemsize: number; data: Uint8Array }[] {
  const i2 = Int16Array.from({ length: 5001 }, (_, i) => Math.round(1000 * Math.sin(i / 40)));
  const f8 = Float64Array.from({ length: 3003 }, (_, i) => Math.exp(-i / 900) * Math.cos(i / 7));
  return [
    { name: "text", itemsize: 1, data: new TextEncoder().encode("Blosc, encoded in WebAssembly. ".repeat(90)) },
    { name: "int16", itemsize: 2, data: new Uint8Array(i2.buffer) },
    { name: "float32", itemsize: 4, data: floatBytes(6007, 1) },
    { name: "float64", itemsize: 8, data: new Uint8Array(f8.buffer) },
    { name: "struct12", itemsize: 12, data: floatBytes(2100, 3) },
    { name: "random", itemsize: 1, data: pseudoRandomBytes(3000, 5) },
    { name: "tiny", itemsize: 4, data: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) },
  ];
}

describe("shuffles in WebAssembly", () => {
  const sizes = [0, 1, 7, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 1000, 4096, 4099, 65536 + 40];
  for (const typesize of [1, 2, 3, 4, 5, 7, 8, 12, 16, 17]) {
    it(`byte and bit shuffle equal the TypeScript ones (typesize ${typesize})`, () => {
      for (const size of sizes) {
        const input = pseudoRandomBytes(size, size + typesize);
        const bytes = new Uint8Array(size);
        shuffleBytes(typesize, size, input, 0, bytes, 0);
        expect(
          firstDifference(
            inWasm(input, size, (s, d) => kernels.exports.shuffle(typesize, size, s, d)),
            bytes,
          ),
          `bytes, size ${size}`,
        ).toBe(-1);
        const bits = new Uint8Array(size);
        shuffleBits(typesize, size, input, 0, bits, 0);
        expect(
          firstDifference(
            inWasm(input, size, (s, d, t) => kernels.exports.bitshuffle(typesize, size, s, d, t)),
            bits,
          ),
          `bits, size ${size}`,
        ).toBe(-1);
      }
    });
  }
});

describe("LZ4 in WebAssembly", () => {
  const inputs: [string, Uint8Array][] = [
    ["empty", new Uint8Array(0)],
    ["12 bytes", pseudoRandomBytes(12, 3)],
    ["13 bytes", new Uint8Array(13).fill(7)],
    ["random 70000", pseudoRandomBytes(70000, 9)],
    ["float32 65546 (largest with the small table)", floatBytes(65546 / 2, 1).subarray(0, 65546)],
    ["float32 65547", floatBytes(65548 / 2, 2).subarray(0, 65547)],
    ["float32 128 KiB", floatBytes(32768, 3)],
    ["zeros 200000", new Uint8Array(200000)],
    ["repeats", Uint8Array.from({ length: 150000 }, (_, i) => ((i * 7) % 251) ^ (i >> 12))],
  ];
  for (const [name, input] of inputs) {
    it(`writes the TypeScript encoder's bytes, which decode to the input (${name})`, () => {
      for (const acceleration of [1, 5, 9, 100]) {
        const expected = new Uint8Array(lz4Bound(input.length));
        const end = lz4EncodeBlock(input, 0, input.length, expected, 0, acceleration);
        const ours = inWasm(input, lz4Bound(input.length), (s, d) =>
          kernels.exports.lz4_encode(s, input.length, d, acceleration),
        );
        expect(firstDifference(ours, expected.subarray(0, end)), `acceleration ${acceleration}`).toBe(-1);
        const back = new Uint8Array(input.length);
        expect(lz4DecodeBlock(ours, 0, ours.length, back, 0, input.length)).toBe(input.length);
        expect(firstDifference(back, input)).toBe(-1);
      }
    });
  }
});

describe("the lz4 codec encoding in WebAssembly", () => {
  it("writes the TypeScript path's bytes, for every acceleration", async () => {
    for (const input of [floatBytes(70_000, 6), new Uint8Array(10_000), pseudoRandomBytes(5000, 2)]) {
      for (const acceleration of [1, 4, 0, -3, 200]) {
        setEncodeKernelsEnabled(true);
        const ours = (await lz4.create({ acceleration }).encode(input, contextFor(input))) as Uint8Array;
        setEncodeKernelsEnabled(false);
        const theirs = (await lz4.create({ acceleration }).encode(input, contextFor(input))) as Uint8Array;
        expect(firstDifference(ours, theirs), `acceleration ${acceleration}`).toBe(-1);
        expect(firstDifference((await lz4.create().decode(ours, contextFor(input))) as Uint8Array, input)).toBe(-1);
      }
    }
  });
});

describe("blosc frames encoded in WebAssembly", () => {
  const data = [
    ...sampleInputs(),
    { name: "float32 256 KiB", itemsize: 4, data: floatBytes(1 << 16, 4) },
    { name: "float64 300 KiB", itemsize: 8, data: floatBytes(76800, 5) },
  ];
  const encode = async (
    config: Parameters<typeof blosc.create>[0],
    input: Uint8Array,
    itemsize: number,
    wasm: boolean,
  ) => {
    setEncodeKernelsEnabled(wasm);
    return (await blosc.create(config).encode(input, contextFor(input, itemsize))) as Uint8Array;
  };
  for (const { name, itemsize, data: input } of data) {
    it(`equal the TypeScript frames, and decode (${name})`, async () => {
      for (const cname of ["lz4", "blosclz", "lz4hc", "snappy", "zstd", "zlib"] as const) {
        for (const shuffle of [0, 1, 2]) {
          for (const clevel of [1, 5, 9]) {
            const config = { cname, clevel, shuffle, blocksize: 0 };
            const ours = await encode(config, input, itemsize, true);
            // zlib streams are this package's DEFLATE in WebAssembly and fflate's in TypeScript.
            const what = `${cname} shuffle ${shuffle} clevel ${clevel}`;
            if (cname !== "zlib")
              expect(firstDifference(ours, await encode(config, input, itemsize, false)), what).toBe(-1);
            const back = (await blosc.create(config).decode(ours, contextFor(input, itemsize))) as Uint8Array;
            expect(firstDifference(back, input), what).toBe(-1);
          }
        }
      }
    }, 60_000);
  }
});
