import { MetadataError } from "@z/meta";
import type { DimIndexer } from "./dim-indexer.js";
import { IntDimIndexer } from "./int-dim-indexer.js";
import type { ChunkProjection, OrthogonalDimProjection } from "./projection.js";
import { normalizeBasicSelection, type BasicSelection } from "./selection.js";
import { SliceDimIndexer } from "./slice-dim-indexer.js";

/**
 * A basic selection (integers, slices with any non-zero step, `null`, `ELLIPSIS`) on an array of
 * `shape` split into `chunks`, projected onto the chunk grid as zarr-python's `BasicIndexer`:
 * iterating yields, for every chunk the selection touches, in C order of chunk coordinates, what
 * to take from the chunk and where it goes in the output. Negative steps (which zarr-python
 * refuses) select as numpy does; see `SliceDimIndexer`.
 */
export class BasicIndexer implements Iterable<ChunkProjection> {
  /** The shape of the output: one length per dimension not dropped by an integer index. */
  readonly shape: readonly number[];
  /** The array dimensions that integer indices drop from the output, ascending. */
  readonly dropAxes: readonly number[];
  /** One indexer per array dimension. */
  readonly dimIndexers: readonly DimIndexer[];
  /** How many projections iteration yields (0 when the selection is empty). */
  readonly nchunks: number;
  #projections: (readonly OrthogonalDimProjection[])[] | undefined;

  constructor(selection: BasicSelection, shape: readonly number[], chunks: readonly number[]) {
    checkGrid(shape, chunks);
    const items = normalizeBasicSelection(selection, shape);
    this.dimIndexers = items.map((item, dim) =>
      typeof item === "number"
        ? new IntDimIndexer(item, shape[dim]!, chunks[dim]!, dim)
        : new SliceDimIndexer(item, shape[dim]!, chunks[dim]!, dim),
    );
    this.shape = this.dimIndexers.filter((d) => !d.dropsAxis).map((d) => d.nitems);
    this.dropAxes = this.dimIndexers.flatMap((d, dim) => (d.dropsAxis ? [dim] : []));
    this.nchunks = this.dimIndexers.reduce((n, d) => n * d.nchunks, 1);
  }

  /** The projections: one per chunk the selection touches, in C order of chunk coordinates. */
  [Symbol.iterator](): Iterator<ChunkProjection> {
    if (this.nchunks === 0) return [][Symbol.iterator]();
    const perDim = (this.#projections ??= this.dimIndexers.map((d) => [...d]));
    return productOf(perDim, undefined) as Iterator<ChunkProjection>;
  }
}

/** A projection assembled from one per-dimension projection each, with `kind` when given. */
export interface AssembledProjection {
  readonly kind?: "orthogonal";
  readonly chunkCoords: number[];
  readonly chunkSelection: OrthogonalDimProjection["chunkSelection"][];
  readonly outSelection: NonNullable<OrthogonalDimProjection["outSelection"]>[];
}

/**
 * Every combination of one projection per dimension (itertools.product), the last dimension
 * fastest. Each dimension's projections are few (at most its chunks); the product is walked
 * lazily with an odometer.
 */
export function* productOf(
  perDim: readonly (readonly OrthogonalDimProjection[])[],
  kind: "orthogonal" | undefined,
): Generator<AssembledProjection> {
  const ndim = perDim.length;
  if (perDim.some((p) => p.length === 0)) return;
  const at = new Array<number>(ndim).fill(0);
  for (;;) {
    const chunkCoords: number[] = [];
    const chunkSelection: OrthogonalDimProjection["chunkSelection"][] = [];
    const outSelection: NonNullable<OrthogonalDimProjection["outSelection"]>[] = [];
    for (let d = 0; d < ndim; d++) {
      const p = perDim[d]![at[d]!]!;
      chunkCoords.push(p.chunkIndex);
      chunkSelection.push(p.chunkSelection);
      if (p.outSelection !== null) outSelection.push(p.outSelection);
    }
    yield kind === undefined
      ? { chunkCoords, chunkSelection, outSelection }
      : { kind, chunkCoords, chunkSelection, outSelection };
    let d = ndim - 1;
    while (d >= 0 && ++at[d]! === perDim[d]!.length) at[d--] = 0;
    if (d < 0) return;
  }
}

/** A list of lengths for an error message, whatever it holds (bigints, nested lists): never throws. */
function lengths(value: unknown): string {
  const text = Array.isArray(value)
    ? `[${value.map((v) => (Array.isArray(v) ? "[...]" : String(v))).join(", ")}]`
    : String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

export function checkGrid(shape: readonly number[], chunks: readonly number[]): void {
  if (!Array.isArray(shape) || !shape.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new MetadataError(`shape must be a list of non-negative integers, found ${lengths(shape)}`, {
      field: "shape",
    });
  }
  if (
    !Array.isArray(chunks) ||
    chunks.length !== shape.length ||
    !chunks.every((n) => Number.isSafeInteger(n) && n >= 1)
  ) {
    throw new MetadataError(
      `chunks must be a list of ${shape.length} positive integers (one per dimension of shape ${lengths(shape)}), found ${lengths(chunks)}`,
      { field: "chunks" },
    );
  }
}
