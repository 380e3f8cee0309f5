/**
 * Stores on the local file system (Node): `DirectoryStore` and `NestedDirectoryStore` (atomic
 * writes, keys as zarr-python's stores lay them out), `TempStore`, `FileLockSynchronizer`,
 * `fileByteSource` (a local file for `@z/store-zip`), and the clean-up of temporary files that
 * killed writes leave behind.
 *
 * @packageDocumentation
 */
export { DirectoryStore, type DirectoryStoreOptions } from "./directory-store.js";
export { NestedDirectoryStore, type NestedDirectoryStoreOptions } from "./nested-directory-store.js";
export { TempStore, type TempStoreOptions } from "./temp-store.js";
export type { StoreFileSystem } from "./file-system.js";
export { FileLockSynchronizer, type FileLockOptions } from "./file-lock-synchronizer.js";
export { fileByteSource, type FileByteSource, type FileByteSourceOptions } from "./file-byte-source.js";
export { findTemporaryFiles, isTemporaryFile, removeTemporaryFile, type TemporaryFile } from "./atomic-write.js";
export { fsLocations } from "./locations.js";
export { fsStoreDriver } from "./driver.js";
export type { FileKvStoreSpec } from "./kvstore-spec.js";
// The error these stores throw (defined in @z/meta): I/O failures and refused keys, naming the key.
export { StoreError } from "@z/meta";
