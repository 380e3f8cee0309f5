export { ZipStore, type ZipStoreOptions } from "./zip-store.js";
export { MemoryFile } from "./memory-file.js";
export { blobSource, bytesSource, isWritableSource, type ByteSource, type ByteSourceOptions, type WritableByteSource } from "./byte-source.js";
export type { ZipEntryInfo } from "./entry.js";
