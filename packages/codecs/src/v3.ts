/**
 * `@z/codecs/v3`: the Zarr v3 codec layer. `compileCodecsV3` turns an array's `codecs` (as
 * `ArrayMetadataV3` from `@z/meta` holds them) into a chain of `Codec` stages for its chunks:
 * `transpose`, `bytes` and `sharding_indexed` (whole shards) are this entry's own, the others are the v2 (numcodecs) codecs of a
 * `CodecRegistry` that do the same job with the same bytes (`blosc`, `gzip`, `zstd`, `crc32c`,
 * `vlen-utf8`, `vlen-bytes`, every `numcodecs.<id>`, and any registered id by its bare name).
 * `sharding_indexed` is this entry's too (inner chunks in shards, read by ranges through
 * `Codec.decodeRegion`; see `ShardingOptions` and `ShardError`).
 * `codecsV3FromV2` writes the `codecs` member for v2-style filters and compressor.
 *
 * An entry of its own, so that what reads Zarr v2 only (`@z/codecs/registry`) does not grow:
 * `@z/core` imports it when it opens a v3 node.
 *
 * @packageDocumentation
 */
// The codec contract's types, which the chain's are made of (the registry is `@z/codecs/registry`'s).
export type * from "./codec.js";
export type { CodecKindV3, CodecV3Declaration, StageChunk, ChainStage, CodecChainV3 } from "./v3/types.js";
export { compileCodecsV3, buildCodecV3, type BuiltStage, type CompileContextV3 } from "./v3/compile.js";
export {
  SHARD_COALESCE_GAP_BYTES,
  SHARD_COALESCE_MAX_BYTES,
  SHARD_INDEX_CACHE_BYTES,
  type ShardingOptions,
} from "./v3/shard-options.js";
export { ShardError } from "./v3/shard-errors.js";
// What `ShardError` extends (the same class as `@z/codecs`' own).
export { CodecError } from "./errors.js";
export { codecsV3FromV2 } from "./v3/from-v2.js";
