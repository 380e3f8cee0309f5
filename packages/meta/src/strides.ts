// Strides of a contiguous array, the one definition every layer above uses (codecs' transpose,
// the indexing package's views and index arrays, core's results, spec's field views, xarray).

/** The strides (in elements) of a contiguous array of `shape` in C (row-major) or F (column-major) order. */
export function stridesFor(shape: readonly number[], order: "C" | "F"): number[] {
  const ndim = shape.length;
  const strides = new Array<number>(ndim);
  let stride = 1;
  for (let k = 0; k < ndim; k++) {
    const d = order === "C" ? ndim - 1 - k : k;
    strides[d] = stride;
    stride *= shape[d]!;
  }
  return strides;
}

/** The strides (in elements) of a contiguous array of `shape` in C (row-major) order. */
export const cStrides = (shape: readonly number[]): number[] => stridesFor(shape, "C");
