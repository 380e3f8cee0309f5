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

export function isSelectionArray(value: unknown): value is SelectionArray {
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

export const isInteger = (x: unknown): boolean =>
  (typeof x === "number" && Number.isInteger(x)) || typeof x === "bigint";

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

export function elementKind(value: SelectionArray): "int" | "bool" | "other" {
  const kind = value.dtype?.kind;
  if (kind !== undefined) return kind === "b" ? "bool" : kind === "i" || kind === "u" ? "int" : "other";
  const data = value.data;
  if (isIntegerTypedArray(data)) return "int";
  if (ArrayBuffer.isView(data)) return "other";
  if (data.length === 0) return "int";
  return typeof data[0] === "boolean" ? "bool" : isInteger(data[0]) ? "int" : "other";
}

export { cStrides } from "@z/meta";
