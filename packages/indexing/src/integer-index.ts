import { BoundsError, SelectionError } from "./errors.js";
import { describe } from "./selection.js";

/**
 * zarr-python's `normalize_integer_selection`: an index into a dimension of `length`, with
 * negative indices counting from the end. Throws `BoundsError` when it falls outside the
 * dimension, `SelectionError` when it is not an integer.
 */
export function normalizeIntegerIndex(i: number, length: number, dim: number): number {
  if (typeof i !== "number" || !Number.isInteger(i)) {
    throw new SelectionError(`index in dimension ${dim} must be an integer, got ${describe(i)}`, { dim });
  }
  const wrapped = i < 0 ? i + length : i;
  if (wrapped < 0 || wrapped >= length) throw BoundsError.outOfBounds(i, length, dim);
  return wrapped + 0; // -0 becomes 0
}
