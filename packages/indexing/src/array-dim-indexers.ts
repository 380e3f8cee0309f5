import type { OrthogonalDimIndexer } from "./dim-indexer.js";
import { SelectionError } from "./errors.js";
import { asRange, groupByKey, outPositions, type Groups } from "./group-by-key.js";
import { wrapAndCheck } from "./read-index-array.js";
import type { OrthogonalDimProjection } from "./projection.js";

/**
 * An integer array in one dimension of an orthogonal selection (zarr-python's
 * `IntArrayDimIndexer`): indices in any order, repeated or negative (wrapping once). Items are
 * grouped by chunk with a stable sort, so each chunk is visited once, in ascending order; within
 * a chunk, items keep the order given (a repeated index written twice is written last by its
 * last occurrence, as numpy). A chunk's selection is a range when its indices ascend evenly,
 * else a list; the output selection is a range when the chunk's items are consecutive in the
 * output, else a list of output positions.
 */
export class IntArrayDimIndexer implements OrthogonalDimIndexer {
  /** How many items are selected along the dimension. */
  readonly nitems: number;
  /** How many chunks along the dimension hold selected items. */
  readonly nchunks: number;
  /** Always false: arrays keep their dimension. */
  readonly dropsAxis = false;
  readonly #groups: Groups;
  /** Each item's index in its chunk, in group order. */
  readonly #local: Int32Array;

  /**
   * `indices` are not modified. Throws `BoundsError` for an index outside `-length … length - 1`.
   */
  constructor(indices: ArrayLike<number>, length: number, chunkLength: number, dim: number) {
    const values = Float64Array.from(indices);
    for (let i = 0; i < values.length; i++) {
      if (!Number.isInteger(values[i])) {
        throw new SelectionError(`index in dimension ${dim} must be an integer, got ${values[i]}`, { dim });
      }
    }
    wrapAndCheck(values, length, dim);
    const n = values.length;
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = Math.floor(values[i]! / chunkLength);
    const groups = groupByKey(keys, Math.ceil(length / chunkLength));
    const local = new Int32Array(n);
    const { order } = groups;
    for (let p = 0; p < n; p++) {
      const item = order === null ? p : order[p]!;
      local[p] = values[item]! - keys[item]! * chunkLength;
    }
    this.nitems = n;
    this.nchunks = groups.keys.length;
    this.#groups = groups;
    this.#local = local;
  }

  /** One projection per chunk holding selected items, in ascending order. */
  *[Symbol.iterator](): Iterator<OrthogonalDimProjection> {
    const { keys, starts, order } = this.#groups;
    for (let g = 0; g < keys.length; g++) {
      const from = starts[g]!;
      const to = starts[g + 1]!;
      yield {
        chunkIndex: keys[g]!,
        chunkSelection: asRange(this.#local.subarray(from, to)),
        outSelection: outPositions(order, from, to),
      };
    }
  }
}

/**
 * A Boolean mask in one dimension of an orthogonal selection (zarr-python's
 * `BoolArrayDimIndexer`): of the dimension's length; selects the indices where it is true, in
 * ascending order.
 */
export class BoolArrayDimIndexer implements OrthogonalDimIndexer {
  /** How many items are selected along the dimension. */
  readonly nitems: number;
  /** How many chunks along the dimension hold selected items. */
  readonly nchunks: number;
  /** Always false: arrays keep their dimension. */
  readonly dropsAxis = false;
  readonly #indices: IntArrayDimIndexer;

  /** `mask` holds booleans (or 0 and 1). Throws `SelectionError` when its length is not `length`. */
  constructor(mask: ArrayLike<boolean | number>, length: number, chunkLength: number, dim: number) {
    if (mask.length !== length) {
      throw new SelectionError(
        `Boolean array has the wrong length for dimension ${dim}; expected ${length}, got ${mask.length}`,
        { dim },
      );
    }
    let count = 0;
    for (let i = 0; i < mask.length; i++) if (mask[i]) count++;
    const indices = new Float64Array(count);
    for (let i = 0, at = 0; i < mask.length; i++) if (mask[i]) indices[at++] = i;
    this.#indices = new IntArrayDimIndexer(indices, length, chunkLength, dim);
    this.nitems = count;
    this.nchunks = this.#indices.nchunks;
  }

  /** One projection per chunk holding selected items, in ascending order. */
  [Symbol.iterator](): Iterator<OrthogonalDimProjection> {
    return this.#indices[Symbol.iterator]();
  }
}
