export { ZarrArray, type ArrayOpenOptions, type SelectionOptions, type ViewOptions } from "./array.js";
export type { HashName } from "./hash.js";
export { Group, group, openGroup, open, type GroupOptions } from "./group.js";
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
  openArray,
  arrayMetadataFor,
  type CreateOptions,
  type OpenArrayOptions,
  type OpenMode,
} from "./create.js";
export { Attributes } from "./attributes.js";
export { MemoryStore } from "./memory-store.js";
export { DEFAULT_COMPRESSOR } from "./defaults.js";
export type { NdArray, NdArrayLike, NdData, ObjectNdArray, Scalar } from "./nd-array.js";
export { OBJECT_CODEC_IDS, objectShorthand } from "./object-create.js";
export { holdsNestedChunks } from "./nested-chunks.js";
export type { RunOptions } from "./concurrency.js";
export { codecRepr, fixed1, humanSize, tupleRepr } from "./info.js";
export * from "./errors.js";
export { slice, ELLIPSIS, type BasicSelection, type BasicSelectionItem, type Slice } from "@z/indexing/basic";
export { consolidateMetadata, openConsolidated, ConsolidatedStore, CONSOLIDATED_KEY } from "./consolidated.js";
export { canCastSafely } from "./can-cast.js";
export type { MemberOptions, VisitResult } from "./group.js";
export { migrate1to2 } from "./migrate.js";
export {
  copy,
  copyAll,
  copyStore,
  CopyError,
  type CopyOptions,
  type CopyReport,
  type NodeCopyOptions,
} from "./copy.js";
export { LRUStoreCache } from "./lru-store-cache.js";
export { save, load } from "./save-load.js";
export { ThreadSynchronizer, SharedSynchronizer } from "./synchronizers.js";
export {
  parseLocation,
  openLocation,
  LocationError,
  type Location,
  type LocationOptions,
  type OpenedLocation,
} from "./location.js";
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
