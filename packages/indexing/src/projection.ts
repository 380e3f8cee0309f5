/**
 * An arithmetic range of indices: `start, start + step, …`, stopping before `stop`. As a Python
 * range, not a slice: nothing wraps. `step` is never 0; a negative step descends (its `stop` may
 * be `-1`, to end at index 0). Ranges in chunk selections always ascend; output ranges descend
 * for slices with a negative step.
 */
export interface DimRange {
  /** The first index. */
  readonly start: number;
  /** The bound the indices stay before (need not be `start + n * step`). */
  readonly stop: number;
  /** The distance between indices: positive to ascend, negative to descend. */
  readonly step: number;
}

/** A normalized selection in one dimension: a range, or an integer index that drops the dimension. */
export type DimSelection = DimRange | number;

/** How many items a range holds: `ceil((stop - start) / step)`, at least 0. */
export function rangeLength(range: DimRange): number {
  return Math.max(0, Math.ceil((range.stop - range.start) / range.step));
}

/**
 * A mapping from one chunk to the output of a basic (or block) selection (zarr-python's
 * `ChunkProjection`). For reads, the items at `chunkSelection` in the chunk go to `outSelection`
 * in the output; for writes, the other way round. Both sides are ranges, so each is a
 * `selectionView` and the copy is one `copyStrided`.
 */
export interface ChunkProjection {
  /** Absent (or `"basic"`) for these range-only projections; see `AnyChunkProjection`. */
  readonly kind?: "basic";
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

/**
 * What an orthogonal projection takes from a chunk along one dimension: an integer (the
 * dimension is dropped), a range, or a list of indices into the chunk's dimension in the order
 * they go to the output (any order, repeats allowed).
 */
export type OrthogonalDimSelection = number | DimRange | Int32Array;

/** Where an orthogonal projection's items go along one output dimension: a range or a list of output indices. */
export type OutDimSelection = DimRange | Int32Array;

/**
 * A mapping from one chunk to the output of an orthogonal selection (`oindex`): the outer
 * product of one selection per dimension, as numpy's `chunk[np.ix_(...)]`. Item `i` of output
 * dimension `j` comes from item `i` of the `j`-th chunk dimension that is not an integer.
 */
export interface OrthogonalChunkProjection {
  /** Tells these from the other projections. */
  readonly kind: "orthogonal";
  /** The chunk's coordinates in the chunk grid. */
  readonly chunkCoords: readonly number[];
  /** One entry per array dimension. */
  readonly chunkSelection: readonly OrthogonalDimSelection[];
  /** One entry per output dimension, of the same length as the matching chunk selection. */
  readonly outSelection: readonly OutDimSelection[];
}

/**
 * A mapping from one chunk to the output of a coordinate or mask selection (`vindex`): `count`
 * points, point `i` at `(chunkSelection[0][i], chunkSelection[1][i], …)` in the chunk and at
 * flat (C-order) index `outSelection[i]` (or `outSelection.start + i * outSelection.step`) of
 * the output, whatever the output's strides. Points are in the order the selection gives them,
 * so when two points are the same element the later one is written last (numpy's last write wins).
 */
export interface PointChunkProjection {
  /** Tells these from the other projections. */
  readonly kind: "points";
  /** The chunk's coordinates in the chunk grid. */
  readonly chunkCoords: readonly number[];
  /** How many points fall in the chunk. */
  readonly count: number;
  /** One list of `count` indices per array dimension. */
  readonly chunkSelection: readonly Int32Array[];
  /** The points' flat C-order indices in the output: a list of `count`, or a range of `count`. */
  readonly outSelection: Int32Array | DimRange;
}

/** A projection of any selection kind: what `copyProjection`, `fillProjection` and `coversChunk` take. */
export type AnyChunkProjection = ChunkProjection | OrthogonalChunkProjection | PointChunkProjection;

/**
 * A selection projected onto a chunk grid, of any kind: `shape` is the output's shape (and the
 * shape a written value is broadcast to), `nchunks` how many projections iteration yields (one per
 * chunk touched, each chunk at most once), in C order of chunk coordinates.
 */
export interface Indexer extends Iterable<AnyChunkProjection> {
  /** The output's shape. */
  readonly shape: readonly number[];
  /** How many projections iteration yields. */
  readonly nchunks: number;
}

/** A mapping from one chunk to the output along one dimension of an orthogonal selection. */
export interface OrthogonalDimProjection {
  /** The chunk's index along the dimension. */
  readonly chunkIndex: number;
  /** What to take from the chunk along the dimension. */
  readonly chunkSelection: OrthogonalDimSelection;
  /** `null` when the dimension is dropped (an integer). */
  readonly outSelection: OutDimSelection | null;
}
