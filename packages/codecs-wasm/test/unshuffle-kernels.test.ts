import { describe, expect, it } from "vitest";
import { pseudoRandomBytes } from "@z/codecs/testing";
import { loadKernels, reserve } from "../src/kernels.js";
import { unshuffleBits, unshuffleBytes } from "../src/shuffle.js";

describe("byte and bit unshuffles in the WebAssembly kernels", async () => {
  const kernels = (await loadKernels())!;

  /** Runs an unshuffle of `input` in the kernels' memory and returns what it wrote. */
  function inKernels(input: Uint8Array, run: (src: number, dst: number) => void): Uint8Array {
    const memory = reserve(kernels, 2 * input.length + 64);
    const src = kernels.heapBase;
    const dst = src + input.length + 32;
    memory.set(input, src);
    memory.fill(0xee, dst, dst + input.length);
    run(src, dst);
    return memory.slice(dst, dst + input.length);
  }

  // Past one tile of byte planes (64 KiB) for every type size, and group counts that are not multiples of 16.
  const sizes = [0, 1, 8, 64, 120, 136, 1000, 4096, 4104, 65536, 65536 + 8 * 17, 300_000];
  for (const typesize of [1, 2, 3, 4, 5, 8, 12, 16, 17, 100, 255]) {
    it(`equal the TypeScript ones (type size ${typesize})`, () => {
      for (const base of sizes) {
        const size = base * typesize + (base % 3);
        if (size > 4_000_000) continue;
        const input = pseudoRandomBytes(size, size + typesize);
        const bytes = new Uint8Array(size);
        unshuffleBytes(typesize, size, input, 0, bytes, 0);
        expect(
          Buffer.compare(
            inKernels(input, (s, d) => kernels.exports.unshuffle(typesize, size, s, d)),
            bytes,
          ),
          `bytes, size ${size}`,
        ).toBe(0);
        const bits = new Uint8Array(size);
        unshuffleBits(typesize, size, input, 0, bits, 0);
        expect(
          Buffer.compare(
            inKernels(input, (s, d) => kernels.exports.bitunshuffle(typesize, size, s, d)),
            bits,
          ),
          `bits, size ${size}`,
        ).toBe(0);
      }
    });
  }
});
