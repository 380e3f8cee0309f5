// The hierarchy read from metadata documents alone. Inspection commands (info, tree, digest, copy)
// use this rather than opening arrays, so they also work for arrays whose codecs this build lacks.

import { defaultCodecRegistry } from "@z/core";
import {
  isListable,
  joinPath,
  keyPrefix,
  parseArrayMetadata,
  parseArrayMetadataV1,
  parseAttributes,
  parseGroupMetadata,
  V1_ATTRS_KEY,
  V1_META_KEY,
  ZarrError,
  type ArrayMetadata,
  type ArrayMetadataV3,
  type JsonObject,
  type Store,
} from "@z/meta";
import { parseNodeMetadataV3 } from "@z/meta/v3";
import { CommandError } from "./command.js";

interface ArrayNodeBase {
  readonly kind: "array";
  readonly path: string;
  /** Where its metadata and attributes are: `.zarray` and `.zattrs`, v1's `meta` and `attrs`, or `zarr.json` for both. */
  readonly metaKey: string;
  readonly attrsKey: string;
}

/** A v2 array, or a spec-v1 one (only ever at the root of its store, and read-only). */
export interface ArrayNodeV2 extends ArrayNodeBase {
  /** The array's metadata, as v2 (a spec-v1 array's `meta` converted as `migrate_1to2` converts it). */
  readonly meta: ArrayMetadata;
  readonly zarrFormat: 1 | 2;
}

/** A v3 array: its `zarr.json`. */
export interface ArrayNodeV3 extends ArrayNodeBase {
  readonly meta: ArrayMetadataV3;
  readonly zarrFormat: 3;
  /** The node has v2 documents too (`.zarray`), which zarr-python 3 (and z) read past: a migrated array. */
  readonly v2Too: boolean;
}

export type ArrayNode = ArrayNodeV2 | ArrayNodeV3;

export interface GroupNode {
  readonly kind: "group";
  readonly path: string;
  readonly zarrFormat: 2 | 3;
  /** `.zgroup` or `zarr.json`. */
  readonly metaKey: string;
  /** A v3 group with a `.zgroup` beside its `zarr.json` (a migrated group). */
  readonly v2Too?: boolean;
}

export type NodeInfo = ArrayNode | GroupNode;

export const arrayKey = (path: string): string => `${keyPrefix(path)}.zarray`;
export const groupKey = (path: string): string => `${keyPrefix(path)}.zgroup`;
export const attrsKey = (path: string): string => `${keyPrefix(path)}.zattrs`;
export const zarrJsonKey = (path: string): string => `${keyPrefix(path)}zarr.json`;

/** The node's shape. */
export const shapeOf = (node: ArrayNode): readonly number[] => node.meta.shape;

/**
 * The shape of the chunks the store holds, one key each: v2's `chunks`, v3's chunk grid (for a
 * sharded array, the shards).
 */
export const gridChunks = (node: ArrayNode): readonly number[] =>
  node.zarrFormat === 3 ? node.meta.chunkShape : node.meta.chunks;

/**
 * The array or group at `path`, or undefined when there is neither. A `zarr.json` is read first:
 * where both formats' documents are (a migrated node), v3's says, as zarr-python 3 reads it. At the
 * root of a store, a spec-v1 array (`meta`, no `.zarray` or `.zgroup`) is an array too. Bad
 * metadata throws, naming its key.
 */
export async function readNode(store: Store, path: string): Promise<NodeInfo | undefined> {
  const v3 = await store.get(zarrJsonKey(path));
  if (v3 !== undefined) {
    const meta = parseNodeMetadataV3(v3, zarrJsonKey(path));
    const key = zarrJsonKey(path);
    if (meta.nodeType === "group")
      return {
        kind: "group",
        path,
        zarrFormat: 3,
        metaKey: key,
        v2Too: (await store.get(groupKey(path))) !== undefined,
      };
    return {
      kind: "array",
      path,
      meta,
      zarrFormat: 3,
      metaKey: key,
      attrsKey: key,
      v2Too: (await store.get(arrayKey(path))) !== undefined,
    };
  }
  const array = await store.get(arrayKey(path));
  if (array !== undefined)
    return {
      kind: "array",
      path,
      meta: parseArrayMetadata(array, arrayKey(path)),
      zarrFormat: 2,
      metaKey: arrayKey(path),
      attrsKey: attrsKey(path),
    };
  const group = await store.get(groupKey(path));
  if (group !== undefined) {
    parseGroupMetadata(group, groupKey(path));
    return { kind: "group", path, zarrFormat: 2, metaKey: groupKey(path) };
  }
  const v1 = path === "" ? await store.get(V1_META_KEY) : undefined;
  if (v1 !== undefined)
    return {
      kind: "array",
      path,
      meta: await v1Metadata(v1),
      zarrFormat: 1,
      metaKey: V1_META_KEY,
      attrsKey: V1_ATTRS_KEY,
    };
  return undefined;
}

/**
 * A v1 `meta` document as v2 metadata, its compressor config completed with the codec's defaults
 * as `migrate_1to2` (and `@z/core`'s `openArray`) complete it; as written when this build lacks
 * the codec, so metadata-only commands still work.
 */
async function v1Metadata(bytes: Uint8Array): Promise<ArrayMetadata> {
  const meta = parseArrayMetadataV1(bytes, V1_META_KEY);
  if (meta.compressor === null) return meta;
  try {
    return {
      ...meta,
      compressor: (await defaultCodecRegistry().create(meta.compressor, { key: V1_META_KEY })).toJSON(),
    };
  } catch (error) {
    if (error instanceof ZarrError) return meta;
    throw error;
  }
}

/** The node at `path`; a `CommandError` naming the store path when there is none. */
export async function requireNode(store: Store, path: string): Promise<NodeInfo> {
  const node = await readNode(store, path);
  if (node === undefined) {
    throw new CommandError(
      `no array or group at ${path === "" ? "the root of the store" : `path ${JSON.stringify(path)}`} (no ${zarrJsonKey(path)}, ${arrayKey(path)} or ${groupKey(path)})`,
      { key: zarrJsonKey(path) },
    );
  }
  return node;
}

/** Where a node's attributes are: `.zattrs`, a v1 array's `attrs`, or a v3 node's `zarr.json`. */
export const attrsKeyOf = (node: NodeInfo): string =>
  node.kind === "array" ? node.attrsKey : node.zarrFormat === 3 ? node.metaKey : attrsKey(node.path);

/**
 * The attributes of a node (`{}` without `.zattrs`, or without `attributes` in `zarr.json`),
 * floats kept as floats so they write back unchanged.
 */
export async function readAttributes(store: Store, node: NodeInfo): Promise<JsonObject> {
  const key = attrsKeyOf(node);
  const bytes = await store.get(key);
  if (bytes === undefined) return {};
  if (node.zarrFormat === 3) {
    // parsed as JSON rather than through the metadata model, so that 1.0 stays 1.0
    const doc = parseAttributes(bytes, key, { keepFloats: true });
    const attributes = doc.attributes;
    return typeof attributes === "object" && attributes !== null && !Array.isArray(attributes)
      ? (attributes as JsonObject)
      : {};
  }
  return parseAttributes(bytes, key, { keepFloats: true });
}

/** Sorted names of the sub-directories of a group, where its members may live. */
export async function childNames(store: Store, path: string): Promise<string[]> {
  const prefix = keyPrefix(path);
  if (typeof store.listDir === "function") return (await store.listDir(prefix)).prefixes.sort();
  if (!isListable(store)) throw new CommandError("the store cannot list its keys");
  const names = new Set<string>();
  for (const key of await store.list(prefix)) {
    const slash = key.indexOf("/", prefix.length);
    if (slash !== -1) names.add(key.slice(prefix.length, slash));
  }
  return [...names].sort();
}

/** A node with its members, as zarr-python's `Group.values()` orders them (by name). */
export interface TreeEntry {
  readonly node: NodeInfo;
  readonly name: string;
  readonly children: readonly TreeEntry[];
}

/** The hierarchy below `node`, `level` levels deep at most (all when omitted). */
export async function readTree(store: Store, node: NodeInfo, level?: number, depth = 0): Promise<TreeEntry> {
  const name = node.path === "" ? "/" : node.path.split("/").pop()!;
  if (node.kind === "array" || (level !== undefined && depth >= level)) return { node, name, children: [] };
  const children: TreeEntry[] = [];
  for (const child of await childNames(store, node.path)) {
    const member = await readNode(store, joinPath(node.path, child));
    if (member !== undefined) children.push(await readTree(store, member, level, depth + 1));
  }
  return { node, name, children };
}

/** Every node of a tree, depth first, the root first. */
export function* treeNodes(entry: TreeEntry): Generator<NodeInfo> {
  yield entry.node;
  for (const child of entry.children) yield* treeNodes(child);
}
