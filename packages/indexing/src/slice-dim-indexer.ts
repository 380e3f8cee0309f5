import type { DimIndexer } from "./dim-indexer.js";
import { SelectionError } from "./errors.js";
import type { ChunkDimProjection, DimRange } from "./projection.js";
import { describe } from "./selection.js";
import { sliceIndices, type Slice } from "./slice.js";

/**
 * A slice in a dimension (zarr-python's `SliceDimIndexer`). Negative bounds wrap and bounds clamp
 * as Python's `slice.indices`; the step must be at least 1. Chunk selections are in zarr-python's
 * form: in a chunk after the first, the start is the first selected item in that chunk, and the
 * stop is the chunk's length or where the slice stops in it.
 */
export class SliceDimIndexer implements DimIndexer {
  /** The slice normalized to the dimension: `0 <= start, stop <= length`, `step >= 1`. */
  readonly range: DimRange;
  readonly nitems: number;
  readonly nchunks: number;
  readonly dropsAxis = false;
  readonly #length: number;
  readonly #chunkLength: number;

  constructor(selection: Slice, length: number, chunkLength: number, dim: number) {
    const bound = (name: string, value: number | null | undefined): number | null => {
      if (value === null || value === undefined) return null;
      if (typeof value !== "number" || !Number.isInteger(value)) {
        throw new SelectionError(`slice ${name} in dimension ${dim} must be an integer or null, got ${describe(value)}`, {
          dim,
        });
      }
      return value;
    };
    const start = bound("start", selection.start);
    const stop = bound("stop", selection.stop);
    const step = bound("step", selection.step) ?? 1;
    if (step < 1) {
      throw new SelectionError(`negative or zero step not supported (step ${step} in dimension ${dim})`, { dim });
    }
    this.range = sliceIndices(start, stop, step, length);
    this.#length = length;
    this.#chunkLength = chunkLength;
    const { start: first, stop: end } = this.range;
    this.nitems = Math.max(0, Math.ceil((end - first) / step));
    if (this.nitems === 0) {
      this.nchunks = 0;
    } else if (step >= chunkLength) {
      // Items at least a chunk apart each land in a different chunk.
      this.nchunks = this.nitems;
    } else {
      // Items closer than a chunk length leave no chunk between the first and the last one untouched.
      const last = first + (this.nitems - 1) * step;
      this.nchunks = Math.floor(last / chunkLength) - Math.floor(first / chunkLength) + 1;
    }
  }

  *[Symbol.iterator](): Iterator<ChunkDimProjection> {
    const { start, stop, step } = this.range;
    const c = this.#chunkLength;
    if (this.nitems === 0) return;
    const last = start + (this.nitems - 1) * step;
    // Visit only the chunks that hold selected items: from the chunk of `item`, jump to the chunk
    // of the first item past it. zarr-python visits every chunk in between and skips empty ones;
    // the projections are the same.
    let item = start;
    let outOffset = 0;
    while (item <= last) {
      const chunkIndex = Math.floor(item / c);
      const offset = chunkIndex * c;
      const limit = Math.min(this.#length, offset + c);
      const chunkStart = item - offset;
      const chunkStop = stop > limit ? limit - offset : stop - offset;
      const count = Math.ceil((chunkStop - chunkStart) / step);
      yield {
        chunkIndex,
        chunkSelection: { start: chunkStart, stop: chunkStop, step },
        outSelection: { start: outOffset, stop: outOffset + count, step: 1 },
      };
      outOffset += count;
      item += count * step;
    }
  }
}
