// The hierarchy read from metadata documents alone. Inspection commands (info, tree, digest, copy)
// use this rather than opening arrays, so they also work for arrays whose codecs this build lacks.

import {
  isListable,
  joinPath,
  keyPrefix,
  parseArrayMetadata,
  parseAttributes,
  parseGroupMetadata,
  type ArrayMetadata,
  type JsonObject,
  type Store,
} from "@z/meta";
import { CommandError } from "./command.js";

export type NodeInfo =
  | { readonly kind: "array"; readonly path: string; readonly meta: ArrayMetadata }
  | { readonly kind: "group"; readonly path: string };

export const arrayKey = (path: string): string => keyPrefix(path) + ".zarray";
export const groupKey = (path: string): string => keyPrefix(path) + ".zgroup";
export const attrsKey = (path: string): string => keyPrefix(path) + ".zattrs";

/** The array or group at `path`, or undefined when there is neither. Bad metadata throws, naming its key. */
export async function readNode(store: Store, path: string): Promise<NodeInfo | undefined> {
  const array = await store.get(arrayKey(path));
  if (array !== undefined) return { kind: "array", path, meta: parseArrayMetadata(array, arrayKey(path)) };
  const group = await store.get(groupKey(path));
  if (group !== undefined) {
    parseGroupMetadata(group, groupKey(path));
    return { kind: "group", path };
  }
  return undefined;
}

/** The node at `path`; a `CommandError` naming the store path when there is none. */
export async function requireNode(store: Store, path: string): Promise<NodeInfo> {
  const node = await readNode(store, path);
  if (node === undefined) {
    throw new CommandError(`no array or group at ${path === "" ? "the root of the store" : `path ${JSON.stringify(path)}`} (no ${arrayKey(path)} or ${groupKey(path)})`, { key: arrayKey(path) });
  }
  return node;
}

/** The attributes of a node (`{}` without `.zattrs`), floats kept as floats so they write back unchanged. */
export async function readAttributes(store: Store, path: string): Promise<JsonObject> {
  const bytes = await store.get(attrsKey(path));
  return bytes === undefined ? {} : parseAttributes(bytes, attrsKey(path), { keepFloats: true });
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
