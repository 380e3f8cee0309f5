/**
 * The Zarr v2 metadata model (`.zarray`, `.zgroup`, `.zattrs`, v1 `meta`; dtypes, fill values, JSON as
 * Python writes it; paths and chunk keys), the contracts stores, byte sources and synchronizers
 * implement, and the errors every `@z` package throws (classes with a `code`). No I/O, no Node
 * built-ins. The store contract's test kit is `@z/meta/testing`.
 *
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./limits.js";
export { describeJson } from "./metadata-document.js";
export { guessChunks, normalizeChunks, normalizeFillValue } from "./create-constants.js";
export * from "./store.js";
export * from "./store-registry.js";
// Location strings (`data.zarr`, `s3://bucket/x.zarr|zarr3:a`, `reference://...`) and the stores
// they name, opened through the registry's drivers or the openers a caller passes.
export {
  describeLocationKind,
  openersFor,
  openLocation,
  parseLocation,
  withRegisteredOpeners,
  type Location,
  type LocationOptions,
  type OpenedLocation,
} from "./location.js";
export { LocationError } from "./location-error.js";
// The kvstore spec hook's contract and the spec errors; the JSON reader hooks use is in `@z/meta/spec`.
export type * from "./kvstore-spec.js";
export { SpecError, SpecUnsupportedError } from "./spec-errors.js";
export type { Members } from "./spec-json.js";
export { importOptional } from "./optional-import.js";
export * from "./dtype-model.js";
export * from "./json-value.js";
export * from "./array-metadata-model.js";
export * from "./json.js";
export * from "./path.js";
export * from "./chunk-key.js";
export type { ChunksSpec } from "./chunks.js";
export { gridCoords } from "./grid-coords.js";
export * from "./group-metadata.js";
export * from "./attributes.js";
export * from "./dtype.js";
export * from "./dtype-arrays.js";
export * from "./fill-value.js";
export * from "./array-metadata.js";
export * from "./v1-metadata.js";
export * from "./synchronizer.js";
// Generic stores and a lock shared between threads: for any user, over any other store.
export { MemoryStore } from "./memory-store.js";
export { LRUStoreCache } from "./lru-store-cache.js";
export { SharedSynchronizer } from "./shared-synchronizer.js";
// How readers treat a store's ranges and synchronous reads (`@z/core` reads chunks through these).
export { partsReader, readsWholeValues, servesRanges, syncRangeReader, syncValueReader } from "./store-ranges.js";
export * from "./byte-source.js";
export * from "./store-keys.js";
export { checkByteRange } from "./byte-range.js";
export { fixed1, humanSize, pythonBytesRepr, pythonStrRepr, pythonTupleRepr } from "./python-repr.js";
export { civilFromDays, daysFromCivil } from "./civil-days.js";
// For stores over a network (@z/store-http, @z/store-s3, a store of one's own): a concurrency
// bound and retries with backoff.
export { Semaphore } from "./semaphore.js";
export { parseRetryAfter, retryDelay, sleep } from "./retry.js";
export { roundToFloat16, float16Bits, float16FromBits } from "./float16.js";
export { cStrides, stridesFor } from "./strides.js";
export {
  EXTENSION_NAMES,
  decodeExtension,
  encodeExtension,
  isExtensionName,
  roundToExtension,
  type ExtensionName,
} from "./extension-dtypes.js";
// Zarr v3: the types of zarr.json documents here; the functions that read and write them are
// `@z/meta/v3`'s (see V3.md), so that a page reading v2 only loads none of them.
export type * from "./metadata-v3-model.js";
export type { DataTypeV3, DataTypeV3JSON } from "./dtype-v3.js";
export type { ChunkKeyEncodingV3 } from "./chunk-key-v3.js";
