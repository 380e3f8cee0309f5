/*
 * Filling strided views with one element (a write of a scalar), a module of its own: reading
 * never loads it.
 */
import type { TypedArray } from "@z/meta";
import {
  bitsOf,
  checkValuesPerElement,
  odometer,
  simplify,
  valueRange,
  values,
  type Plan,
  type Values,
} from "./copy.js";
import { SelectionError } from "./errors.js";
import { describe } from "./selection.js";
import type { StridedView } from "./strided-view.js";

/**
 * Sets every element of `dst` to `value`: one number or bigint for all the element's values, or
 * `valuesPerElement` values (as a complex `[re, im]` or an element's bytes). Numbers are
 * converted to bigints for bigint arrays and back. A typed array of `dst`'s own type fills bit
 * for bit, as does a number into a float64 array (a float32 array rounds a number to float32).
 * Throws `BoundsError` when the view reaches outside its data, `SelectionError` when `value` has
 * the wrong number of values or cannot be converted.
 */
export function fillStrided<T extends TypedArray>(
  dst: StridedView<T>,
  value: number | bigint | ArrayLike<number | bigint>,
  valuesPerElement = 1,
): void {
  const k = checkValuesPerElement(valuesPerElement);
  const pattern = fillPattern(dst.data, value, k);
  if (valueRange(dst, k, "destination") === undefined) return;
  const plan = simplify(dst.shape, [dst.strides]);
  stridedFill(values(bitsOf(dst.data)), dst.offset * k, pattern, plan, k);
}

/** A fill's `k` values, as `fillPattern` gives them. */
export interface FillPattern {
  /** The values, as the kernels write them into `bitsOf(data)`. */
  readonly values: Values;
  /** Whether every value has the same bits (one `fill` then writes a run). */
  readonly uniform: boolean;
}

/**
 * The `k` values every element filled with `value` gets, converted for `data`'s kind (numbers or
 * bigints): `value` written into a typed array like `data` (a float64 keeps its NaN payload and
 * the sign of its zero, which a JS array of numbers need not), seen as `bitsOf` sees `data`. A
 * typed array `value` of `data`'s own kind is copied bit for bit.
 */
export function fillPattern(
  data: TypedArray,
  value: number | bigint | ArrayLike<number | bigint>,
  k: number,
): FillPattern {
  const bigints = data instanceof BigInt64Array || data instanceof BigUint64Array;
  if (typeof value !== "number" && typeof value !== "bigint" && value.length !== k) {
    throw new SelectionError(`a fill value for elements of ${k} values must have ${k} values, got ${value.length}`);
  }
  const at = (j: number): number | bigint =>
    convert(typeof value === "number" || typeof value === "bigint" ? value : value[j]!, bigints);
  if (!ArrayBuffer.isView(data)) {
    // Object arrays' plain arrays (see `Values`): a plain array of the values.
    const plain = Array.from({ length: k }, (_, j) => at(j));
    return { values: plain as unknown as Values, uniform: plain.every((v) => v === plain[0]) };
  }
  const Ctor = data.constructor as new (length: number) => TypedArray;
  const typed = new Ctor(k);
  const bits = values(bitsOf(typed));
  if (value instanceof Ctor) bits.set(values(bitsOf(value as TypedArray)));
  else for (let j = 0; j < k; j++) (typed as unknown as Values)[j] = at(j);
  return { values: bits, uniform: sameBytes(typed) };
}

/** Whether every element of `typed` has the bytes of its first. */
function sameBytes(typed: TypedArray): boolean {
  const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  const w = typed.BYTES_PER_ELEMENT;
  for (let i = w; i < bytes.length; i++) if (bytes[i] !== bytes[i % w]) return false;
  return true;
}

function stridedFill(dst: Values, dstStart: number, fill: FillPattern, plan: Plan, k: number): void {
  const { shape } = plan;
  const ndim = shape.length;
  const strides = plan.strides[0]!;
  const n = ndim === 0 ? 1 : shape[ndim - 1]!;
  const inner = ndim === 0 ? 1 : strides[ndim - 1]!;
  const step = inner * k;
  const pattern = fill.values;
  const first = pattern[0]!;
  const uniform = fill.uniform;

  const run = (dp: number): void => {
    if (inner === 1 && uniform) {
      dst.fill(first, dp, dp + n * k);
    } else if (inner === 1) {
      // Write one element, then double what is written until the run is full.
      for (let j = 0; j < k; j++) dst[dp + j] = pattern[j]!;
      const end = dp + n * k;
      for (let done = k; dp + done < end; done *= 2) dst.copyWithin(dp + done, dp, Math.min(dp + 2 * done, end) - done);
    } else if (k === 1) {
      for (let i = 0; i < n; i++, dp += step) dst[dp] = first;
    } else {
      for (let i = 0; i < n; i++, dp += step) {
        for (let j = 0; j < k; j++) dst[dp + j] = pattern[j]!;
      }
    }
  };

  odometer(shape, [strides], [dstStart], k, (positions) => run(positions[0]!));
}

function convert(value: number | bigint, bigints: boolean): number | bigint {
  if (typeof value === "bigint") return bigints ? value : Number(value);
  if (typeof value !== "number") {
    throw new SelectionError(`a fill value must be a number or a bigint, got ${describe(value)}`);
  }
  if (!bigints) return value;
  if (!Number.isInteger(value)) throw new SelectionError(`cannot fill a bigint array with ${describe(value)}`);
  return BigInt(value);
}
