import { ZarrError } from "@z/meta";

/**
 * An integer index (or a view's element) outside a dimension. zarr-python raises
 * `BoundsCheckError`, numpy `IndexError`; this names the dimension, the index and the length.
 */
export class BoundsError extends ZarrError {
  /** The dimension the index is for, when there is one. */
  readonly dim: number | undefined;
  /** The index as given (before negative indices wrap). */
  readonly index: number | undefined;
  /** The length of the dimension (or of the data a view reaches beyond). */
  readonly length: number | undefined;

  constructor(message: string, details: { dim?: number; index?: number; length?: number } = {}) {
    super("ZARR_BOUNDS", message);
    this.dim = details.dim;
    this.index = details.index;
    this.length = details.length;
  }

  /** The error for `index` outside dimension `dim` of `length`. */
  static outOfBounds(index: number, length: number, dim: number): BoundsError {
    return new BoundsError(`index ${index} is out of bounds for dimension ${dim} with length ${length}`, {
      dim,
      index,
      length,
    });
  }
}

/**
 * A selection that cannot be applied: too many indices, more than one ellipsis, a step below 1,
 * a non-integer number, or an item of an unsupported kind.
 */
export class SelectionError extends ZarrError {
  /** The dimension the problem is in, when one is to blame. */
  readonly dim: number | undefined;

  constructor(message: string, options: { dim?: number } = {}) {
    super("ZARR_SELECTION", message);
    this.dim = options.dim;
  }
}
