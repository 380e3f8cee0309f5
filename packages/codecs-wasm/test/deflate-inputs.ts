/* Inputs for the zlib and gzip tests (browser-safe: deflate.test.ts also runs in Chromium). */
import { pseudoRandomBytes } from "@z/codecs/testing";

/** A smooth float32 field plus a little noise, as bytes. */
export function floatBytes(n: number, seed: number): Uint8Array {
  const noise = pseudoRandomBytes(n, seed);
  const side = Math.max(1, Math.round(Math.sqrt(n)));
  const values = Float32Array.from(
    { length: n },
    (_, i) =>
      100 * Math.sin((6 * (i % side)) / side) * Math.cos((4 * Math.floor(i / side)) / side) + (noise[i]! - 128) / 256,
  );
  return new Uint8Array(values.buffer);
}

/** -1 when a and b hold the same bytes, else the first index where they differ. */
export function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

export const LEVELS = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/** Inputs that stress the matchers: empty, tiny, long runs, matches at every distance, incompressible. */
export function inputs(): { name: string; data: Uint8Array }[] {
  const text = new TextEncoder().encode("zlib and gzip, encoded in WebAssembly by @z/codecs-wasm. ".repeat(2000));
  const runs = Uint8Array.from({ length: 100_000 }, (_, i) => ((i / 1000) | 0) % 3);
  const far = new Uint8Array(200_000);
  const block = pseudoRandomBytes(40_000, 77);
  for (let i = 0; i < far.length; i++) far[i] = block[i % 32_767]!;
  return [
    { name: "empty", data: new Uint8Array(0) },
    { name: "1 byte", data: new Uint8Array([42]) },
    { name: "3 bytes", data: new Uint8Array([1, 2, 3]) },
    { name: "zeros 300000", data: new Uint8Array(300_000) },
    { name: "text", data: text },
    { name: "runs", data: runs },
    { name: "repeats at distance 32767", data: far },
    { name: "random 100000", data: pseudoRandomBytes(100_000, 3) },
    { name: "float32 smooth field", data: floatBytes(60_000, 9) },
    {
      name: "int16 wave",
      data: new Uint8Array(Int16Array.from({ length: 5001 }, (_, i) => Math.round(1000 * Math.sin(i / 40))).buffer),
    },
  ];
}

/** Random inputs of random sizes, mixing runs, copies and noise. */
export function fuzzInputs(count: number): Uint8Array[] {
  const rng = pseudoRandomBytes(count * 16, 1234);
  const out: Uint8Array[] = [];
  for (let k = 0; k < count; k++) {
    const size = ((rng[16 * k]! << 8) | rng[16 * k + 1]!) * (1 + (rng[16 * k + 2]! % 4));
    const noise = pseudoRandomBytes(size, k + 1);
    const data = new Uint8Array(size);
    for (let i = 0; i < size; ) {
      const kind = noise[i]! % 3;
      const len = 1 + (noise[(i + 1) % size]! % 300);
      for (let j = 0; j < len && i < size; j++, i++) {
        data[i] = kind === 0 ? noise[i]! : kind === 1 ? data[Math.max(0, i - 1 - (noise[i]! % 200))]! : 7;
      }
    }
    out.push(data);
  }
  return out;
}
