/**
 * How the `sharding_indexed` codecs of a chain read by ranges (`Codec.decodeRegion`), and what
 * they keep. Each codec keeps its own cache: one per array opened.
 */
export interface ShardingOptions {
  /**
   * Bytes of decoded shard indexes kept (16 per inner chunk; least recently used out first).
   * Default `SHARD_INDEX_CACHE_BYTES`, 8 MiB: the indexes of 512 shards of 1024 inner chunks.
   */
  readonly indexCacheBytes?: number;
  /**
   * Inner chunks whose stored bytes are at most this far apart are read with one request, the
   * bytes between them read and dropped. Default `SHARD_COALESCE_GAP_BYTES`, 1 MiB (zarr-python
   * 3's `sharding_coalesce_max_gap_bytes`).
   */
  readonly coalesceGapBytes?: number;
  /**
   * No merged request is longer than this (one inner chunk longer than it is read alone). Default
   * `SHARD_COALESCE_MAX_BYTES`, 16 MiB (zarr-python 3's `sharding_coalesce_max_bytes`).
   */
  readonly coalesceMaxBytes?: number;
}

/** The default `ShardingOptions.indexCacheBytes`: 8 MiB of decoded shard indexes per codec. */
export const SHARD_INDEX_CACHE_BYTES = 8 << 20;
/** The default `ShardingOptions.coalesceGapBytes`: 1 MiB, zarr-python 3's. */
export const SHARD_COALESCE_GAP_BYTES = 1 << 20;
/** The default `ShardingOptions.coalesceMaxBytes`: 16 MiB, zarr-python 3's. */
export const SHARD_COALESCE_MAX_BYTES = 16 << 20;
