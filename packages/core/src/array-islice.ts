// `ZarrArray.islice`, loaded by its first call (a page reading arrays seldom uses it).
import { valuesPerElement, type TypedArray } from "@z/meta";
import type { ArrayFace } from "./array-internals.js";
import type { RunOptions } from "./concurrency.js";
import { ArgumentError } from "./errors.js";
import { product, type NdArray, type NdData } from "./nd-array.js";

/**
 * The items along the first dimension from `start` to `end`, as zarr-python's `islice`: each a
 * result of the remaining dimensions (shape `[]` for a 1-d array). Chunks along the first
 * dimension are read one block at a time, so memory stays one block.
 */
export async function* islice<T extends NdData = TypedArray>(
  array: ArrayFace,
  start: number,
  end: number | undefined,
  options: RunOptions,
): AsyncGenerator<NdArray<T>> {
  if (array.ndim === 0) throw new ArgumentError("a 0-d array cannot be iterated");
  const length = array.shape[0]!;
  const stop = Math.min(end ?? length, length);
  const step = array.chunks[0]!;
  for (let block = Math.max(0, start); block < stop; block = (Math.floor(block / step) + 1) * step) {
    const blockEnd = Math.min(stop, (Math.floor(block / step) + 1) * step);
    const rows = await array.get<NdData>([{ kind: "slice", start: block, stop: blockEnd, step: 1 }], options);
    const rowSize = product(rows.shape.slice(1)) * valuesPerElement(array.dtype);
    for (let i = 0; i < blockEnd - block; i++) {
      const data = (
        Array.isArray(rows.data)
          ? rows.data.slice(i * rowSize, (i + 1) * rowSize)
          : rows.data.subarray(i * rowSize, (i + 1) * rowSize)
      ) as T;
      yield { data, shape: rows.shape.slice(1), strides: rows.strides.slice(1), dtype: rows.dtype };
    }
  }
}
