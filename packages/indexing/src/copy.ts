import { BoundsError, SelectionError } from "./errors.js";
import { describe } from "./selection.js";
import { stridesFor, type StridedView } from "./strided-view.js";
import type { TypedArray } from "@z/meta";

/** What the kernels need of any typed array, so one code path serves every kind. */
export interface Values {
  [index: number]: number | bigint;
  readonly length: number;
  readonly buffer: ArrayBufferLike;
  readonly byteOffset: number;
  readonly BYTES_PER_ELEMENT: number;
  set(array: ArrayLike<number | bigint>, offset?: number): void;
  subarray(begin?: number, end?: number): Values;
  copyWithin(target: number, start: number, end?: number): unknown;
  fill(value: number | bigint, start?: number, end?: number): unknown;
}

export const values = (data: TypedArray): Values => data as unknown as Values;

/** Runs shorter than this are copied value by value; creating a subarray costs more than it saves. */
export const SHORT_RUN = 16;

/**
 * Copies every element of `src` to the same position in `dst` (both of the same shape), element
 * by element as numpy's `dst[...] = src`, with `valuesPerElement` values per element. Views may
 * be in any order, have any strides (0 to repeat a value, negative to reverse) and share a
 * buffer: overlapping views copy as if through a temporary. The typed arrays must hold the same
 * kind of value (numbers or bigints); arrays of one type copy bit for bit (float NaNs keep their
 * payload and sign, signalling ones included). Throws `SelectionError` when the shapes differ and
 * `BoundsError` when a view reaches outside its data.
 */
export function copyStrided<T extends TypedArray>(
  dst: StridedView<T>,
  src: StridedView<T>,
  valuesPerElement = 1,
): void {
  const k = checkValuesPerElement(valuesPerElement);
  if (!sameShape(dst.shape, src.shape)) {
    throw new SelectionError(
      `cannot copy a view of shape [${src.shape.join(", ")}] into one of shape [${dst.shape.join(", ")}]`,
    );
  }
  const dstRange = valueRange(dst, k, "destination");
  const srcRange = valueRange(src, k, "source");
  if (dstRange === undefined || srcRange === undefined) return; // no elements

  if (copyRows(dst, src, k)) return;
  const into = floatBits(dst, src);
  let source = floatBits(src, dst);
  if (overlaps(into.data, dstRange, source.data, srcRange) && !sameView(into, source)) {
    source = contiguousCopy(source, k);
  }
  const plan = simplify(into.shape, [into.strides, source.strides]);
  if (!copyWords(into.data, into.offset * k, source.data, source.offset * k, plan, k)) {
    stridedCopy(values(into.data), into.offset * k, values(source.data), source.offset * k, plan, k);
  }
}

/**
 * `view` with its float32 values seen as the int32s of their bits (the same memory and elements),
 * when `other`, the view it is copied to or from, holds float32 values too; else `view` itself.
 * The kernels copy those integers rather than the floats: a float32 read into a JS number becomes
 * a double, and on x64 and ARM that conversion quiets a signalling NaN, so `0x7f800001` would be
 * written back as `0x7fc00001` (numpy copies every bit). Float64 values need no such view: a JS
 * number holds a double's bits as they are, and typed arrays store them as they are.
 */
export function floatBits<T extends TypedArray>(view: StridedView<T>, other: StridedView): StridedView<T> {
  const { data } = view;
  if (!(data instanceof Float32Array && other.data instanceof Float32Array)) return view;
  return {
    data: new Int32Array(data.buffer, data.byteOffset, data.length) as TypedArray as T,
    offset: view.offset,
    shape: view.shape,
    strides: view.strides,
  };
}

/** Contiguous runs shorter than this many bytes are copied word by word; longer ones by `set`. */
const WORD_RUN_BYTES = 256;

/**
 * Copies as `stridedCopy` does, but in 4-byte words, when the innermost dimension is a short
 * contiguous run on both sides and every run starts on a word boundary: rows of small chunks then
 * cost a tight loop rather than a subarray and `set` each. Words copy the bits as they are (a NaN
 * keeps its payload, a bigint needs no conversion). Returns false, having copied nothing, when the
 * copy is not of that kind.
 */
function copyWords(
  dst: TypedArray,
  dstStart: number,
  src: TypedArray,
  srcStart: number,
  plan: Plan,
  k: number,
): boolean {
  const { shape } = plan;
  const ndim = shape.length;
  // Real typed arrays only (object arrays pass JS arrays dressed as them), in different buffers.
  if (ndim === 0 || !ArrayBuffer.isView(dst) || !ArrayBuffer.isView(src) || dst.buffer === src.buffer) return false;
  const [dstStrides, srcStrides] = plan.strides as [number[], number[]];
  if (dstStrides[ndim - 1] !== 1 || srcStrides[ndim - 1] !== 1) return false;
  const bytes = dst.BYTES_PER_ELEMENT;
  const runBytes = shape[ndim - 1]! * k * bytes;
  if (runBytes >= WORD_RUN_BYTES || runBytes % 4 !== 0) return false;
  const dstByte = dst.byteOffset + dstStart * bytes;
  const srcByte = src.byteOffset + srcStart * bytes;
  if (dstByte % 4 !== 0 || srcByte % 4 !== 0) return false;
  const dstWords = wordsOf(dst);
  const srcWords = wordsOf(src);
  // Word positions as small integers (`| 0`), which the loops index fastest; buffers of 2^31
  // words (8 GiB) or more go the ordinary way.
  if (dstWords === undefined || srcWords === undefined || dstWords.length >= 2 ** 31 || srcWords.length >= 2 ** 31)
    return false;
  const dp = ((dstByte - dstWords.byteOffset) / 4) | 0;
  const sp = ((srcByte - srcWords.byteOffset) / 4) | 0;
  const n = (runBytes / 4) | 0;
  if (ndim === 1) {
    copyWordRows(dstWords, dp, 0, srcWords, sp, 0, 1, n);
    return true;
  }
  const unit = k * bytes;
  for (let d = 0; d < ndim - 1; d++)
    if ((dstStrides[d]! * unit) % 4 !== 0 || (srcStrides[d]! * unit) % 4 !== 0) return false;
  if (ndim === 2) {
    // The common case (rows of a 2-d chunk), without the odometer.
    copyWordRows(
      dstWords,
      dp,
      ((dstStrides[0]! * unit) / 4) | 0,
      srcWords,
      sp,
      ((srcStrides[0]! * unit) / 4) | 0,
      shape[0]! | 0,
      n,
    );
    return true;
  }
  const outer = shape.slice(0, -1).concat(1);
  const strides = [dstStrides.map((s) => (s * unit) / 4), srcStrides.map((s) => (s * unit) / 4)];
  odometer(outer, strides, [dp, sp], 1, (positions) =>
    copyWordRows(dstWords, positions[0]! | 0, 0, srcWords, positions[1]! | 0, 0, 1, n),
  );
  return true;
}

/**
 * The common copy of a read (a box of a decoded chunk into a box of the output) without planning:
 * rows that are contiguous on both sides, in different buffers, every stride non-negative. Rows
 * of whole 4-byte words are copied as words, longer rows with `set`; both through views of whole
 * buffers made once per buffer, so a chunk costs no allocation. Both views must already be known
 * to lie inside their data (`valueRange`). Returns false, having copied nothing, for any other copy.
 */
function copyRows(dst: StridedView, src: StridedView, k: number): boolean {
  const { shape } = dst;
  const ndim = shape.length;
  if (ndim === 0) return false;
  const last = ndim - 1;
  if (dst.strides[last] !== 1 || src.strides[last] !== 1) return false;
  const d = dst.data;
  const s = src.data;
  if (
    !ArrayBuffer.isView(d) ||
    !ArrayBuffer.isView(s) ||
    d.buffer === s.buffer ||
    d.BYTES_PER_ELEMENT !== s.BYTES_PER_ELEMENT
  )
    return false;
  const unit = k * d.BYTES_PER_ELEMENT;
  const rowBytes = shape[last]! * unit;
  let dByte = d.byteOffset + dst.offset * unit;
  let sByte = s.byteOffset + src.offset * unit;
  const words = rowBytes < WORD_RUN_BYTES;
  let aligned = dByte % 4 === 0 && sByte % 4 === 0 && rowBytes % 4 === 0;
  for (let dim = 0; dim < last; dim++) {
    const ds = dst.strides[dim]!;
    const ss = src.strides[dim]!;
    if (ds < 0 || ss < 0) return false;
    if ((ds * unit) % 4 !== 0 || (ss * unit) % 4 !== 0) aligned = false;
  }
  if (words && !aligned) return false;
  const rows = ndim === 1 ? 1 : shape[last - 1]!;
  const dRow = ndim === 1 ? 0 : dst.strides[last - 1]! * unit;
  const sRow = ndim === 1 ? 0 : src.strides[last - 1]! * unit;
  const dw = words ? wordView(d.buffer) : undefined;
  const sw = words ? wordView(s.buffer) : undefined;
  if (words && (dw === undefined || sw === undefined)) return false;
  const db = words ? undefined : byteView(d.buffer);
  const sb = words ? undefined : byteView(s.buffer);
  // An odometer over the dimensions before the rows' (none for 1-d and 2-d copies).
  const outer = Math.max(ndim - 2, 0);
  const index = outer === 0 ? undefined : new Array<number>(outer).fill(0);
  for (;;) {
    if (words) copyWordRows(dw!, dByte >>> 2, dRow >>> 2, sw!, sByte >>> 2, sRow >>> 2, rows, rowBytes >>> 2);
    else
      for (let r = 0; r < rows; r++)
        db!.set(sb!.subarray(sByte + r * sRow, sByte + r * sRow + rowBytes), dByte + r * dRow);
    let dim = outer - 1;
    for (; dim >= 0; dim--) {
      if (++index![dim]! < shape[dim]!) {
        dByte += dst.strides[dim]! * unit;
        sByte += src.strides[dim]! * unit;
        break;
      }
      index![dim] = 0;
      dByte -= dst.strides[dim]! * (shape[dim]! - 1) * unit;
      sByte -= src.strides[dim]! * (shape[dim]! - 1) * unit;
    }
    if (dim < 0) return true;
  }
}

/** A word view of all of `buffer`, kept per buffer (made again if the buffer grew); undefined past 2^31 words. */
function wordView(buffer: ArrayBufferLike): Int32Array | undefined {
  const n = Math.floor(buffer.byteLength / 4);
  if (n >= 2 ** 31) return undefined;
  let view = wordViews.get(buffer);
  if (view === undefined || view.length !== n) wordViews.set(buffer, (view = new Int32Array(buffer, 0, n)));
  return view;
}

function byteView(buffer: ArrayBufferLike): Uint8Array {
  let view = byteViews.get(buffer);
  if (view === undefined || view.length !== buffer.byteLength) byteViews.set(buffer, (view = new Uint8Array(buffer)));
  return view;
}

const wordViews = new WeakMap<ArrayBufferLike, Int32Array>();
const byteViews = new WeakMap<ArrayBufferLike, Uint8Array>();

/**
 * `rows` runs of `n` words, each `dStep`/`sStep` words after the last. Its own function, with
 * every value a parameter, so the loops compile to plain integer indexing.
 */
function copyWordRows(
  dst: Int32Array,
  d: number,
  dStep: number,
  src: Int32Array,
  s: number,
  sStep: number,
  rows: number,
  n: number,
): void {
  for (let r = 0; r < rows; r++, d += dStep, s += sStep) {
    for (let i = 0; i < n; i++) dst[d + i] = src[s + i]!;
  }
}

/** The 4-byte words of the buffer `data` lies in, from where `data` starts to the end of its last whole word. */
function wordsOf(data: TypedArray): Int32Array | undefined {
  if (data.byteOffset % 4 !== 0) return undefined;
  return new Int32Array(data.buffer, data.byteOffset, Math.floor(data.byteLength / 4));
}

/**
 * The int32s of a float32 array's bits, over the same memory; any other array as it is. What the
 * kernels move float32 values as (see `floatBits`).
 */
export function bitsOf(data: TypedArray): TypedArray {
  return data instanceof Float32Array ? new Int32Array(data.buffer, data.byteOffset, data.length) : data;
}

// --- planning -----------------------------------------------------------------------------------

/** Loops over the same shape in several views: dims of length 1 gone, adjacent dims merged where every view allows. */
export interface Plan {
  readonly shape: number[];
  /** Per view, one stride (in elements) per dim of `shape`. */
  readonly strides: number[][];
}

/**
 * Drops dims of length 1, orders the rest so the first view's strides decrease (its innermost
 * loop is the tightest) and merges neighbours that every view can walk as one.
 */
export function simplify(shape: readonly number[], strides: readonly (readonly number[])[]): Plan {
  // Plain loops: this runs once per chunk copied, so its cost is per chunk.
  const dims: number[] = [];
  for (let d = 0; d < shape.length; d++) if (shape[d] !== 1) dims.push(d);
  const first = strides[0]!;
  if (dims.length > 1) dims.sort((a, b) => Math.abs(first[b]!) - Math.abs(first[a]!) || a - b);
  const views = strides.length;
  const outShape: number[] = [];
  const outStrides: number[][] = [];
  for (let v = 0; v < views; v++) outStrides.push([]);
  for (const d of dims) {
    const n = shape[d]!;
    const last = outShape.length - 1;
    let merge = last >= 0;
    for (let v = 0; merge && v < views; v++) merge = outStrides[v]![last] === strides[v]![d]! * n;
    if (merge) {
      outShape[last] = outShape[last]! * n;
      for (let v = 0; v < views; v++) outStrides[v]![last] = strides[v]![d]!;
    } else {
      outShape.push(n);
      for (let v = 0; v < views; v++) outStrides[v]!.push(strides[v]![d]!);
    }
  }
  return { shape: outShape, strides: outStrides };
}

// --- kernels ------------------------------------------------------------------------------------

export function stridedCopy(dst: Values, dstStart: number, src: Values, srcStart: number, plan: Plan, k: number): void {
  const { shape } = plan;
  const ndim = shape.length;
  const [dstStrides, srcStrides] = plan.strides as [number[], number[]];
  // The innermost loop (or one element when every dim had length 1).
  const n = ndim === 0 ? 1 : shape[ndim - 1]!;
  const dInner = ndim === 0 ? 1 : dstStrides[ndim - 1]!;
  const sInner = ndim === 0 ? 1 : srcStrides[ndim - 1]!;
  const contiguous = dInner === 1 && sInner === 1;
  const dStep = dInner * k;
  const sStep = sInner * k;
  const same = dst === src;

  const inner = (dp: number, sp: number): void => {
    if (contiguous) {
      copyRun(dst, dp, src, sp, n * k, same);
    } else if (k === 1) {
      for (let i = 0; i < n; i++, dp += dStep, sp += sStep) dst[dp] = src[sp]!;
    } else if (k < SHORT_RUN) {
      for (let i = 0; i < n; i++, dp += dStep, sp += sStep) {
        for (let j = 0; j < k; j++) dst[dp + j] = src[sp + j]!;
      }
    } else {
      for (let i = 0; i < n; i++, dp += dStep, sp += sStep) copyRun(dst, dp, src, sp, k, same);
    }
  };

  odometer(shape, [dstStrides, srcStrides], [dstStart, srcStart], k, (positions) =>
    inner(positions[0]!, positions[1]!),
  );
}

export function copyRun(dst: Values, dp: number, src: Values, sp: number, length: number, same: boolean): void {
  if (length < SHORT_RUN) {
    for (let j = 0; j < length; j++) dst[dp + j] = src[sp + j]!;
  } else if (same) {
    dst.copyWithin(dp, sp, sp + length);
  } else {
    dst.set(src.subarray(sp, sp + length), dp);
  }
}

/**
 * Calls `body` with the value positions of every combination of indices in all dims but the
 * last (the body walks the last one), advancing positions incrementally, last dim fastest.
 */
export function odometer(
  shape: readonly number[],
  strides: readonly (readonly number[])[],
  starts: readonly number[],
  k: number,
  body: (positions: readonly number[]) => void,
): void {
  const outer = Math.max(shape.length - 1, 0);
  const views = strides.length;
  const positions = [...starts];
  const index = new Array<number>(outer).fill(0);
  for (;;) {
    body(positions);
    let d = outer - 1;
    for (; d >= 0; d--) {
      if (++index[d]! < shape[d]!) {
        for (let v = 0; v < views; v++) positions[v]! += strides[v]![d]! * k;
        break;
      }
      index[d] = 0;
      for (let v = 0; v < views; v++) positions[v]! -= strides[v]![d]! * (shape[d]! - 1) * k;
    }
    if (d < 0) return;
  }
}

// --- checks and helpers -------------------------------------------------------------------------

export function checkValuesPerElement(k: number): number {
  if (!Number.isSafeInteger(k) || k < 1) {
    throw new SelectionError(`values per element must be a positive integer, got ${describe(k)}`);
  }
  return k;
}

/**
 * The first and one past the last value a view touches, or undefined when it has no elements.
 * Throws `BoundsError` when that reaches outside the data.
 */
export function valueRange(view: StridedView, k: number, role: string): [number, number] | undefined {
  const { shape, strides, offset } = view;
  if (strides.length !== shape.length) {
    throw new SelectionError(
      `a view of shape [${shape.join(", ")}] needs ${shape.length} strides, got ${strides.length}`,
    );
  }
  let lo = offset;
  let hi = offset;
  for (let d = 0; d < shape.length; d++) {
    const n = shape[d]!;
    if (n === 0) return undefined;
    const reach = strides[d]! * (n - 1);
    if (reach < 0) lo += reach;
    else hi += reach;
  }
  const first = lo * k;
  const end = (hi + 1) * k;
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(end) || first < 0 || end > view.data.length) {
    throw new BoundsError(
      `the ${role} view (offset ${offset}, shape [${shape.join(", ")}], strides [${strides.join(", ")}], ${k} values per element) reaches values ${first} to ${end - 1} of data of length ${view.data.length}`,
      { length: view.data.length },
    );
  }
  return [first, end];
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let d = 0; d < a.length; d++) if (a[d] !== b[d]) return false;
  return true;
}

function overlaps(a: TypedArray, aRange: [number, number], b: TypedArray, bRange: [number, number]): boolean {
  if (a.buffer !== b.buffer) return false;
  const aStart = a.byteOffset + aRange[0] * a.BYTES_PER_ELEMENT;
  const aEnd = a.byteOffset + aRange[1] * a.BYTES_PER_ELEMENT;
  const bStart = b.byteOffset + bRange[0] * b.BYTES_PER_ELEMENT;
  const bEnd = b.byteOffset + bRange[1] * b.BYTES_PER_ELEMENT;
  return aStart < bEnd && bStart < aEnd;
}

/** True when two views are the very same elements in the same places (copying is then a no-op). */
function sameView(a: StridedView, b: StridedView): boolean {
  return (
    a.data === b.data && a.offset === b.offset && a.shape.every((n, d) => n === 1 || a.strides[d] === b.strides[d])
  );
}

/** `view` copied to a fresh C-contiguous array of the same kind. */
function contiguousCopy<T extends TypedArray>(view: StridedView<T>, k: number): StridedView<T> {
  const count = view.shape.reduce((p, n) => p * n, 1);
  const Ctor = view.data.constructor as new (length: number) => T;
  const copy: StridedView<T> = {
    data: new Ctor(count * k),
    offset: 0,
    shape: view.shape,
    strides: stridesFor(view.shape, "C"),
  };
  const plan = simplify(view.shape, [copy.strides, view.strides]);
  stridedCopy(values(copy.data), 0, values(view.data), view.offset * k, plan, k);
  return copy;
}
