import { BoundsError, SelectionError } from "./errors.js";
import type { DimSelection } from "./projection.js";
import type { TypedArray } from "@z/meta";

/**
 * An N-d window on a typed array. `offset` and `strides` count elements, not values: with `k`
 * values per element (complex, raw bytes), the element at index `i` (a list of per-dimension
 * indices) occupies the values `k * (offset + Σ i[d] * strides[d])` and the `k - 1` after it.
 */
export interface StridedView<T extends TypedArray = TypedArray> {
  readonly data: T;
  readonly offset: number;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
}

export { stridesFor } from "@z/meta";

/**
 * The part of `base` a selection picks (a chunk or an output selection of a `ChunkProjection`):
 * an integer picks one index and drops the dimension, a range moves the offset to its start and
 * multiplies the stride by its step. Nothing is copied. Throws `BoundsError` when the selection
 * reaches outside `base`.
 */
export function selectionView<T extends TypedArray>(
  base: StridedView<T>,
  selection: readonly DimSelection[],
): StridedView<T> {
  if (selection.length !== base.shape.length) {
    throw new SelectionError(
      `a selection of ${selection.length} dimensions cannot apply to a view of shape [${base.shape.join(", ")}]`,
    );
  }
  let offset = base.offset;
  const shape: number[] = [];
  const strides: number[] = [];
  // Plain loops: this runs for every chunk a selection touches.
  for (let dim = 0; dim < selection.length; dim++) {
    const sel = selection[dim]!;
    const length = base.shape[dim]!;
    const stride = base.strides[dim]!;
    if (typeof sel === "number") {
      if (!Number.isInteger(sel) || sel < 0 || sel >= length) throw BoundsError.outOfBounds(sel, length, dim);
      offset += sel * stride;
      continue;
    }
    const { start, stop, step } = sel;
    if (!Number.isInteger(start) || !Number.isInteger(stop) || !Number.isInteger(step) || step === 0) {
      throw new SelectionError(
        `range ${start}:${stop}:${step} in dimension ${dim} must have integer bounds and a non-zero step`,
        { dim },
      );
    }
    const n = Math.max(0, Math.ceil((stop - start) / step));
    if (n > 0) {
      const last = start + (n - 1) * step;
      if (start < 0 || start >= length) throw BoundsError.outOfBounds(start, length, dim);
      if (last < 0 || last >= length) throw BoundsError.outOfBounds(last, length, dim);
      offset += start * stride;
    }
    shape.push(n);
    strides.push(stride * step);
  }
  return { data: base.data, offset, shape, strides };
}
