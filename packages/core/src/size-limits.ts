import { MAX_CHUNK_BYTES, MAX_RESULT_LENGTH, TooLargeError } from "@z/meta";
import type { ArrayLayout } from "./array-layout.js";

/*
 * The checks of sizes computed from an array's metadata before anything that size is allocated
 * (see `MAX_CHUNK_BYTES` and `MAX_RESULT_LENGTH` in @z/meta). Opening an array never checks them:
 * zarr-python opens such arrays too, and fails on the read or write that would allocate.
 */

/**
 * Throws `TooLargeError` (field `chunks`) when one chunk of the array is more bytes than a chunk may
 * be: before a read or write that decodes, encodes or fills whole chunks.
 */
export function checkChunkSize(meta: Pick<ArrayLayout, "chunks" | "dtype">, key: string): void {
  const elements = meta.chunks.reduce((a, b) => a * b, 1);
  const bytes = elements * meta.dtype.itemsize;
  if (bytes <= MAX_CHUNK_BYTES) return;
  throw new TooLargeError(
    `${key}: a chunk of "chunks" [${meta.chunks.join(", ")}] of ${meta.dtype.itemsize}-byte items is ${exact(bytes)} bytes, ` +
      `more than the ${MAX_CHUNK_BYTES} bytes a chunk can have here (the largest buffer every codec handles)`,
    { key, field: "chunks", size: bytes, limit: MAX_CHUNK_BYTES },
  );
}

/**
 * Throws `TooLargeError` when a result of `shape` (a selection of the array at `key`) with
 * `valuesPer` values per element cannot be one typed array or JS array (zarr-python: "array is too
 * big"). `field` is `shape` when the selection is the whole array.
 */
export function checkResultSize(
  shape: readonly number[],
  valuesPer: number,
  key: string,
  arrayShape: readonly number[],
): void {
  const values = shape.reduce((a, b) => a * b, 1) * valuesPer;
  if (values <= MAX_RESULT_LENGTH) return;
  const whole = shape.length === arrayShape.length && shape.every((n, i) => n === arrayShape[i]);
  throw new TooLargeError(
    `${key}: a result of shape [${shape.join(", ")}]${whole ? ` (the whole "shape")` : ""} is ${exact(values)} values, ` +
      `more than the ${MAX_RESULT_LENGTH} one array can hold; read it in parts`,
    { key, field: whole ? "shape" : undefined, size: values, limit: MAX_RESULT_LENGTH },
  );
}

/**
 * `allocate()`, with a failure to allocate (the engine's limit, or memory) turned into a
 * `TooLargeError` naming what it was for.
 */
export function allocateResult<T>(allocate: () => T, bytes: number, key: string): T {
  try {
    return allocate();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new TooLargeError(
      `${key}: could not allocate a result of ${exact(bytes)} bytes (${error.message}); read it in parts`,
      {
        key,
        size: bytes,
        limit: MAX_RESULT_LENGTH,
        cause: error,
      },
    );
  }
}

/** A size as an exact integer where it is one (`70368744177664`, not `7.0368744177664e+13`). */
function exact(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : Number.isFinite(n) ? BigInt(n).toString() : String(n);
}
