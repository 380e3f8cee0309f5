import { encodeGroupMetadata, isListable, keyPrefix, StoreError, type Store, type WritableStore } from "@z/meta";
import { NodeExistsError } from "./errors.js";
import { arrayMetaKey, groupMetaKey, zarrJsonKey } from "./keys.js";
import { containsArray, containsGroup } from "./node-kinds.js";

/** A store that can remove a whole subtree at once (a directory store does it faster than key by key). */
interface SubtreeRemover {
  rmdir(path: string): Promise<void>;
}

const hasRmdir = (store: Store): store is Store & SubtreeRemover =>
  typeof (store as Partial<SubtreeRemover>).rmdir === "function";

/** Removes every key under `path` (the whole store for `""`), as zarr-python's `rmdir`. */
export async function removeSubtree(store: WritableStore, path: string, signal?: AbortSignal): Promise<void> {
  if (hasRmdir(store)) return store.rmdir(path);
  if (!isListable(store)) {
    throw new StoreError(`cannot overwrite ${JSON.stringify(path)}: the store cannot list its keys`);
  }
  const keys = await store.list(keyPrefix(path), { signal });
  for (const key of keys) await store.delete(key, { signal });
}

/**
 * Makes sure every ancestor of `path` is a group, as the spec requires: missing ones are created;
 * an ancestor that is an array is an error (or, with `overwrite`, replaced by a group).
 */
export async function requireParentGroups(
  store: WritableStore,
  path: string,
  overwrite: boolean,
  signal?: AbortSignal,
  zarrFormat: 2 | 3 = 2,
): Promise<void> {
  if (path === "") return;
  const segments = path.split("/");
  for (let i = 0; i < segments.length; i++) {
    const parent = segments.slice(0, i).join("/");
    if (await containsArray(store, parent, signal)) {
      if (!overwrite) throw new NodeExistsError("array", parent, { key: arrayMetaKey(parent) });
      await removeSubtree(store, parent, signal);
      await store.set(...(await groupDocument(parent, zarrFormat)), { signal });
    } else if (!(await containsGroup(store, parent, signal))) {
      await store.set(...(await groupDocument(parent, zarrFormat)), { signal });
    }
  }
}

/**
 * The key and bytes of a new, empty group's document at `path`: `.zgroup`, or v3's `zarr.json`
 * as zarr-python 3 writes it (`attributes: {}`, no `consolidated_metadata`).
 */
export async function groupDocument(path: string, zarrFormat: 2 | 3): Promise<[string, Uint8Array]> {
  if (zarrFormat === 2) return [groupMetaKey(path), encodeGroupMetadata()];
  const { emptyGroupV3 } = await import("./node-v3.js");
  return [zarrJsonKey(path), emptyGroupV3()];
}

/**
 * Clears the way for a new node at `path`: with `overwrite` everything under it goes, without it an
 * existing array or group there is an error.
 */
export async function prepareNewNode(
  store: WritableStore,
  path: string,
  overwrite: boolean,
  signal?: AbortSignal,
  zarrFormat: 2 | 3 = 2,
): Promise<void> {
  if (overwrite) {
    await removeSubtree(store, path, signal);
  } else if (await containsArray(store, path, signal)) {
    throw new NodeExistsError("array", path, { key: arrayMetaKey(path) });
  } else if (await containsGroup(store, path, signal)) {
    throw new NodeExistsError("group", path, { key: groupMetaKey(path) });
  }
  await requireParentGroups(store, path, overwrite, signal, zarrFormat);
}

/** A store that can rename a whole subtree in one step (a directory store renames a directory). */
interface SubtreeRenamer {
  rename(from: string, to: string): Promise<void>;
}

/**
 * Moves every key under `from` to the same place under `to`. Without a store-level rename, all
 * values are copied before any is deleted, so a failure part-way never loses the source.
 */
export async function movePrefix(store: WritableStore, from: string, to: string, signal?: AbortSignal): Promise<void> {
  const renamer = store as Store & Partial<SubtreeRenamer>;
  if (typeof renamer.rename === "function") return renamer.rename(from, to);
  if (!isListable(store)) throw new StoreError(`cannot move ${JSON.stringify(from)}: the store cannot list its keys`);
  const source = keyPrefix(from);
  const target = keyPrefix(to);
  const keys = await store.list(source, { signal });
  for (const key of keys) {
    const value = await store.get(key, { signal });
    if (value !== undefined) await store.set(target + key.slice(source.length), value, { signal });
  }
  for (const key of keys) await store.delete(key, { signal });
}
