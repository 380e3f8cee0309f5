import {
  byteSwapInPlace,
  decodeExtension,
  encodeExtension,
  fillValueBytes,
  needsByteSwap,
  typedArrayConstructor,
  type DataType,
  type FillValue,
  type TypedArray,
} from "@z/meta";

/**
 * Chunks are held in memory as typed arrays in little-endian order (the order of every platform we
 * run on), whatever the dtype's byte order on disk; these functions convert at the boundary.
 */

/** A typed array over decoded chunk bytes, byte-swapped and realigned only when it has to be. */
export function bytesToTyped(raw: Uint8Array, dtype: DataType): TypedArray {
  // TensorStore's extension dtypes are held as their values, not their bits (see @z/meta).
  if (dtype.kind === "x") return decodeExtension(dtype.extension!, raw);
  const Ctor = typedArrayConstructor(dtype);
  const swap = needsByteSwap(dtype);
  const aligned = raw.byteOffset % Ctor.BYTES_PER_ELEMENT === 0;
  const bytes = swap || !aligned ? raw.slice() : raw;
  if (swap) byteSwapInPlace(bytes, dtype);
  return new Ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
}

/** The stored byte form of a typed chunk (a view when no swap is needed). */
export function typedToBytes(typed: TypedArray, dtype: DataType): Uint8Array {
  if (dtype.kind === "x") return encodeExtension(dtype.extension!, typed as Float32Array | Int8Array);
  const view = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  if (!needsByteSwap(dtype)) return view;
  const copy = view.slice();
  byteSwapInPlace(copy, dtype);
  return copy;
}

/**
 * One element of the fill value as the in-memory typed array holds it, little-endian (zeros when
 * the array has no fill value): the stored bytes, except for extension dtypes, held as values.
 */
export function fillPattern(fill: FillValue, dtype: DataType): Uint8Array {
  // Object arrays hold JS values, not byte patterns (see object-chunks.ts).
  if (dtype.kind === "O") return new Uint8Array(0);
  if (dtype.kind === "x") {
    // What a chunk of the stored fill reads as (a NaN fill of a `fnuz` format is a negative NaN).
    const one = decodeExtension(dtype.extension!, fillValueBytes(fill, dtype));
    return new Uint8Array(one.buffer, one.byteOffset, one.byteLength);
  }
  const bytes = fillValueBytes(fill, dtype).slice();
  if (needsByteSwap(dtype)) byteSwapInPlace(bytes, dtype);
  return bytes;
}

/** A fresh typed array of `elements` elements, each equal to the fill pattern. */
export function filledTyped(pattern: Uint8Array, elements: number, dtype: DataType): TypedArray {
  const bytes = new Uint8Array(elements * pattern.length);
  if (pattern.some((b) => b !== 0) && elements > 0) {
    bytes.set(pattern);
    // Doubling copies: log2(n) calls rather than n.
    for (let filled = pattern.length; filled < bytes.length; filled *= 2) {
      bytes.copyWithin(filled, 0, Math.min(filled, bytes.length - filled));
    }
  }
  const Ctor = typedArrayConstructor(dtype);
  return new Ctor(bytes.buffer, 0, bytes.length / Ctor.BYTES_PER_ELEMENT);
}

/** True when every element of `typed` has exactly the bytes of `pattern` (NaN payloads included). */
export function isAllPattern(typed: TypedArray, pattern: Uint8Array): boolean {
  const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  const n = pattern.length;
  if (n === 0) return true;
  if (pattern.every((b) => b === pattern[0])) {
    const b0 = pattern[0];
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== b0) return false;
    return true;
  }
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== pattern[i % n]) return false;
  return true;
}
