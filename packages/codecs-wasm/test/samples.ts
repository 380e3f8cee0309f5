import { createHash } from "node:crypto";
import { pseudoRandomBytes } from "@z/codecs/testing";

export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

const asBytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** A smooth field plus a little noise (deterministic), `n` float32 values. */
export function smoothFloat32(n: number, seed = 1): Float32Array {
  const noise = pseudoRandomBytes(n, seed);
  const side = Math.max(1, Math.round(Math.sqrt(n)));
  return Float32Array.from({ length: n }, (_, i) => {
    const x = (i % side) / side;
    const y = Math.floor(i / side) / side;
    return 100 * Math.sin(6 * x) * Math.cos(4 * y) + (noise[i]! - 128) / 256;
  });
}

/** Deterministic test inputs by name, with their item size. */
export function sampleInputs(): { name: string; itemsize: number; data: Uint8Array }[] {
  const text = new TextEncoder().encode("Blosc, Zstd and LZ4, encoded by @z/codecs-wasm. ".repeat(60));
  const i2 = Int16Array.from({ length: 5001 }, (_, i) => Math.round(1000 * Math.sin(i / 40)));
  const f8 = Float64Array.from({ length: 3003 }, (_, i) => Math.exp(-i / 900) * Math.cos(i / 7));
  const u12 = new Uint8Array(12 * 700);
  const view = new DataView(u12.buffer);
  for (let i = 0; i < 700; i++) {
    view.setInt32(12 * i, i, true);
    view.setFloat32(12 * i + 4, i / 3, true);
    view.setInt32(12 * i + 8, i % 5, true);
  }
  return [
    { name: "text", itemsize: 1, data: text },
    { name: "int16", itemsize: 2, data: asBytes(i2) },
    { name: "float32", itemsize: 4, data: asBytes(smoothFloat32(6007)) },
    { name: "float64", itemsize: 8, data: asBytes(f8) },
    { name: "struct12", itemsize: 12, data: u12 },
    { name: "random", itemsize: 1, data: pseudoRandomBytes(3000, 5) },
    { name: "tiny", itemsize: 4, data: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) },
  ];
}
