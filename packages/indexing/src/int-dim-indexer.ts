import type { DimIndexer } from "./dim-indexer.js";
import { normalizeIntegerIndex } from "./integer-index.js";
import type { ChunkDimProjection } from "./projection.js";

/** One integer index in a dimension (zarr-python's `IntDimIndexer`): one item of one chunk, and the dimension is dropped. */
export class IntDimIndexer implements DimIndexer {
  /** The index, wrapped to be non-negative. */
  readonly index: number;
  readonly nitems = 1;
  readonly nchunks = 1;
  readonly dropsAxis = true;
  readonly #chunkLength: number;

  constructor(index: number, length: number, chunkLength: number, dim: number) {
    this.index = normalizeIntegerIndex(index, length, dim);
    this.#chunkLength = chunkLength;
  }

  *[Symbol.iterator](): Iterator<ChunkDimProjection> {
    const chunkIndex = Math.floor(this.index / this.#chunkLength);
    yield { chunkIndex, chunkSelection: this.index - chunkIndex * this.#chunkLength, outSelection: null };
  }
}
