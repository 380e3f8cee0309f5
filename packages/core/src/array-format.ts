/*
 * What differs between the formats for an opened array, and nothing else: the documents it is
 * described by, where they are, the keys of its chunks and the codec chain it builds. The engine
 * (array.ts, array-write.ts, the pool) asks an `ArrayFormat`; it never asks which format it is.
 * v2 and v1 are here; v3 (format-v3.ts) loads when a page first opens or creates a v3 array.
 */
import type { ChunkContext, Codec, CodecRegistry } from "@z/codecs/registry";
import type { ShardingOptions } from "@z/codecs/v3";
import {
  chunkKey,
  encodeArrayMetadata,
  keyPrefix,
  parseChunkKey,
  serializeArrayMetadata,
  V1_ATTRS_KEY,
  V1_META_KEY,
  type ArrayMetadata,
  type ArrayMetadataV3,
  type CodecConfig,
  type DimensionSeparator,
} from "@z/meta";
import type { ArrayLayout } from "./array-layout.js";
import type { AttributesDocument } from "./attributes.js";
import { ARRAY_META, attrsKey } from "./keys.js";

export interface ArrayFormat {
  readonly zarrFormat: 1 | 2 | 3;
  /** The metadata document as read: a v2 or v1 array's as v2 metadata, a v3 array's `zarr.json`. */
  readonly document: ArrayMetadata | ArrayMetadataV3;
  /** What the engine works from. */
  readonly layout: ArrayLayout;
  /** The store key of the metadata document. */
  readonly metaKey: string;
  /** The store key of the attributes, and how they sit in that document. */
  readonly attrsKey: string;
  readonly attributes?: AttributesDocument;
  /**
   * Whether chunks equal to the fill value everywhere are stored unless told otherwise: zarr-python
   * 2.11+ stores them (v2); zarr-python 3 does not (`write_empty_chunks=False`, v3).
   */
  readonly storesEmptyChunks: boolean;
  /**
   * The key of the chunk at `coords`, under the array's path. v2 takes the separator the array
   * settled on (its `.zarray` may not say: see `ZarrArray.dimensionSeparator`); v3's encoding says.
   */
  chunkKey(coords: readonly number[], separator: DimensionSeparator): string;
  /** The chunk indices a key below the array's path names, or `undefined` for a key that is no chunk's. */
  chunkCoords(key: string, ndim: number, separator: DimensionSeparator): number[] | undefined;
  /**
   * The codec chain for chunks of `layout` (the array's own, or a view's), and the registry configs
   * it uses; `sharding` tells v3's `sharding_indexed` codecs how to read and cache.
   */
  chain(
    layout: ArrayLayout,
    registry: CodecRegistry,
    sharding?: ShardingOptions,
  ): Promise<{ chain: CodecChain; configs: readonly CodecConfig[] }>;
  /** The same array with another shape (`resize`), whose document `encode` gives. */
  resized(shape: readonly number[]): ArrayFormat;
  /**
   * The metadata document's bytes, to store over the one `stored` reads (v3 keeps the attributes
   * written there since the array was opened; v2's attributes are a document of their own).
   */
  encode(stored: () => Promise<Uint8Array | undefined>): Promise<Uint8Array>;
  /**
   * The text a pool thread builds the same chunk jobs from (`jobsFromText`), for chunks of `layout`;
   * `undefined` when it cannot be said in a document (a view of a v3 array).
   */
  threadText(layout: ArrayLayout): string | undefined;
}

/** A v2 array at `path` (its document at `metaKey`: `.zarray`, or TensorStore's `metadata_key`). */
export function formatV2(meta: ArrayMetadata, path: string, metaKey = keyPrefix(path) + ARRAY_META): ArrayFormat {
  return {
    zarrFormat: 2,
    document: meta,
    layout: meta,
    metaKey,
    attrsKey: attrsKey(path),
    storesEmptyChunks: true,
    chunkKey: (coords, separator) => keyPrefix(path) + chunkKey(coords, separator),
    chunkCoords: (key, ndim, separator) => parseChunkKey(key, ndim, separator),
    chain: async (layout, registry) => ({
      chain: await chainV2(layout, registry, metaKey),
      configs: configsOf(layout),
    }),
    resized: (shape) => formatV2({ ...meta, shape: [...shape] }, path, metaKey),
    encode: async () => encodeArrayMetadata(meta),
    threadText: (layout) => serializeArrayMetadata({ ...layout, zarrFormat: 2 }),
  };
}

/** A spec-v1 array: its `meta` and `attrs` documents at the root of its store, read as v2 metadata. */
export function formatV1(meta: ArrayMetadata): ArrayFormat {
  return {
    ...formatV2(meta, "", V1_META_KEY),
    zarrFormat: 1,
    // Read-only (`ZarrArray.readOnly`): never resized.
    attrsKey: V1_ATTRS_KEY,
  };
}

/** The filters then the compressor: the registry configs a v2 chain is built from. */
const configsOf = (layout: ArrayLayout): CodecConfig[] => [
  ...(layout.filters ?? []),
  ...(layout.compressor ? [layout.compressor] : []),
];

/** What a stage of a chain is told about the chunk it encodes (its shape as that stage sees it). */
export type StageChunk = Omit<ChunkContext, "key" | "signal" | "maxDecodedSize">;

/**
 * An array's codecs as one chain of stages, in encode order: what the engine runs, for either
 * format. v2's filters then compressor make one; v3's `codecs` another (`@z/codecs/v3`'s
 * `compileCodecsV3`, whose stages have this shape). Stages that change nothing in z's in-memory
 * bytes (v3's `bytes` codec, little-endian) are left out, so a chain of one compressor keeps the
 * fast paths whatever the format.
 */
export type CodecChain = readonly ChainStage[];

/** One stage: its codec, the chunk as it sees it, and (v3) its kind. */
export interface ChainStage {
  readonly codec: Codec;
  readonly chunk: StageChunk;
  /** v3's kind of the codec; v2's filters and compressor have none. */
  readonly kind?: "array-array" | "array-bytes" | "bytes-bytes";
}

/** The chain of a v2 (or v1) array: its filters in order, then its compressor, each seeing the whole chunk. */
export async function chainV2(meta: ArrayLayout, registry: CodecRegistry, key: string): Promise<CodecChain> {
  const configs = [...(meta.filters ?? []), ...(meta.compressor ? [meta.compressor] : [])];
  const codecs = await Promise.all(configs.map((config) => registry.create(config, { key })));
  const chunk: StageChunk = {
    dtype: meta.dtype,
    itemsize: meta.dtype.itemsize,
    elements: meta.chunks.reduce((a, b) => a * b, 1),
    shape: meta.chunks,
  };
  return codecs.map((codec) => ({ codec, chunk }));
}
