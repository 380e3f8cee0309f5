import type { DataType, TypedArray } from "@z/meta";

/**
 * An N-dimensional result: `data` holds the elements in C order (little-endian, see `@z/meta`'s
 * `typedArrayConstructor` for the JS type of each dtype; for object arrays a JS array of values,
 * see `ObjectNdArray`), `strides` counts elements per step in each dimension. A 0-d result has
 * `shape` `[]` and one element.
 */
export interface NdArray<T extends NdData = TypedArray> {
  readonly data: T;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly dtype: DataType;
}

/** What the `data` of an `NdArray` can be: a typed array, or for object arrays a JS array. */
export type NdData = TypedArray | unknown[];

/**
 * What reading an object array (dtype `|O`) gives: `data` is a JS array of its values in C order
 * (strings for vlen-utf8, `Uint8Array`s for vlen-bytes, typed arrays for vlen-array, JSON values
 * for json2 and msgpack2). Read methods take the data type as a type argument:
 * `await z.get<unknown[]>()`.
 */
export type ObjectNdArray = NdArray<unknown[]>;

/** What a caller may pass as array data: `strides` default to C order. */
export interface NdArrayLike {
  readonly data: TypedArray | ArrayLike<number | bigint | boolean>;
  readonly shape: readonly number[];
  readonly strides?: readonly number[];
}

/** One element: a number, bigint or boolean, or for multi-value dtypes (complex, raw bytes) its values. */
export type Scalar = number | bigint | boolean | readonly (number | bigint)[];

export const product = (values: readonly number[]): number => values.reduce((a, b) => a * b, 1);

export { cStrides } from "@z/meta";
