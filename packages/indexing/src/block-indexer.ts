import { checkGrid, productOf } from "./basic-indexer.js";
import { BoundsError, SelectionError } from "./errors.js";
import type { ChunkProjection, OrthogonalDimProjection } from "./projection.js";
import { describe, normalizeBasicSelection, type BasicSelection } from "./selection.js";
import { slice } from "./slice.js";
import { SliceDimIndexer } from "./slice-dim-indexer.js";

/**
 * A block selection (zarr-python's `BlockIndexer`, `z.blocks[...]`, zarr-python 2.14+): per
 * dimension an integer or a slice with step 1 over the chunk grid, selecting whole chunks (the
 * last one in a dimension as far as the array reaches). Integers keep their dimension, so
 * `shape` has one length per array dimension. As zarr-python, negative block indices and slice
 * bounds wrap once, a slice's stop past the last block clamps, and a selection that starts
 * outside the grid is refused with a `BoundsError` (even an empty slice such as `blocks[3:]` of
 * three blocks). Projections are basic ones (ranges).
 */
export class BlockIndexer implements Iterable<ChunkProjection> {
  /** The output's shape: for each dimension, the elements of the blocks selected (integers keep their dimension). */
  readonly shape: readonly number[];
  /** One slice indexer per dimension, over the elements of the blocks selected. */
  readonly dimIndexers: readonly SliceDimIndexer[];
  /** How many projections iteration yields (the blocks selected). */
  readonly nchunks: number;
  #projections: (readonly OrthogonalDimProjection[])[] | undefined;

  constructor(selection: BasicSelection, shape: readonly number[], chunks: readonly number[]) {
    checkGrid(shape, chunks);
    const items = normalizeBasicSelection(selection, shape);
    this.dimIndexers = items.map((item, dim) => {
      const length = shape[dim]!;
      const c = chunks[dim]!;
      const blocks = Math.ceil(length / c);
      const integer = (name: string, value: unknown): number => {
        if (typeof value !== "number" || !Number.isInteger(value)) {
          throw new SelectionError(`block ${name} in dimension ${dim} must be an integer, got ${describe(value)}`, {
            dim,
          });
        }
        return value;
      };
      let start: number;
      let stop: number;
      let given: number;
      if (typeof item === "number") {
        given = integer("index", item);
        const block = given < 0 ? blocks + given : given;
        start = block * c;
        stop = start + c;
      } else {
        if (item.step !== null && item.step !== 1) {
          throw new SelectionError(
            `unsupported selection item for block indexing in dimension ${dim}; expected an integer or a slice with step 1, got step ${describe(item.step)}`,
            { dim },
          );
        }
        given = item.start === null ? 0 : integer("slice start", item.start);
        const from = given < 0 ? blocks + given : given;
        const to0 = item.stop === null ? blocks : integer("slice stop", item.stop);
        const to = to0 < 0 ? blocks + to0 : to0;
        start = from * c;
        stop = to * c;
      }
      // zarr-python makes the element slice before checking where it starts.
      const indexer = new SliceDimIndexer(slice(start, stop), length, c, dim);
      if (start >= length || start < 0) {
        throw new BoundsError(
          `block ${given} is out of bounds for dimension ${dim} with ${blocks} block${blocks === 1 ? "" : "s"} (length ${length}, chunk length ${c})`,
          { dim, index: given, length: blocks },
        );
      }
      return indexer;
    });
    this.shape = this.dimIndexers.map((d) => d.nitems);
    this.nchunks = this.dimIndexers.reduce((n, d) => n * d.nchunks, 1);
  }

  /** The projections: one per chunk the selection touches, in C order of chunk coordinates. */
  [Symbol.iterator](): Iterator<ChunkProjection> {
    if (this.nchunks === 0) return [][Symbol.iterator]();
    const perDim = (this.#projections ??= this.dimIndexers.map((d) => [...d]));
    return productOf(perDim, undefined) as Iterator<ChunkProjection>;
  }
}
