import type { DimIndexer } from "./dim-indexer.js";
import { SelectionError } from "./errors.js";
import type { ChunkDimProjection, DimRange } from "./projection.js";
import { describe } from "./selection.js";
import { sliceIndices, sliceLength, type Slice } from "./slice.js";

/**
 * A slice in a dimension (zarr-python's `SliceDimIndexer`). Negative bounds wrap and bounds clamp
 * as Python's `slice.indices`. With a positive step, chunk selections are in zarr-python's form:
 * in a chunk after the first, the start is the first selected item in that chunk, and the stop is
 * the chunk's length or where the slice stops in it.
 *
 * A negative step (which zarr-python refuses) selects as numpy does, from `start` down towards
 * `stop`. Chunks are still visited in ascending order and each chunk's selection still ascends
 * (`{ start: lowest, stop: highest + 1, step: -step }`), so the whole of a chunk reads as a whole
 * chunk; the output range descends instead (`{ start: j, stop: i - 1, step: -1 }` for output
 * items `j` down to `i`, where `stop` is `-1` when `i` is 0).
 */
export class SliceDimIndexer implements DimIndexer {
  /**
   * The slice normalized to the dimension as Python's `slice.indices`: for a positive step
   * `0 <= start, stop <= length`; for a negative step `-1 <= start, stop <= length - 1`.
   */
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
        throw new SelectionError(
          `slice ${name} in dimension ${dim} must be an integer or null, got ${describe(value)}`,
          {
            dim,
          },
        );
      }
      return value;
    };
    const start = bound("start", selection.start);
    const stop = bound("stop", selection.stop);
    const step = bound("step", selection.step) ?? 1;
    if (step === 0) throw new SelectionError(`slice step cannot be zero (dimension ${dim})`, { dim });
    this.range = sliceIndices(start, stop, step, length);
    this.#length = length;
    this.#chunkLength = chunkLength;
    this.nitems = sliceLength(this.range.start, this.range.stop, step);
    const stride = Math.abs(step);
    if (this.nitems === 0) {
      this.nchunks = 0;
    } else if (stride >= chunkLength) {
      // Items at least a chunk apart each land in a different chunk.
      this.nchunks = this.nitems;
    } else {
      // Items closer than a chunk length leave no chunk between the first and the last one untouched.
      const last = this.range.start + (this.nitems - 1) * step;
      const [lo, hi] = step > 0 ? [this.range.start, last] : [last, this.range.start];
      this.nchunks = Math.floor(hi / chunkLength) - Math.floor(lo / chunkLength) + 1;
    }
  }

  *[Symbol.iterator](): Iterator<ChunkDimProjection> {
    if (this.nitems === 0) return;
    if (this.range.step < 0) {
      yield* this.#descending();
      return;
    }
    const { start, stop, step } = this.range;
    const c = this.#chunkLength;
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

  /** A negative step: output item `j` is `start + j * step`; walk from the lowest item (the last output item) up. */
  *#descending(): Generator<ChunkDimProjection> {
    const { start, step } = this.range;
    const stride = -step;
    const c = this.#chunkLength;
    let j = this.nitems - 1; // the output position of the lowest item not yet visited
    while (j >= 0) {
      const item = start + j * step;
      const chunkIndex = Math.floor(item / c);
      const offset = chunkIndex * c;
      const limit = Math.min(this.#length, offset + c);
      const count = Math.min(j + 1, Math.floor((limit - 1 - item) / stride) + 1);
      const local = item - offset;
      yield {
        chunkIndex,
        chunkSelection: { start: local, stop: local + (count - 1) * stride + 1, step: stride },
        outSelection: { start: j, stop: j - count, step: -1 },
      };
      j -= count;
    }
  }
}
