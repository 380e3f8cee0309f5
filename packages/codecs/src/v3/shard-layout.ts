/*
 * Moving boxes of elements between C-order buffers: inner chunks out of a shard (encoding), into
 * a shard or a region of one (decoding), and the fill value into the boxes of missing inner chunks.
 * Rows are copied whole; trailing dimensions a box spans fully in both buffers make longer rows.
 */

import type { BoxPlace } from "../codec.js";

export type { BoxPlace } from "../codec.js";

/**
 * Where the box of extent `box` placed as `place` starts in its buffer (in elements) when its
 * elements lie one after another there (C order), else `undefined`: after its first dimension
 * longer than 1, it must span the buffer's whole length.
 */
export function runStart(place: BoxPlace, box: readonly number[]): number | undefined {
  let spanned = false;
  let start = 0;
  for (let d = 0; d < box.length; d++) {
    if (spanned && box[d] !== place.shape[d]) return undefined;
    if (box[d]! > 1) spanned = true;
    start = start * place.shape[d]! + place.start[d]!;
  }
  return start;
}

/** Byte strides of a C-order buffer of `shape`. */
function byteStrides(shape: readonly number[], itemsize: number): number[] {
  const strides = new Array<number>(shape.length);
  let stride = itemsize;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = stride;
    stride *= shape[d]!;
  }
  return strides;
}

/**
 * Calls `visit(aOffset, bOffset, run)` for each run of `run` contiguous bytes of the box `box`
 * (its extent per dimension) as it lies in `a` and in `b`, in C order.
 */
export function eachRun(
  box: readonly number[],
  itemsize: number,
  a: BoxPlace,
  b: BoxPlace,
  visit: (aOffset: number, bOffset: number, run: number) => void,
): void {
  const rank = box.length;
  if (box.some((n) => n === 0)) return;
  if (rank === 0) return visit(0, 0, itemsize);
  // Dimensions spanned whole in both buffers join the run of the dimension before them.
  let last = rank - 1;
  let run = box[last]! * itemsize;
  while (last > 0 && box[last] === a.shape[last] && box[last] === b.shape[last]) {
    last--;
    run *= box[last]!;
  }
  const aStrides = byteStrides(a.shape, itemsize);
  const bStrides = byteStrides(b.shape, itemsize);
  let aOffset = 0;
  let bOffset = 0;
  for (let d = 0; d < rank; d++) {
    aOffset += a.start[d]! * aStrides[d]!;
    bOffset += b.start[d]! * bStrides[d]!;
  }
  if (last === 0) return visit(aOffset, bOffset, run);
  const index = new Array<number>(last).fill(0);
  for (;;) {
    visit(aOffset, bOffset, run);
    let d = last - 1;
    for (; d >= 0; d--) {
      aOffset += aStrides[d]!;
      bOffset += bStrides[d]!;
      if (++index[d]! < box[d]!) break;
      aOffset -= aStrides[d]! * box[d]!;
      bOffset -= bStrides[d]! * box[d]!;
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

/**
 * What a shard holds: bytes (`unit` bytes an element), or an object dtype's JS values (`unit` 1).
 */
export type Elements = Uint8Array | unknown[];

/**
 * Copies the box `box` of `src` (placed as `from`) into `dst` (placed as `to`), `unit` items an
 * element. `srcBase` is where `src` starts in the buffer `from` places the box in (a decoded span
 * of an inner chunk starts part way into it).
 */
export function copyBox(
  src: Elements,
  from: BoxPlace,
  dst: Elements,
  to: BoxPlace,
  box: readonly number[],
  unit: number,
  srcBase = 0,
): void {
  if (src instanceof Uint8Array && dst instanceof Uint8Array) {
    eachRun(box, unit, from, to, (a, b, run) => {
      const at = a - srcBase;
      if (run <= 32) {
        for (let i = 0; i < run; i++) dst[b + i] = src[at + i]!;
      } else {
        dst.set(src.subarray(at, at + run), b);
      }
    });
    return;
  }
  eachRun(box, unit, from, to, (a, b, run) => {
    for (let i = 0; i < run; i++) dst[b + i] = src[a + i];
  });
}

/** Writes `value` over the box `box` of the values `dst` (placed as `to`). */
export function fillValues(dst: unknown[], to: BoxPlace, box: readonly number[], value: unknown): void {
  const here: BoxPlace = { shape: box, start: box.map(() => 0) };
  eachRun(box, 1, here, to, (_, b, run) => {
    dst.fill(value, b, b + run);
  });
}

/** Writes the element `pattern` over the box `box` of `dst` (placed as `to`). */
export function fillBox(dst: Uint8Array, to: BoxPlace, box: readonly number[], pattern: Uint8Array): void {
  const itemsize = pattern.length;
  let row: Uint8Array | undefined;
  const here: BoxPlace = { shape: box, start: box.map(() => 0) };
  eachRun(box, itemsize, here, to, (_, b, run) => {
    if (row === undefined || row.length < run) row = repeated(pattern, run / itemsize);
    dst.set(row.subarray(0, run), b);
  });
}

/** `count` copies of `pattern`, one after another. */
export function repeated(pattern: Uint8Array, count: number): Uint8Array {
  const out = new Uint8Array(pattern.length * count);
  if (out.length === 0) return out;
  out.set(pattern);
  for (let filled = pattern.length; filled < out.length; filled *= 2) {
    out.copyWithin(filled, 0, Math.min(filled, out.length - filled));
  }
  return out;
}
