import type { CodecRegistry } from "@z/codecs/registry";
import type { ShardingOptions } from "@z/codecs/v3";
import type {
  ChunksSpec,
  CodecConfig,
  DataType,
  DimensionSeparator,
  JsonObject,
  JsonValue,
  NamedConfig,
  Order,
  Store,
  Synchronizer,
} from "@z/meta";
import type { ChunkPool } from "./chunk-pool.js";

/** A codec for a v3 array: `{name, configuration}` as `zarr.json` holds it, a bare name, or a v2 config (`numcodecs.<id>`). */
export type CodecSpec = NamedConfig | CodecConfig | string;

/** What `create` and its relatives accept; names follow zarr-python's arguments (v3's, `create_array`'s). */
export interface CreateOptions {
  /**
   * 2 (default) writes `.zarray`; 3 writes `zarr.json` as zarr-python 3's `create_array` does, its
   * codecs from `codecs`, or from `filters`, `serializer` and `compressors` (default: `bytes` and
   * `zstd` level 0; `vlen-utf8` for strings).
   */
  zarrFormat?: 2 | 3;
  shape: number | readonly number[];
  /** `true`/omitted: guessed as zarr-python does; `false`: one chunk; a number or list: as given (`null`/-1 = full length). */
  chunks?: ChunksSpec;
  /** A v2 type string (`<f8`), a numpy-style name (`float32`, `i4`), a structured descr, or a parsed dtype. Default `<f8`. */
  dtype?: string | JsonValue | DataType;
  /** The compressor's config, `null` for none; default blosc lz4 as zarr-python (v3: see `compressors`). */
  compressor?: CodecConfig | null;
  /** v3: the bytes→bytes codecs, in order (`null` or `[]`: none; default zstd level 0). */
  compressors?: readonly CodecSpec[] | null;
  /** v3: the array→bytes codec (default `bytes`, little-endian; `vlen-utf8` for strings, `vlen-bytes` for bytes). */
  serializer?: CodecSpec;
  /** v3: the whole `codecs` list as `zarr.json` holds it (instead of filters, serializer and compressors). */
  codecs?: readonly CodecSpec[];
  /**
   * v3: the shard shape, a multiple of `chunks` in each dimension: the chunk grid is of shards, each
   * stored as one `sharding_indexed` object of chunks (index at the end, `bytes` + `crc32c`), as
   * zarr-python 3's `create_array(shards=…)`.
   */
  shards?: readonly number[];
  /** v3: a name (or `null`) for each dimension, written as `dimension_names`. */
  dimensionNames?: readonly (string | null)[];
  /** v3: `default` (`c/0/1`, the default) or `v2` (`0.1`) keys, separated by `dimensionSeparator` (default `/`; `.` for `v2`). */
  chunkKeyEncoding?: "default" | "v2" | NamedConfig;
  /** Default 0 (as zarr-python's `create`); `null` for no fill value. */
  fillValue?: unknown;
  order?: Order;
  /** Where the array goes (default: a new `MemoryStore`). */
  store?: Store;
  path?: string;
  /** Remove anything at `path` first (default false: existing arrays or groups are an error). */
  overwrite?: boolean;
  /** The filters (v3: array→array codecs before the serializer, written as zarr-python 3's `numcodecs.<id>`; v3's own, such as `transpose`, go in `codecs`). */
  filters?: readonly CodecConfig[] | null;
  /**
   * For object arrays (dtype `"|O"`/`"object"`): the codec that turns values into bytes, written as
   * the first filter, as zarr-python's `object_codec` (`{ id: "vlen-utf8" }`, `{ id: "vlen-bytes" }`,
   * `{ id: "vlen-array", dtype: "<i4" }`, `{ id: "json2" }`, `{ id: "msgpack2" }`). The dtypes
   * `"str"`, `"bytes"` and `"array:<dtype>"` imply the vlen codecs. An object array without one
   * (here or as its first filter) is an `ObjectCodecError`.
   */
  objectCodec?: CodecConfig;
  /** Written into `.zarray` only when given, as zarr-python does; chunk keys use `.` otherwise. */
  dimensionSeparator?: DimensionSeparator;
  writeEmptyChunks?: boolean;
  readOnly?: boolean;
  /** User attributes written to `.zattrs`. */
  attributes?: JsonObject;
  registry?: CodecRegistry;
  /** See `ArrayOpenOptions.sharding`. */
  sharding?: ShardingOptions;
  /** See `ArrayOpenOptions.synchronizer`. */
  synchronizer?: Synchronizer;
  /** See `ArrayOpenOptions.pool`. */
  pool?: ChunkPool | false;
  signal?: AbortSignal;
}
