// Moving element bytes between the forms the library and files use.

import {
  byteSwapInPlace,
  decodeExtension,
  encodeExtension,
  needsByteSwap,
  typedArrayConstructor,
  type DataType,
  type TypedArray,
} from "@z/meta";

export const product = (values: readonly number[]): number => values.reduce((a, b) => a * b, 1);

/**
 * The typed array `ZarrArray.set` takes (little-endian, see `typedArrayConstructor`) for element
 * bytes in the dtype's own byte order. Always a copy.
 */
export function bytesToTyped(raw: Uint8Array, dtype: DataType): TypedArray {
  // TensorStore's extension dtypes are held as values, not their stored bits.
  if (dtype.kind === "x") return decodeExtension(dtype.extension!, raw);
  const bytes = raw.slice();
  if (needsByteSwap(dtype)) byteSwapInPlace(bytes, dtype);
  const Ctor = typedArrayConstructor(dtype);
  return new Ctor(bytes.buffer, 0, bytes.byteLength / Ctor.BYTES_PER_ELEMENT);
}

/** Element bytes in the dtype's own byte order, from what `ZarrArray.get` returns. Always a copy. */
export function typedToBytes(typed: TypedArray, dtype: DataType): Uint8Array {
  if (dtype.kind === "x") return encodeExtension(dtype.extension!, typed as Float32Array | Int8Array);
  const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength).slice();
  if (needsByteSwap(dtype)) byteSwapInPlace(bytes, dtype);
  return bytes;
}

/** Reorders elements of `itemsize` bytes between C and Fortran order (`from` is the order they are in). */
export function reorder(bytes: Uint8Array, shape: readonly number[], itemsize: number, from: "C" | "F"): Uint8Array {
  const ndim = shape.length;
  if (shape.filter((n) => n > 1).length < 2) return bytes;
  const out = new Uint8Array(bytes.length);
  // Source strides in elements; the target is walked with its own fastest dimension first.
  const strides = new Array<number>(ndim);
  let stride = 1;
  const sourceFastestFirst = from === "C" ? [...Array(ndim).keys()].reverse() : [...Array(ndim).keys()];
  for (const d of sourceFastestFirst) {
    strides[d] = stride;
    stride *= shape[d]!;
  }
  const targetFastestFirst = [...sourceFastestFirst].reverse();
  const index = new Array<number>(ndim).fill(0);
  const total = product(shape);
  let s = 0;
  for (let t = 0; t < total; t++) {
    const src = s * itemsize;
    const dst = t * itemsize;
    for (let b = 0; b < itemsize; b++) out[dst + b] = bytes[src + b]!;
    for (const d of targetFastestFirst) {
      s += strides[d]!;
      if (++index[d]! < shape[d]!) break;
      s -= strides[d]! * shape[d]!;
      index[d] = 0;
    }
  }
  return out;
}

/**
 * Copies `block` (C order over `blockShape`) into `target` (C order over `shape`) at `offset`:
 * element bytes of `itemsize`, or the values of an object array (`itemsize` 1).
 */
export function copyBlock<T extends Uint8Array | unknown[]>(
  block: T,
  blockShape: readonly number[],
  target: T,
  shape: readonly number[],
  offset: readonly number[],
  itemsize: number,
): void {
  const put = (from: number, to: number, at: number): void => {
    if (target instanceof Uint8Array) target.set((block as Uint8Array).subarray(from, to), at);
    else for (let i = from; i < to; i++) target[at + i - from] = block[i];
  };
  const ndim = shape.length;
  if (ndim === 0) {
    put(0, itemsize, 0);
    return;
  }
  if (blockShape.includes(0)) return;
  const strides = new Array<number>(ndim);
  let s = itemsize;
  for (let d = ndim - 1; d >= 0; d--) {
    strides[d] = s;
    s *= shape[d]!;
  }
  const row = blockShape[ndim - 1]! * itemsize;
  const index = new Array<number>(ndim - 1).fill(0);
  const rows = product(blockShape.slice(0, -1));
  for (let r = 0; r < rows; r++) {
    let at = offset[ndim - 1]! * itemsize;
    for (let d = 0; d < ndim - 1; d++) at += (offset[d]! + index[d]!) * strides[d]!;
    put(r * row, (r + 1) * row, at);
    for (let d = ndim - 2; d >= 0; d--) {
      if (++index[d]! < blockShape[d]!) break;
      index[d] = 0;
    }
  }
}
