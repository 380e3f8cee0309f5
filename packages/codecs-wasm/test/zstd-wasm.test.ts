import { describe, expect, it } from "vitest";
import { pseudoRandomBytes } from "@z/codecs/testing";
import { MalformedInput, OutputTooLarge } from "../src/errors.js";
import { loadKernels, reserve, type Kernels } from "../src/kernels.js";
import { declaredContentSize, zstdDecode } from "../src/zstd-decode.js";
import { zstdCompress } from "../src/zstd-encode.js";
import { xxh64 } from "../src/xxhash64.js";
import { zstdDecodeIn, zstdProblem } from "../src/zstd-wasm.js";

/** Decodes with wasm/zstd.c directly: the output, or the problem it reports. */
function decodeInWasm(kernels: Kernels, data: Uint8Array, capacity: number): Uint8Array | string {
  const memory = reserve(kernels, data.length + 64 + capacity + 64);
  const base = kernels.heapBase;
  memory.set(data, base);
  const outAt = base + data.length + 64;
  const r = zstdDecodeIn(kernels, memory, base, base + data.length, memory, outAt, capacity);
  return r < 0 ? zstdProblem(r) : memory.slice(outAt, outAt + r);
}

/** Decodes with the TypeScript decoder: the output, or "failed". */
function decodeInTypeScript(data: Uint8Array, limit: number): Uint8Array | "failed" {
  try {
    return zstdDecode(data, limit);
  } catch (error) {
    if (error instanceof MalformedInput || error instanceof OutputTooLarge) return "failed";
    throw error;
  }
}

/** Inputs that exercise every block and literal kind: noise, smooth floats, text, runs, sizes across blocks. */
function inputs(): { name: string; bytes: Uint8Array }[] {
  const floats = new Float32Array(300_000);
  for (let i = 0; i < floats.length; i++) floats[i] = Math.sin(i / 300) + Math.cos(i / 7000) + ((i * 7919) % 13) / 1e4;
  const text = new TextEncoder().encode(
    "The quick brown fox jumps over the lazy dog. ".repeat(4000) +
      "Sphinx of black quartz, judge my vow! ".repeat(3000),
  );
  const runs = new Uint8Array(200_000);
  for (let i = 0; i < runs.length; i++) runs[i] = (i >>> 10) % 3 === 0 ? 7 : i % 251;
  const ints = new Int16Array(100_000).map((_, i) => (i * i) % 1000);
  return [
    { name: "empty", bytes: new Uint8Array(0) },
    { name: "one byte", bytes: new Uint8Array([42]) },
    { name: "noise", bytes: pseudoRandomBytes(200_000) },
    { name: "smooth floats", bytes: new Uint8Array(floats.buffer) },
    { name: "text", bytes: text },
    { name: "runs", bytes: runs },
    { name: "zeros", bytes: new Uint8Array(300_000) },
    { name: "int16 squares", bytes: new Uint8Array(ints.buffer) },
  ];
}

describe("the WebAssembly Zstandard decoder", async () => {
  const kernels = (await loadKernels(true))!;
  const cases = inputs();
  const levels = [-5, 1, 3, 9, 19, 22];

  it("decodes libzstd's frames of every input at levels -5 to 22 to the input", async () => {
    for (const { name, bytes } of cases) {
      for (const level of levels) {
        const frame = await zstdCompress(bytes, level);
        expect(declaredContentSize(frame, Infinity), `${name} at level ${level}`).toBe(bytes.length);
        const decoded = decodeInWasm(kernels, frame, bytes.length);
        expect(typeof decoded, `${name} at level ${level}: ${String(decoded)}`).not.toBe("string");
        expect(Buffer.compare(decoded as Uint8Array, bytes), `${name} at level ${level}`).toBe(0);
      }
    }
  }, 60_000);

  it("decodes several frames and skippable frames in a row, and verifies content checksums", async () => {
    const a = await zstdCompress(cases[3]!.bytes, 3);
    const b = await zstdCompress(cases[4]!.bytes, 1);
    const skippable = new Uint8Array([0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
    const joined = Buffer.concat([skippable, a, skippable, b]);
    const decoded = decodeInWasm(kernels, joined, cases[3]!.bytes.length + cases[4]!.bytes.length);
    expect(Buffer.compare(decoded as Uint8Array, Buffer.concat([cases[3]!.bytes, cases[4]!.bytes]))).toBe(0);

    // The same frame with its checksum flag set and a wrong checksum appended.
    const flagged = Buffer.concat([a, new Uint8Array(4)]);
    flagged[4]! |= 4;
    expect(decodeInWasm(kernels, flagged, cases[3]!.bytes.length)).toBe("content checksum mismatch");
    new DataView(flagged.buffer, flagged.byteOffset).setUint32(a.length, xxh64(cases[3]!.bytes)[1], true);
    expect(Buffer.compare(decodeInWasm(kernels, flagged, cases[3]!.bytes.length) as Uint8Array, cases[3]!.bytes)).toBe(
      0,
    );
  });

  it("refuses output beyond the capacity it is given", async () => {
    const frame = await zstdCompress(cases[2]!.bytes, 3);
    expect(decodeInWasm(kernels, frame, cases[2]!.bytes.length - 1)).toBe(
      "the frames decode to more bytes than they declare",
    );
  });

  it("agrees with the TypeScript decoder on hundreds of corrupted frames: the same bytes, or both refuse", async () => {
    let refused = 0;
    let decoded = 0;
    let seed = 12345;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (const { name, bytes } of cases.filter((c) => c.bytes.length > 1000)) {
      for (const level of [1, 3, 19]) {
        const frame = await zstdCompress(bytes.subarray(0, 150_000), level);
        const size = Math.min(bytes.length, 150_000);
        for (let trial = 0; trial < 60; trial++) {
          const bad = frame.slice();
          // Flip 1 to 3 bytes past the frame header (header damage is caught before decoding).
          const flips = 1 + Math.floor(random() * 3);
          for (let f = 0; f < flips; f++)
            bad[6 + Math.floor(random() * (bad.length - 6))]! ^= 1 + Math.floor(random() * 255);
          let declared: number;
          try {
            declared = declaredContentSize(bad, size);
          } catch {
            continue;
          }
          const ours = decodeInWasm(kernels, bad, declared);
          const reference = decodeInTypeScript(bad, size);
          const what = `${name} at level ${level}, trial ${trial}: wasm ${typeof ours === "string" ? ours : `${ours.length} bytes`}, TypeScript ${typeof reference === "string" ? reference : `${reference.length} bytes`}`;
          if (typeof ours === "string") {
            refused++;
            expect(reference, what).toBe("failed");
          } else {
            decoded++;
            expect(typeof reference, what).not.toBe("string");
            expect(Buffer.compare(ours, reference as Uint8Array), what).toBe(0);
          }
        }
      }
    }
    // Both outcomes occur, so both branches above were checked.
    expect(refused).toBeGreaterThan(100);
    expect(decoded).toBeGreaterThan(10);
  }, 60_000);
});
