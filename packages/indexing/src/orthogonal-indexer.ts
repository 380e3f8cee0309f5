import { BoolArrayDimIndexer, IntArrayDimIndexer } from "./array-dim-indexers.js";
import { checkGrid, productOf } from "./basic-indexer.js";
import type { OrthogonalDimIndexer } from "./dim-indexer.js";
import { SelectionError } from "./errors.js";
import type { IndexArray } from "./index-array.js";
import { readIndexArray } from "./read-index-array.js";
import { IntDimIndexer } from "./int-dim-indexer.js";
import type { OrthogonalChunkProjection, OrthogonalDimProjection } from "./projection.js";
import { describe, expandSelection, selectionItems, type BasicSelectionItem } from "./selection.js";
import { isSlice } from "./slice.js";
import { SliceDimIndexer } from "./slice-dim-indexer.js";

/** One item of an orthogonal selection: a basic item, a 1-d integer array or a 1-d Boolean mask. */
export type OrthogonalSelectionItem = BasicSelectionItem | IndexArray;

/**
 * An orthogonal selection: one item per leading dimension (a list; `ELLIPSIS` and missing
 * trailing items are full slices), one item, or `undefined` for everything. A list is always the
 * list of items: to select indices 0 and 2 of the first dimension write `[[0, 2]]` (or pass an
 * `Int32Array`).
 */
export type OrthogonalSelection = OrthogonalSelectionItem | readonly OrthogonalSelectionItem[] | undefined;

/**
 * An orthogonal selection (zarr-python's `OrthogonalIndexer`, `z.oindex[...]`): per dimension an
 * integer (dropping it), a slice (any non-zero step), a 1-d integer array (any order, repeats,
 * negative indices) or a 1-d Boolean mask of the dimension's length. The output is numpy's
 * `a[np.ix_(...)]` with integer dimensions dropped: `shape` has, for every dimension not
 * dropped, the number of items selected, in the order given. Every index is checked when the
 * indexer is made.
 */
export class OrthogonalIndexer implements Iterable<OrthogonalChunkProjection> {
  /** The output's shape: one length per dimension not dropped by an integer, the number of items selected in it. */
  readonly shape: readonly number[];
  /** The array dimensions that integer indices drop from the output, ascending. */
  readonly dropAxes: readonly number[];
  /** One indexer per array dimension. */
  readonly dimIndexers: readonly OrthogonalDimIndexer[];
  /** How many projections iteration yields: the product of the chunks each dimension touches. */
  readonly nchunks: number;
  #projections: (readonly OrthogonalDimProjection[])[] | undefined;

  constructor(selection: OrthogonalSelection, shape: readonly number[], chunks: readonly number[]) {
    checkGrid(shape, chunks);
    const items = expandSelection(selectionItems(selection), shape);
    this.dimIndexers = items.map((item, dim) => orthogonalDimIndexer(item, shape[dim]!, chunks[dim]!, dim));
    this.shape = this.dimIndexers.filter((d) => !d.dropsAxis).map((d) => d.nitems);
    this.dropAxes = this.dimIndexers.flatMap((d, dim) => (d.dropsAxis ? [dim] : []));
    this.nchunks = this.dimIndexers.reduce((n, d) => n * d.nchunks, 1);
  }

  /** The projections: one per chunk the selection touches, in C order of chunk coordinates. */
  [Symbol.iterator](): Iterator<OrthogonalChunkProjection> {
    if (this.nchunks === 0) return [][Symbol.iterator]();
    const perDim = (this.#projections ??= this.dimIndexers.map((d) => [...d]));
    return productOf(perDim, "orthogonal") as Iterator<OrthogonalChunkProjection>;
  }
}

function orthogonalDimIndexer(item: unknown, length: number, chunkLength: number, dim: number): OrthogonalDimIndexer {
  if (typeof item === "number") return new IntDimIndexer(item, length, chunkLength, dim);
  if (isSlice(item)) return new SliceDimIndexer(item, length, chunkLength, dim);
  const array = readIndexArray(item, dim);
  if (array === undefined) {
    throw new SelectionError(
      `unsupported selection item for orthogonal indexing in dimension ${dim}; expected an integer, a slice, an integer array or a Boolean array, got ${describe(item)}`,
      { dim },
    );
  }
  if (array.shape.length !== 1) {
    const what = array.kind === "bool" ? "Boolean arrays" : "integer arrays";
    throw new SelectionError(
      `${what} in an orthogonal selection must be 1-dimensional only (dimension ${dim} has one of shape [${array.shape.join(", ")}])`,
      { dim },
    );
  }
  return array.kind === "bool"
    ? new BoolArrayDimIndexer(array.values, length, chunkLength, dim)
    : new IntArrayDimIndexer(array.values, length, chunkLength, dim);
}
