import { dataTypeToJSON } from "@z/meta";
import type { ChunkContext } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { integer } from "./config-schema.js";
import { defineCodec } from "./define-codec.js";

/** numcodecs `BitRound(keepbits)`: `{"id": "bitround", "keepbits": 10}`; `keepbits` is required, at least 0. */
export const bitroundConfig = { keepbits: integer({ min: 0 }) };

/** Bits of mantissa of each float size. */
const MANTISSA_BITS: Readonly<Record<number, number>> = { 2: 10, 4: 23, 8: 52 };

/**
 * numcodecs `BitRound`: keeps `keepbits` bits of each float's mantissa, rounding the rest away
 * half to even (Klöwer et al. 2021), so the chunk compresses better. It works on the array's dtype
 * (`<f2`, `<f4`, `<f8`; big-endian too, which numcodecs 0.11 refuses); decoding changes nothing.
 */
export const bitround = defineCodec({
  id: "bitround",
  config: bitroundConfig,
  create: ({ keepbits }) => ({
    encode: (data, chunk) => round(requireBytes(data, "bitround", chunk), keepbits, chunk),
    decode: (data, chunk) => requireBytes(data, "bitround", chunk).slice(),
  }),
});

function round(input: Uint8Array, keepbits: number, chunk: ChunkContext): Uint8Array {
  const { dtype } = chunk;
  const bits = dtype.kind === "f" ? MANTISSA_BITS[dtype.itemsize] : undefined;
  if (dtype.kind !== "f" || bits === undefined) {
    throw new Error(
      `only float arrays (16 to 64 bits) can be bit-rounded, not ${JSON.stringify(dataTypeToJSON(dtype))}`,
    );
  }
  if (keepbits > bits)
    throw new Error(`keepbits ${keepbits} is too large for ${JSON.stringify(dataTypeToJSON(dtype))} (at most ${bits})`);
  const out = input.slice();
  if (keepbits === bits) return out;
  const size = dtype.itemsize;
  if (out.length % size !== 0) throw new Error(`${out.length} bytes are not a whole number of ${size}-byte floats`);
  const le = dtype.byteOrder !== ">";
  const view = new DataView(out.buffer);
  const maskbits = bits - keepbits;
  if (size === 8) {
    const shift = BigInt(maskbits);
    const mask = -1n << shift;
    const halfQuantum = (1n << (shift - 1n)) - 1n;
    for (let i = 0; i < out.length; i += 8) {
      const b = view.getBigInt64(i, le);
      const rounded = BigInt.asIntN(64, b + ((b >> shift) & 1n) + halfQuantum) & mask;
      view.setBigInt64(i, rounded, le);
    }
    return out;
  }
  const mask = -1 << maskbits;
  const halfQuantum = (1 << (maskbits - 1)) - 1;
  if (size === 4) {
    for (let i = 0; i < out.length; i += 4) {
      const b = view.getInt32(i, le);
      view.setInt32(i, ((b + ((b >> maskbits) & 1) + halfQuantum) | 0) & mask, le);
    }
  } else {
    for (let i = 0; i < out.length; i += 2) {
      const b = view.getInt16(i, le);
      view.setInt16(i, (((b + ((b >> maskbits) & 1) + halfQuantum) << 16) >> 16) & mask, le);
    }
  }
  return out;
}
