/**
 * A Zarr store in a zip archive, read and written through a random-access byte source.
 *
 * ```ts
 * import { MemoryFile, ZipStore } from "@z/store-zip";
 *
 * const file = new MemoryFile();
 * const store = await ZipStore.open(file, { mode: "w" });
 * await store.set(".zgroup", new TextEncoder().encode('{"zarr_format": 2}'));
 * await store.close(); // writes the central directory: file.bytes() is now a zip
 *
 * // Reading a remote archive without downloading it (with @z/store-http):
 * // const remote = await ZipStore.open(new HttpByteSource("https://example.com/data.zarr.zip"));
 * ```
 *
 * Node-only file access is not here (this package runs in browsers too): pass any object with
 * `size`/`read` (and `write`/`truncate` to write) over a file handle.
 *
 * @packageDocumentation
 */
export { ZipStore, type ZipStoreOptions } from "./zip-store.js";
export { MemoryFile } from "./memory-file.js";
export {
  blobSource,
  bytesSource,
  isWritableSource,
  type ByteSource,
  type ByteSourceOptions,
  type WritableByteSource,
} from "./byte-source.js";
export type { ZipEntryInfo } from "./entry.js";
export { zipLocations } from "./locations.js";
export { zipStoreDriver } from "./driver.js";
export type { ZipKvStoreSpec } from "./kvstore-spec.js";
// The error a ZipStore throws (defined in @z/meta): a damaged archive, a refused key, a read-only store.
export { StoreError } from "@z/meta";
