/**
 * Zarr v2 arrays and groups, as zarr-python 2.13 reads and writes them: `create` and the `open*`
 * functions, `ZarrArray` (basic, orthogonal, coordinate, mask and block selections), `Group`,
 * attributes, consolidated metadata, copying, `MemoryStore`, `LRUStoreCache`, synchronizers and
 * locations. Runs in browsers and Node; in Node it decodes large reads in worker threads.
 * `@z/core/node` adds local paths.
 *
 * @packageDocumentation
 */
export { ZarrArray, type ArrayOpenOptions, type SelectionOptions, type ViewOptions } from "./array.js";
export type { HashName } from "./hash.js";
export { Group, group, openGroup, open, type GroupOptions } from "./group.js";
export type { CreateOptions } from "./create.js";
export {
  create,
  empty,
  zeros,
  ones,
  full,
  array,
  emptyLike,
  zerosLike,
  onesLike,
  fullLike,
  arrayMetadataFor,
  codecRepr,
  fixed1,
  humanSize,
  tupleRepr,
  parseLocation,
  openLocation,
  OBJECT_CODEC_IDS,
  objectShorthand,
  toWriteSource,
  holdsNestedChunks,
  migrateToV3,
  removeMetadata,
  arrayMetadataV3FromV2,
  MigrationError,
} from "./index-constants.js";
export { openArray, type OpenArrayOptions, type OpenMode } from "./open-array.js";
export { Attributes } from "./attributes.js";
export { MemoryStore, LRUStoreCache, SharedSynchronizer, ThreadSynchronizer } from "@z/meta";
export { DEFAULT_COMPRESSOR } from "./defaults.js";
export type { NdArray, NdArrayLike, NdData, ObjectNdArray, Scalar } from "./nd-array.js";
export type { RunOptions } from "./concurrency.js";
export type { WriteSource } from "./values.js";
export * from "./errors.js";
export { slice, ELLIPSIS, type BasicSelection, type BasicSelectionItem, type Slice } from "@z/indexing/basic";
export { consolidateMetadata, openConsolidated, ConsolidatedStore, CONSOLIDATED_KEY } from "./consolidated.js";
export { canCastSafely } from "./can-cast.js";
export type { MemberOptions, VisitResult } from "./group.js";
export { migrate1to2 } from "./migrate.js";
export type { MigratedDocument, MigrateToV3Options, RemoveMetadataOptions } from "./migrate-v3.js";
export {
  copy,
  copyAll,
  copyStore,
  CopyError,
  type CopyOptions,
  type CopyReport,
  type NodeCopyOptions,
} from "./copy.js";
export { save, load } from "./save-load.js";
// Location strings, parsed and opened by `@z/meta` through its store registry.
export { LocationError, type Location, type LocationOptions, type OpenedLocation } from "@z/meta";
export { defaultCodecRegistry } from "./codec-registry.js";
export { enableEncoders } from "./encoders.js";
export { forEachConcurrent, DEFAULT_CONCURRENCY } from "./concurrency.js";
export {
  defaultChunkPool,
  setDefaultChunkPool,
  type ChunkPool,
  type ChunkPoolFactory,
  type EncodedItem,
  type EncodeItem,
  type PoolBatch,
  type PoolReply,
  type ReadItem,
  type SerializedError,
  type StoreSpec,
} from "./chunk-pool.js";
// One import for common things. Errors: every ZarrError class of the layers below (with their
// `code`s), so a caller catches what any operation here throws without importing those packages.
export {
  ZarrError,
  MetadataError,
  DataTypeError,
  PathError,
  StoreError,
  TooLargeError,
  UnsupportedExtensionError,
  SpecError,
  SpecUnsupportedError,
} from "@z/meta";
export { CodecError, CodecConfigError, UnknownCodecError } from "@z/codecs/registry";
export { MissingEncoderError } from "./codec-definition.js";
export { BoundsError, SelectionError } from "@z/indexing/basic";
// The store, byte-source, synchronizer and location contracts, to write a store of one's own.
export {
  isListable,
  isWritable,
  isWritableSource,
  type ByteRange,
  type ByteSource,
  type ByteSourceOptions,
  type DirectoryListing,
  type ListableStore,
  type LocationStores,
  type Store,
  type StoreOptions,
  type Synchronizer,
  type ThreadStoreSpec,
  type WritableByteSource,
  type WritableStore,
} from "@z/meta";
// Codec registration: a codec of one's own, declared once and registered in the default registry.
// From the entries that load no codec, so a page loads none it does not use; `defineCodec` is a
// constant of core's (see codec-definition.ts), so a page that defines no codec does not load it first.
export {
  CodecRegistry,
  defaultRegistry,
  registerCodec,
  type ChunkContext,
  type Codec,
  type CodecCreateContext,
  type CodecData,
  type CodecFactory,
  type CodecLoader,
  type DecodedRange,
} from "@z/codecs/registry";
export type { CodecDefinition, CodecImplementation, ConfiguredCodec, DefinedCodec } from "@z/codecs/define";
export type { RegionBounds, StoredPart, StoredPartReader } from "@z/codecs/registry";
export type { ShardingOptions } from "@z/codecs/v3";
export { defineCodec } from "./codec-definition.js";
