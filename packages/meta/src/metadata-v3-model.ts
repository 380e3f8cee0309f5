import type { FillValue } from "./array-metadata-model.js";
import type { ChunkKeyEncodingV3 } from "./chunk-key-v3.js";
import type { DataType } from "./dtype-model.js";
import type { DataTypeV3JSON } from "./dtype-v3.js";
import type { JsonObject, NamedConfig } from "./json-value.js";

/**
 * The decoded content of an array's `zarr.json` (Zarr v3). The members the document wrote are kept
 * as written (`dataType`, `chunkGrid`, `chunkKeyEncoding`, `codecs`), beside what z makes of them
 * (`dtype`, `chunkShape`, `chunkKeys`), so that writing the metadata back gives the same document.
 * Optional members are absent when the document has none (TensorStore writes no `attributes`,
 * zarr-python 3 writes `{}`); writing keeps that difference.
 */
export interface ArrayMetadataV3 {
  readonly zarrFormat: 3;
  readonly nodeType: "array";
  readonly shape: readonly number[];
  /** `data_type` as written: a core type's name or a named configuration. */
  readonly dataType: DataTypeV3JSON;
  /** How z holds the elements: little-endian (`|` for one byte and bytes-like kinds); the `bytes` codec has the stored order. */
  readonly dtype: DataType;
  /** `chunk_grid` as written (`regular` is the one z reads). */
  readonly chunkGrid: NamedConfig;
  /** The regular grid's `chunk_shape`: one length per dimension of `shape`, each at least 1. */
  readonly chunkShape: readonly number[];
  /** `chunk_key_encoding` as written (a separator left out stays left out). */
  readonly chunkKeyEncoding: NamedConfig;
  /** The encoding `chunkKeyV3` follows, defaults applied. */
  readonly chunkKeys: ChunkKeyEncodingV3;
  readonly fillValue: FillValue;
  /** `codecs` as written, bare names as `{ name }`; which codec is of which kind is the codec layer's to check. */
  readonly codecs: readonly NamedConfig[];
  readonly attributes?: JsonObject;
  /** A name or `null` (unnamed) for each dimension. */
  readonly dimensionNames?: readonly (string | null)[];
  /** Only `must_understand: false` ones (z implements none, and ignores those). */
  readonly storageTransformers?: readonly NamedConfig[];
  /** Members the spec does not define, each marked `must_understand: false`: kept verbatim, otherwise ignored. */
  readonly extraFields?: JsonObject;
}

/** The decoded content of a group's `zarr.json` (Zarr v3). */
export interface GroupMetadataV3 {
  readonly zarrFormat: 3;
  readonly nodeType: "group";
  readonly attributes?: JsonObject;
  readonly consolidatedMetadata?: ConsolidatedMetadataV3;
  /** As for arrays: `must_understand: false` members kept verbatim. */
  readonly extraFields?: JsonObject;
}

/** An array's or a group's `zarr.json`. */
export type NodeMetadataV3 = ArrayMetadataV3 | GroupMetadataV3;

/**
 * zarr-python 3's consolidated metadata, inline in a group's `zarr.json` (the member
 * `consolidated_metadata` of kind `inline`, `must_understand: false`): the `zarr.json` of every node below the group,
 * by path relative to it (`"a"`, `"a/b"`). A `Map`, because paths such as `"0"` would be reordered
 * as the keys of a plain object.
 */
export interface ConsolidatedMetadataV3 {
  readonly kind: "inline";
  readonly metadata: ReadonlyMap<string, NodeMetadataV3>;
}
