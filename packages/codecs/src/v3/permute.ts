/**
 * Permuting the axes of a C-order chunk: `out` has shape `shape[perm[i]]` and
 * `out[p] = in[q]` where `p[i] = q[perm[i]]` (the `transpose` codec's encoding; decoding permutes
 * by the inverse). Elements are copied as 32-, 16- or 8-bit words, never through floats, so NaN
 * payloads are kept.
 */
import { cStrides } from "@z/meta";

/** `shape` permuted: `shape[perm[i]]` for each `i`. */
export function permuteShape(shape: readonly number[], perm: readonly number[]): number[] {
  return perm.map((axis) => shape[axis]!);
}

/** The permutation undoing `perm`. */
export function inversePermutation(perm: readonly number[]): number[] {
  const inverse = new Array<number>(perm.length);
  perm.forEach((axis, i) => {
    inverse[axis] = i;
  });
  return inverse;
}

interface Words {
  length: number;
  [index: number]: unknown;
}

/**
 * Copies `src` (`words` words per element, C order over `shape`) to `dst` in the order of the
 * permuted shape.
 */
function permuteInto(src: Words, dst: Words, shape: readonly number[], perm: readonly number[], words: number): void {
  const rank = perm.length;
  const elements = shape.reduce((a, b) => a * b, 1);
  if (elements === 0) return;
  if (rank === 0) {
    for (let w = 0; w < words; w++) dst[w] = src[w];
    return;
  }
  const outShape = permuteShape(shape, perm);
  const inStrides = cStrides(shape);
  const strides = perm.map((axis) => inStrides[axis]! * words);
  const inner = outShape[rank - 1]!;
  const innerStride = strides[rank - 1]!;
  const index = new Array<number>(rank).fill(0);
  let base = 0;
  let o = 0;
  for (let row = elements / inner; row > 0; row--) {
    if (words === 1) {
      for (let j = 0, s = base; j < inner; j++, s += innerStride) dst[o++] = src[s];
    } else {
      for (let j = 0, s = base; j < inner; j++, s += innerStride) {
        for (let w = 0; w < words; w++) dst[o++] = src[s + w];
      }
    }
    for (let d = rank - 2; d >= 0; d--) {
      base += strides[d]!;
      if (++index[d]! < outShape[d]!) break;
      base -= strides[d]! * outShape[d]!;
      index[d] = 0;
    }
  }
}

/** The bytes of a C-order chunk of `itemsize`-byte elements, axes permuted. */
export function permuteBytes(
  src: Uint8Array,
  shape: readonly number[],
  perm: readonly number[],
  itemsize: number,
): Uint8Array {
  const out = new Uint8Array(src.length);
  const word = itemsize % 4 === 0 ? 4 : itemsize % 2 === 0 ? 2 : 1;
  const words = itemsize / word;
  if (word === 1) {
    permuteInto(src, out, shape, perm, words);
    return out;
  }
  // Typed views need aligned memory: an unaligned input is copied first.
  const aligned = src.byteOffset % word === 0 ? src : src.slice();
  const view = (bytes: Uint8Array): Words =>
    word === 4
      ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
      : new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
  permuteInto(view(aligned), view(out), shape, perm, words);
  return out;
}

/** A C-order chunk of JS values (an object dtype's), axes permuted. */
export function permuteValues(src: readonly unknown[], shape: readonly number[], perm: readonly number[]): unknown[] {
  const out = new Array<unknown>(src.length);
  permuteInto(src, out, shape, perm, 1);
  return out;
}
