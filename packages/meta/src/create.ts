/**
 * `@z/meta/create`: what making new metadata takes (chunk shapes guessed or normalised as
 * zarr-python does, fill values from what a user gives), also in `@z/meta`'s index. Importing them
 * from here keeps them out of what a page that only reads loads first (`@z/core` creates arrays in
 * modules it loads on demand; see create-constants.ts).
 *
 * @packageDocumentation
 */
export { guessChunks, normalizeChunks, type ChunksSpec } from "./chunks.js";
export { normalizeFillValue } from "./fill-value-normalize.js";
