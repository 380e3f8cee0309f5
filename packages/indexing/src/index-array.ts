import { BoundsError, SelectionError } from "./errors.js";
import { describe } from "./selection.js";

/** The typed arrays numpy would call integer arrays (1-d index arrays). */
export type IntegerTypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array;

/** A JS list as Python's list in a selection: integers (an index list) or booleans (a mask), nested for N-d. */
export type NestedList = readonly (number | bigint | boolean | NestedList)[];

/**
 * An N-d array as numpy's `ndarray` in a selection: elements in C order (or by `strides`, in
 * elements), integers (an index array) or booleans (a mask). Elements are booleans when
 * `dtype.kind` is `"b"` (as in an array read from a Boolean zarr array) or when `data` holds JS
 * booleans; integers when the kind is `"i"`/`"u"` or the data are integer numbers or bigints.
 */
export interface SelectionArray {
  /** The elements: JS numbers, bigints or booleans, or a typed array. */
  readonly data: ArrayLike<number | bigint | boolean>;
  /** The array's shape (`[]` for one element). */
  readonly shape: readonly number[];
  /** Elements per step in each dimension (default: C order). */
  readonly strides?: readonly number[];
  /** A numpy-like dtype kind: `"b"` Boolean, `"i"`/`"u"` integer; any other kind is refused. */
  readonly dtype?: { readonly kind: string };
}

/**
 * An index array or mask: a JS list (`[0, 2, -1]`, `[true, false]`, nested for N-d), an integer
 * typed array (1-d), or a `SelectionArray`. Float typed arrays and float data are refused, as
 * numpy refuses float index arrays.
 */
export type IndexArray = NestedList | IntegerTypedArray | SelectionArray;

/**
 * An index array read into numbers, in C order: integers (any value, not yet checked against a
 * dimension), or booleans as bytes (non-zero for true).
 */
export type ReadArray =
  | { readonly kind: "int"; readonly shape: number[]; readonly values: Float64Array; readonly list: boolean }
  | { readonly kind: "bool"; readonly shape: number[]; readonly values: Uint8Array; readonly list: boolean };

const INTEGER_TYPED = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  BigInt64Array,
  BigUint64Array,
];

export function isIntegerTypedArray(value: unknown): value is IntegerTypedArray {
  return INTEGER_TYPED.some((C) => value instanceof C);
}

function isSelectionArray(value: unknown): value is SelectionArray {
  return (
    typeof value === "object" &&
    value !== null &&
    !ArrayBuffer.isView(value) &&
    !Array.isArray(value) &&
    "data" in value &&
    "shape" in value
  );
}

/** True for anything read as an array in a selection (a list, a typed array, a `SelectionArray`). */
export function isArrayItem(value: unknown): boolean {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)) || isSelectionArray(value);
}

const isInteger = (x: unknown): boolean => (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint";

/** Python's `is_integer_list`: a non-empty list whose first item is an integer (or a boolean, which Python counts as one). */
export function isIntegerList(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && (isInteger(value[0]) || typeof value[0] === "boolean");
}

/** Python's `is_integer_array`: an array (not a list) of integers, of `ndim` dimensions when given. */
export function isIntegerArray(value: unknown, ndim?: number): boolean {
  if (isIntegerTypedArray(value)) return ndim === undefined || ndim === 1;
  if (!isSelectionArray(value)) return false;
  return elementKind(value) === "int" && (ndim === undefined || value.shape.length === ndim);
}

/** Python's `is_bool_array`: an array (not a list) of booleans. */
export function isBoolArray(value: unknown, ndim?: number): boolean {
  return (
    isSelectionArray(value) && elementKind(value) === "bool" && (ndim === undefined || value.shape.length === ndim)
  );
}

function elementKind(value: SelectionArray): "int" | "bool" | "other" {
  const kind = value.dtype?.kind;
  if (kind !== undefined) return kind === "b" ? "bool" : kind === "i" || kind === "u" ? "int" : "other";
  const data = value.data;
  if (isIntegerTypedArray(data)) return "int";
  if (ArrayBuffer.isView(data)) return "other";
  if (data.length === 0) return "int";
  return typeof data[0] === "boolean" ? "bool" : isInteger(data[0]) ? "int" : "other";
}

/**
 * Reads an array item of a selection (what Python's `replace_lists` and `np.asarray` make of it)
 * for dimension `dim` (for messages). Returns undefined when `item` is not an array. Throws
 * `SelectionError` for float or mixed elements, ragged lists and malformed arrays.
 */
export function readIndexArray(item: unknown, dim: number | undefined): ReadArray | undefined {
  const where = dim === undefined ? "" : ` in dimension ${dim}`;
  const fail = (why: string): never => {
    throw new SelectionError(`${why}${where}; got ${describe(item)}`, dim === undefined ? {} : { dim });
  };
  if (Array.isArray(item)) {
    const shape: number[] = [];
    for (let level: unknown = item; Array.isArray(level); level = level[0]) {
      shape.push(level.length);
      if (level.length === 0) break;
    }
    const size = shape.reduce((p, n) => p * n, 1);
    const values = new Float64Array(size);
    let kind: "int" | "bool" | undefined;
    let at = 0;
    const walk = (list: readonly unknown[], depth: number): void => {
      if (list.length !== shape[depth]) fail("index lists must be rectangular (not ragged)");
      for (const x of list) {
        if (depth < shape.length - 1) {
          if (!Array.isArray(x)) fail("index lists must be rectangular (not ragged)");
          walk(x as readonly unknown[], depth + 1);
          continue;
        }
        if (Array.isArray(x)) fail("index lists must be rectangular (not ragged)");
        const k = typeof x === "boolean" ? "bool" : isInteger(x) ? "int" : undefined;
        if (k === undefined) fail("arrays used as indices must be of integer (or boolean) type");
        // numpy makes a list of integers and booleans an integer array
        if (kind === undefined || (kind === "bool" && k === "int")) kind = k;
        values[at++] = toNumber(x as number | bigint | boolean, dim);
      }
    };
    walk(item, 0);
    // An empty list is an empty integer index list (numpy's `a[[]]`).
    if (kind === "bool") return { kind, shape, values: Uint8Array.from(values), list: true };
    return { kind: "int", shape, values, list: true };
  }
  if (ArrayBuffer.isView(item) && !(item instanceof DataView)) {
    if (!isIntegerTypedArray(item)) fail("arrays used as indices must be of integer (or boolean) type");
    const data = item as IntegerTypedArray;
    const values = new Float64Array(data.length);
    for (let i = 0; i < data.length; i++) values[i] = toNumber(data[i]!, dim);
    return { kind: "int", shape: [data.length], values, list: false };
  }
  if (!isSelectionArray(item)) return undefined;
  const shape = [...item.shape];
  if (!shape.every((n) => Number.isSafeInteger(n) && n >= 0)) fail("an array's shape must be non-negative integers");
  const found = elementKind(item);
  if (found === "other") fail("arrays used as indices must be of integer (or boolean) type");
  const kind = found as "int" | "bool";
  const size = shape.reduce((p, n) => p * n, 1);
  const strides = item.strides ?? cStrides(shape);
  if (strides.length !== shape.length) fail("an array needs one stride per dimension");
  const data = item.data;
  const c = cStrides(shape);
  const contiguous = size === 0 || shape.every((n, d) => n === 1 || strides[d] === c[d]);
  if (contiguous && data.length < size) fail("an array's data must hold every element of its shape");
  // Fast paths for C-contiguous typed data.
  if (contiguous && kind === "bool" && (data instanceof Uint8Array || data instanceof Int8Array)) {
    return { kind, shape, values: new Uint8Array(data.buffer, data.byteOffset, size), list: false };
  }
  if (
    contiguous &&
    kind === "int" &&
    isIntegerTypedArray(data) &&
    !(data instanceof BigInt64Array || data instanceof BigUint64Array)
  ) {
    return {
      kind,
      shape,
      values: Float64Array.from((data as IntegerTypedArray as Int32Array).subarray(0, size)),
      list: false,
    };
  }
  const bools = kind === "bool" ? new Uint8Array(size) : undefined;
  const ints = kind === "int" ? new Float64Array(size) : undefined;
  const index = new Array<number>(shape.length).fill(0);
  let offset = 0;
  for (let i = 0; i < size; i++) {
    const x = data[offset];
    if (x === undefined) fail("an array's data must hold every element its shape and strides reach");
    if (bools !== undefined) {
      if (typeof x === "boolean") bools[i] = x ? 1 : 0;
      else if (x === 0 || x === 1 || x === 0n || x === 1n) bools[i] = Number(x);
      else fail("Boolean arrays must hold booleans (or 0 and 1)");
    } else {
      if (!isInteger(x)) fail("arrays used as indices must be of integer (or boolean) type");
      ints![i] = toNumber(x as number | bigint, dim);
    }
    for (let d = shape.length - 1; d >= 0; d--) {
      offset += strides[d]!;
      if (++index[d]! < shape[d]!) break;
      offset -= strides[d]! * shape[d]!;
      index[d] = 0;
    }
  }
  return bools !== undefined
    ? { kind: "bool", shape, values: bools, list: false }
    : { kind: "int", shape, values: ints!, list: false };
}

function toNumber(x: number | bigint | boolean, dim: number | undefined): number {
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "number") return x + 0; // -0 is 0
  const n = Number(x);
  if (!Number.isSafeInteger(n)) {
    throw new BoundsError(`index ${x} is out of bounds${dim === undefined ? "" : ` for dimension ${dim}`}`, {
      ...(dim === undefined ? {} : { dim }),
      index: n,
    });
  }
  return n;
}

export function cStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let stride = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = stride;
    stride *= shape[d]!;
  }
  return strides;
}

/**
 * Wraps negative indices once and checks every index against `length`, in place (zarr-python's
 * `wraparound_indices` and `boundscheck_indices`). Throws a `BoundsError` naming the first index
 * (as given) outside the dimension.
 */
export function wrapAndCheck(values: Float64Array, length: number, dim: number): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const w = v < 0 ? v + length : v;
    if (w < 0 || w >= length) throw BoundsError.outOfBounds(v, length, dim);
    values[i] = w;
  }
}
