import type { ChunkDimProjection, OrthogonalDimProjection } from "./projection.js";

/**
 * Indexes one dimension: which chunks along it a selection touches, and for each, what to take
 * from the chunk and where it goes in the output. A multi-dimensional indexer combines one of
 * these per dimension. These yield ranges only (integers and slices); see
 * `OrthogonalDimIndexer` for index lists.
 */
export interface DimIndexer extends Iterable<ChunkDimProjection> {
  /** How many items are selected along the dimension. */
  readonly nitems: number;
  /** How many projections iteration yields (chunks touched), without iterating. */
  readonly nchunks: number;
  /** True when the dimension does not appear in the output (an integer index). */
  readonly dropsAxis: boolean;
}

/**
 * Indexes one dimension of an orthogonal selection: as `DimIndexer` (which every one is), but
 * selections may also be lists of indices (integer arrays, Boolean masks). Chunks are yielded in
 * ascending order, each at most once.
 */
export interface OrthogonalDimIndexer extends Iterable<OrthogonalDimProjection> {
  /** How many items are selected along the dimension. */
  readonly nitems: number;
  /** How many projections iteration yields (chunks touched), without iterating. */
  readonly nchunks: number;
  /** True when the dimension does not appear in the output (an integer index). */
  readonly dropsAxis: boolean;
}
