/*
 * A bundler workaround (esbuild's code splitting), as @z/core's index-constants.ts: what making new
 * metadata takes, exported by `@z/meta`'s index as constants rather than re-exports. esbuild keeps
 * every module a page's first-loaded index re-exports in what that page loads first whenever any
 * lazily loaded module uses it, even one that imports it from elsewhere; an unused constant is left
 * out with its import. `@z/core`'s creation code (loaded on demand) imports these from
 * `@z/meta/create`, so a page that only reads loads none of them. The same functions.
 */
import type { ChunksSpec } from "./chunks.js";
import * as chunks from "./chunks.js";
import type { FillValue } from "./array-metadata-model.js";
import type { DataType } from "./dtype-model.js";
import * as fill from "./fill-value-normalize.js";

/** zarr-python's `guess_chunks`: chunks of about 1 MiB for `shape`, halving the largest dimensions in turn. */
export const guessChunks: (shape: readonly number[], itemsize: number) => number[] = chunks.guessChunks;
/**
 * The chunk shape of `create`'s `chunks` (zarr-python's `normalize_chunks`): `true`/omitted guessed,
 * `false` one chunk, a number for every dimension, `null`/-1 for a full dimension.
 */
export const normalizeChunks: (chunksSpec: ChunksSpec, shape: readonly number[], itemsize: number) => number[] =
  chunks.normalizeChunks;
/** A user's fill value for `dtype`, as zarr-python normalizes it (`0` to the dtype's zero, strings of floats, ...). */
export const normalizeFillValue: (value: unknown, dtype: DataType) => FillValue = fill.normalizeFillValue;
