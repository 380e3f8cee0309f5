/** A range `start, start + step, …` below `stop`, with `step >= 1` (as a Python slice after `indices`). */
export interface DimRange {
  /** The first index. */
  readonly start: number;
  /** The bound the indices stay below (need not be `start + n * step`). */
  readonly stop: number;
  /** The distance between indices, at least 1. */
  readonly step: number;
}

/** A normalized selection in one dimension: a range, or an integer index that drops the dimension. */
export type DimSelection = DimRange | number;

/** How many items a range holds: `ceil((stop - start) / step)`, at least 0. */
export function rangeLength(range: DimRange): number {
  return Math.max(0, Math.ceil((range.stop - range.start) / range.step));
}

/**
 * A mapping from one chunk to the output of a selection (zarr-python's `ChunkProjection`). For
 * reads, the items at `chunkSelection` in the chunk go to `outSelection` in the output; for writes,
 * the other way round.
 */
export interface ChunkProjection {
  /** The chunk's coordinates in the chunk grid. */
  readonly chunkCoords: readonly number[];
  /** What to take from the chunk, one entry per array dimension (integer indices stay integers). */
  readonly chunkSelection: readonly DimSelection[];
  /** Where it goes in the output, one range per output dimension (dimensions dropped by integers are left out). */
  readonly outSelection: readonly DimRange[];
}

/** A mapping from one chunk to the output in a single dimension (zarr-python's `ChunkDimProjection`). */
export interface ChunkDimProjection {
  /** The chunk's index along the dimension. */
  readonly chunkIndex: number;
  /** What to take from the chunk along the dimension. */
  readonly chunkSelection: DimSelection;
  /** Where it goes in the output along the dimension, or `null` when the dimension is dropped. */
  readonly outSelection: DimRange | null;
}
