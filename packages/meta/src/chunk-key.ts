import type { DimensionSeparator } from "./array-metadata-model.js";

/**
 * The store key of a chunk, relative to its array: indices joined by the separator (`2.4`,
 * `2/4`). A 0-d array has a single chunk, which zarr-python stores under `0`.
 */
export function chunkKey(coords: readonly number[], separator: DimensionSeparator): string {
  return coords.length === 0 ? "0" : coords.join(separator);
}

const CANONICAL_INDEX = /^(?:0|[1-9][0-9]*)$/;

/**
 * The chunk indices a key names, or `undefined` when the key is not one `chunkKey` would write
 * for an array of `ndim` dimensions (other files, `01`, `1.`, `-1`, indices beyond 2^53), so that
 * counting initialized chunks skips whatever else lives under the array's prefix.
 */
export function parseChunkKey(key: string, ndim: number, separator: DimensionSeparator): number[] | undefined {
  if (ndim === 0) return key === "0" ? [] : undefined;
  const parts = key.split(separator);
  if (parts.length !== ndim) return undefined;
  const coords: number[] = [];
  for (const part of parts) {
    if (!CANONICAL_INDEX.test(part)) return undefined;
    const index = Number(part);
    if (!Number.isSafeInteger(index)) return undefined;
    coords.push(index);
  }
  return coords;
}
