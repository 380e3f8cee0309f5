/*
 * What is at a path: an array, a group, of either format. What opening reads; creating and moving
 * nodes (hierarchy.ts) loads only with the code that writes.
 */
import { V1_META_KEY, type Store } from "@z/meta";
import { arrayMetaKey, groupMetaKey, zarrJsonKey } from "./keys.js";

async function has(store: Store, key: string, signal?: AbortSignal): Promise<boolean> {
  return (await store.get(key, { signal })) !== undefined;
}

/** What the `zarr.json` at `path` says it is (`node_type`), or `undefined` when there is none. */
export async function v3NodeType(
  store: Store,
  path: string,
  signal?: AbortSignal,
): Promise<"array" | "group" | undefined> {
  const key = zarrJsonKey(path);
  const bytes = await store.get(key, { signal });
  return bytes && (await import("./node-v3.js")).nodeTypeV3(bytes, key);
}

/**
 * True when `path` holds an array: a v3 `zarr.json` of one, a `.zarray`, or at the root a spec-v1
 * `meta` document. Where both formats are, v3's says (as zarr-python 3 reads it).
 */
export async function containsArray(store: Store, path: string, signal?: AbortSignal): Promise<boolean> {
  const [v3, v2] = await Promise.all([v3NodeType(store, path, signal), has(store, arrayMetaKey(path), signal)]);
  if (v3 !== undefined) return v3 === "array";
  if (v2) return true;
  return path === "" && has(store, V1_META_KEY, signal);
}

/** True when `path` holds a group: a v3 `zarr.json` of one, or a `.zgroup`. */
export async function containsGroup(store: Store, path: string, signal?: AbortSignal): Promise<boolean> {
  const [v3, v2] = await Promise.all([v3NodeType(store, path, signal), has(store, groupMetaKey(path), signal)]);
  return v3 === undefined ? v2 : v3 === "group";
}
