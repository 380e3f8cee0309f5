/**
 * A read-only Zarr store over kerchunk / VirtualiZarr reference sets, as fsspec's
 * `ReferenceFileSystem` reads them: JSON (version 0 and 1, with templates and `gen` entries) and
 * Parquet (fsspec's `LazyReferenceMapper` layout, record files read when needed). NetCDF4 and HDF5
 * files in buckets, on HTTP servers or on disk open as Zarr, chunk by chunk with ranged reads.
 *
 * ```ts
 * // `files` is any store holding refs.json (a DirectoryStore, an HttpStore, ...): relative
 * // targets (`data.nc`) are read from it too
 * const store = await ReferenceStore.open(files, "refs.json");
 * const temp = await openArray(store, { path: "temp", mode: "r" }); // openArray of @z/core
 * ```
 *
 * Or through `openLocation("reference://https://host/refs.json")` of `@z/core/node`, or with
 * {@link referenceLocations} given to `@z/core`'s `openLocation`.
 *
 * @packageDocumentation
 */
export { ReferenceStore, type ReferenceStoreOptions } from "./reference-store.js";
export { JsonReferences, type JsonReferenceOptions } from "./json-references.js";
export { ParquetReferences, type ParquetReferenceOptions, type MissingRecords } from "./parquet-references.js";
export type { Reference, ReferenceSource } from "./reference.js";
export type { OpenTarget, ReferenceTarget } from "./targets.js";
export { ReferenceStoreError, type ReferenceErrorCode } from "./errors.js";
export { referenceLocations, locationTargets, type ReferenceLocationOptions } from "./locations.js";
export { referenceStoreDriver } from "./driver.js";
