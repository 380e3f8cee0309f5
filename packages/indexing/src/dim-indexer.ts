import type { ChunkDimProjection } from "./projection.js";

/**
 * Indexes one dimension: which chunks along it a selection touches, and for each, what to take
 * from the chunk and where it goes in the output. A multi-dimensional indexer combines one of
 * these per dimension; new kinds of selection (integer arrays, masks, negative steps) are new
 * implementations of this interface.
 */
export interface DimIndexer extends Iterable<ChunkDimProjection> {
  /** How many items are selected along the dimension. */
  readonly nitems: number;
  /** How many projections iteration yields (chunks touched), without iterating. */
  readonly nchunks: number;
  /** True when the dimension does not appear in the output (an integer index). */
  readonly dropsAxis: boolean;
}
