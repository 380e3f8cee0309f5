/*
 * Zarr v3 arrays: the `ArrayFormat` of a `zarr.json` (see array-format.ts). Loaded only when a
 * program opens or creates a v3 array, with the v3 codecs (`@z/codecs/v3`): a page reading v2
 * arrays loads none of it.
 */
import { compileCodecsV3 } from "@z/codecs/v3";
import { keyPrefix, type ArrayMetadataV3 } from "@z/meta";
import { chunkKeyV3, parseChunkKeyV3, parseNodeMetadataV3, serializeArrayMetadataV3 } from "@z/meta/v3";
import type { ArrayFormat } from "./array-format.js";
import type { ArrayLayout } from "./array-layout.js";
import { attributesV3 } from "./node-v3.js";
import { chainV2 } from "./array-format.js";
import { NodeNotFoundError } from "./errors.js";
import { zarrJsonKey } from "./keys.js";

const encoder = new TextEncoder();

/** The array whose `zarr.json` is `bytes`, at `path`; a group's `zarr.json` there is no array (`NodeNotFoundError`). */
export function openedV3(bytes: Uint8Array, path: string): ArrayFormat {
  const key = zarrJsonKey(path);
  const node = parseNodeMetadataV3(bytes, key);
  if (node.nodeType !== "array") throw new NodeNotFoundError("array", path, { key });
  return formatV3(node, path);
}

/** What the engine sees of a v3 array: its chunks held C-ordered, little-endian, keyed by its encoding. */
export function layoutV3(meta: ArrayMetadataV3): ArrayLayout {
  return {
    shape: meta.shape,
    chunks: meta.chunkShape,
    dtype: meta.dtype,
    fillValue: meta.fillValue,
    order: "C",
    compressor: null,
    filters: null,
    dimensionSeparator: meta.chunkKeys.separator,
  };
}

/** The format of the v3 array `meta` at `path`. */
export function formatV3(meta: ArrayMetadataV3, path: string): ArrayFormat {
  const metaKey = zarrJsonKey(path);
  const prefix = keyPrefix(path);
  const layout = layoutV3(meta);
  return {
    zarrFormat: 3,
    document: meta,
    layout,
    metaKey,
    attrsKey: metaKey,
    attributes: attributesV3,
    storesEmptyChunks: false,
    chunkKey: (coords) => prefix + chunkKeyV3(coords, meta.chunkKeys),
    chunkCoords: (key, ndim) => parseChunkKeyV3(key, ndim, meta.chunkKeys),
    async chain(seen, registry, sharding) {
      // A view's filters (`astype`) come first: they turn the view's elements into the array's
      // own, which the codecs then see. A view without filters sees the stored bytes as its dtype.
      const dtype = seen.filters === null ? seen.dtype : meta.dtype;
      const compiled = await compileCodecsV3(
        meta.codecs,
        { shape: seen.chunks, dtype, fillValue: seen.fillValue },
        registry,
        { key: metaKey, sharding },
      );
      const before = seen.filters === null ? [] : await chainV2({ ...seen, compressor: null }, registry, metaKey);
      return {
        chain: [...before, ...compiled.stages],
        configs: [...(seen.filters ?? []), ...compiled.registryConfigs],
      };
    },
    resized: (shape) => formatV3({ ...meta, shape: [...shape] }, path),
    async encode(stored) {
      // The attributes as stored now: another writer's are kept.
      const current = await stored();
      const attributes = current === undefined ? meta.attributes : attributesV3.read(current, metaKey);
      const next = attributes === undefined ? meta : { ...meta, attributes };
      return encoder.encode(serializeArrayMetadataV3(next));
    },
    threadText: (seen) => (seen === layout ? serializeArrayMetadataV3(meta) : undefined),
  };
}
