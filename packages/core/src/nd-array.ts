import type { DataType, TypedArray } from "@z/meta";

/**
 * An N-dimensional result: `data` holds the elements in C order (little-endian, see `@z/meta`'s
 * `typedArrayConstructor` for the JS type of each dtype), `strides` counts elements per step in
 * each dimension. A 0-d result has `shape` `[]` and one element.
 */
export interface NdArray<T extends TypedArray = TypedArray> {
  readonly data: T;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly dtype: DataType;
}

/** What a caller may pass as array data: `strides` default to C order. */
export interface NdArrayLike {
  readonly data: TypedArray | ArrayLike<number | bigint | boolean>;
  readonly shape: readonly number[];
  readonly strides?: readonly number[];
}

/** One element: a number, bigint or boolean, or for multi-value dtypes (complex, raw bytes) its values. */
export type Scalar = number | bigint | boolean | readonly (number | bigint)[];

export const product = (values: readonly number[]): number => values.reduce((a, b) => a * b, 1);

export function cStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let stride = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides[i] = stride;
    stride *= shape[i]!;
  }
  return strides;
}
