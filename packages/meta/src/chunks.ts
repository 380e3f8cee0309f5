import { MetadataError } from "./errors.js";
import type { JsonValue } from "./json-value.js";
import { describeJson } from "./metadata-document.js";

/**
 * How a caller asks for chunks: `true`/`undefined` to guess, `false` for one chunk covering the
 * array, a number for the same length in every dimension, or a list whose missing trailing
 * dimensions, `null`s and `-1`s stand for the full length of the array.
 */
export type ChunksSpec = boolean | number | readonly (number | null)[] | undefined;

// The constants and the loop come from zarr-python 2.13 (`zarr.util.guess_chunks`, itself from
// h5py) and must stay as they are: arrays created with default chunks would otherwise differ.
const CHUNK_BASE = 256 * 1024;
const CHUNK_MIN = 128 * 1024;
const CHUNK_MAX = 64 * 1024 * 1024;

/**
 * zarr-python's chunk shape for an array of `shape` with `itemsize`-byte elements: halve the
 * dimensions in turn, first to last, until a chunk is near a target size that grows with the array
 * (between 128 KiB and 64 MiB).
 */
export function guessChunks(shape: readonly number[], itemsize: number): number[] {
  checkShape(shape);
  if (!Number.isSafeInteger(itemsize) || itemsize < 0) {
    throw new MetadataError(`itemsize must be a non-negative integer, found ${String(itemsize)}`);
  }
  const ndim = shape.length;
  // Floats as in NumPy, where the products are float64 too.
  const chunks = shape.map((length) => Math.max(length, 1));
  const elements = (): number => chunks.reduce((product, length) => product * length, 1);

  const datasetSize = elements() * itemsize;
  let target = CHUNK_BASE * 2 ** Math.log10(datasetSize / (1024 * 1024));
  if (target > CHUNK_MAX) target = CHUNK_MAX;
  else if (target < CHUNK_MIN) target = CHUNK_MIN;

  for (let i = 0; ; i++) {
    const chunkBytes = elements() * itemsize;
    const nearTarget = chunkBytes < target || Math.abs(chunkBytes - target) / target < 0.5;
    if (nearTarget && chunkBytes < CHUNK_MAX) break;
    // A single element bigger than CHUNK_MAX cannot be split further.
    if (elements() === 1) break;
    chunks[i % ndim] = Math.ceil(chunks[i % ndim]! / 2);
  }
  return chunks;
}

/**
 * The chunk shape zarr-python 2.13 (`zarr.util.normalize_chunks`) gives for `chunks`, checked:
 * every length must end up a positive integer and there may not be more lengths than dimensions.
 *
 * One deliberate difference: where zarr-python would copy a zero-length dimension into the chunk
 * shape (from `false`, `null`, `-1` or a missing trailing length) it writes a chunk length of 0,
 * an array that zarr-python itself then fails to read or write (division by zero); this uses 1.
 */
export function normalizeChunks(chunks: ChunksSpec, shape: readonly number[], itemsize: number): number[] {
  checkShape(shape);
  if (chunks === undefined || chunks === true) return guessChunks(shape, itemsize);
  const full = (dim: number): number => Math.max(shape[dim]!, 1);
  if (chunks === false) return shape.map((_, dim) => full(dim));

  const given: readonly (number | null)[] = typeof chunks === "number" ? shape.map(() => chunks) : chunks;
  if (given.length > shape.length) {
    throw chunksError(chunks, `at most ${shape.length} chunk lengths for an array of ${shape.length} dimensions`);
  }
  return shape.map((_, dim) => {
    const length = given[dim];
    if (length === undefined || length === null || length === -1) return full(dim);
    if (!Number.isSafeInteger(length) || length < 1) {
      throw chunksError(chunks, "positive integer chunk lengths (or -1/null for the full dimension)");
    }
    return length;
  });
}

function checkShape(shape: readonly number[]): void {
  if (!shape.every((length) => Number.isSafeInteger(length) && length >= 0)) {
    throw new MetadataError(
      `shape must be a list of non-negative integers, found ${describeJson(shape as JsonValue)}`,
      {
        field: "shape",
      },
    );
  }
}

function chunksError(chunks: ChunksSpec, expected: string): MetadataError {
  return new MetadataError(
    `Invalid chunks ${typeof chunks === "boolean" || chunks === undefined ? String(chunks) : describeJson(chunks as JsonValue)}: expected ${expected}`,
    { field: "chunks" },
  );
}
