// Storage statistics of an array from its keys, without decoding anything.

import { stat } from "node:fs/promises";
import { holdsNestedChunks } from "@z/core";
import { keyPrefix, parseChunkKey, type Store } from "@z/meta";
import { chunkKeyV3, parseChunkKeyV3 } from "@z/meta/v3";
import { DirectoryStore } from "@z/store-fs";
import { gridChunks, type ArrayNode } from "./hierarchy.js";
import { listsChunks } from "./store-arg.js";

export interface ChunkSeparator {
  readonly separator: "." | "/";
  /** The chunks were found under `/` keys although `.zarray` names no separator (see below). */
  readonly found: boolean;
}

const asked = new WeakMap<object, Promise<ChunkSeparator>>();

/**
 * The separator of an array's chunk keys: a v3 array's chunk key encoding's; a v2 array's
 * `.zarray`'s, else the store's default, else `/` when the store holds the chunks of an array of
 * two or more dimensions nested, as zarr-python's NestedDirectoryStore wrote them before `.zarray`
 * had the field (`holdsNestedChunks` of `@z/core`, which `ZarrArray` asks too), else `.`. Asked
 * once per metadata read.
 */
export function chunkSeparator(store: Store, node: ArrayNode): Promise<ChunkSeparator> {
  if (node.zarrFormat === 3) return Promise.resolve({ separator: node.meta.chunkKeys.separator, found: false });
  const { path, meta } = node;
  const fromStore = (store as { dimensionSeparator?: unknown }).dimensionSeparator;
  const known = meta.dimensionSeparator ?? (fromStore === "." || fromStore === "/" ? fromStore : undefined);
  if (known !== undefined || meta.shape.length < 2) return Promise.resolve({ separator: known ?? ".", found: false });
  let answer = asked.get(meta);
  if (answer === undefined) {
    answer = holdsNestedChunks(store, path, meta.shape.length).then((nested) => ({
      separator: nested ? "/" : ".",
      found: nested,
    }));
    asked.set(meta, answer);
  }
  return answer;
}

/** Number of stored chunks (shards, for a sharded v3 array) along each dimension. */
export function chunkGrid(node: ArrayNode): number[] {
  const chunks = gridChunks(node);
  return node.meta.shape.map((s, i) => Math.ceil(s / chunks[i]!));
}

/** The key of the chunk at `coords` (v2: `0` for a 0-d array; v3: as its chunk key encoding says). */
export function chunkKeyOf(node: ArrayNode, separator: "." | "/", coords: readonly number[]): string {
  if (node.zarrFormat === 3) return keyPrefix(node.path) + chunkKeyV3(coords, node.meta.chunkKeys);
  return keyPrefix(node.path) + (coords.length === 0 ? "0" : coords.join(separator));
}

/** The chunk coordinates a key below the array names (`rest`, relative to it), or undefined. */
export function chunkCoordsOf(node: ArrayNode, separator: "." | "/", rest: string): number[] | undefined {
  const ndim = node.meta.shape.length;
  return node.zarrFormat === 3
    ? parseChunkKeyV3(rest, ndim, node.meta.chunkKeys)
    : parseChunkKey(rest, ndim, separator);
}

/** Metadata documents beside an array's chunks (of either format): never chunks. */
const DOCUMENT_NAMES = ["zarr.json", ".zarray", ".zattrs", ".zmetadata"];

export interface KeyScan {
  /** Keys of chunks inside the grid. */
  readonly chunks: string[];
  /** Keys under the array that are neither its documents nor chunks in the grid. */
  readonly others: string[];
  /** The separator of its chunk keys. */
  readonly separator: "." | "/";
}

/**
 * Sorts the keys under an array into chunks and the rest (needs a listable store); its metadata
 * and attributes documents (`node.metaKey`, `node.attrsKey`, and the other format's beside them)
 * are neither.
 */
export async function scanArrayKeys(store: Store, node: ArrayNode): Promise<KeyScan | undefined> {
  if (!listsChunks(store)) return undefined;
  const prefix = keyPrefix(node.path);
  const documents = new Set([node.metaKey, node.attrsKey, ...DOCUMENT_NAMES.map((name) => prefix + name)]);
  const grid = chunkGrid(node);
  const { separator } = await chunkSeparator(store, node);
  const chunks: string[] = [];
  const others: string[] = [];
  for (const key of await store.list(prefix)) {
    if (documents.has(key)) continue;
    const rest = key.slice(prefix.length);
    const coords = chunkCoordsOf(node, separator, rest);
    if (coords?.every((c, i) => c < grid[i]!)) chunks.push(key);
    else others.push(key);
  }
  return { chunks: chunks.sort(), others: others.sort(), separator };
}

/** Size of the value under `key` (from the file system for directory stores), 0 when missing. */
export async function valueSize(store: Store, key: string): Promise<number> {
  if (store instanceof DirectoryStore) {
    const info = await stat(store.filePath(key)).catch(() => undefined);
    return info?.isFile() ? info.size : 0;
  }
  return (await store.get(key))?.length ?? 0;
}

/** Bytes stored for an array: its metadata, attributes and chunks in the grid (as `ZarrArray.nbytesStored`). */
export async function storedBytes(store: Store, node: ArrayNode, chunks: readonly string[]): Promise<number> {
  let total = 0;
  for (const key of new Set([node.metaKey, node.attrsKey, ...chunks])) total += await valueSize(store, key);
  return total;
}
