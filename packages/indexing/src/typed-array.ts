/**
 * The typed arrays element data lives in. Complex dtypes use a float array with 2 values per
 * element, raw byte dtypes a `Uint8Array` with `itemsize` values per element.
 */
export type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;
