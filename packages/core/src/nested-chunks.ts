import { isListable, keyPrefix, type Store } from "@z/meta";

/*
 * Arrays that zarr-python's NestedDirectoryStore wrote before `.zarray` had `dimension_separator`
 * (zarr-python < 2.8) keep their chunks under `/` keys (`0/0`) with nothing in `.zarray` to say so.
 * Read with `.` keys, as their metadata implies, they would read as fill values only (zarr-python
 * reads them so through a DirectoryStore). zarr-python 2.13 still writes the field only when it is
 * given, so most arrays lack it: a `ZarrArray` of two or more dimensions whose `.zarray` names no
 * separator, in a store that has no default one, asks `holdsNestedChunks` once, when a chunk is
 * first found missing. A read that finds its chunks costs nothing more.
 */

const INDEX = /^\d+$/;

/**
 * Whether `store` holds the chunks of the `ndim`-dimensional array at `path` under `/` keys:
 * asked on finding the chunk at `missing` absent under its `.` key, or before writing. Cheapest
 * evidence first: that chunk's `/` key exists (nested); the grid's first chunk exists under its `.`
 * key (flat: the array has `.` chunks) or under its `/` key (nested); only when neither layout has
 * that chunk, a store that lists is asked for a directory named like a chunk index under the array
 * (nested). A listing that shows none, or a store that cannot list, says flat: missing chunks read
 * as the fill value, as they did before.
 */
export async function holdsNestedChunks(
  store: Store,
  path: string,
  ndim: number,
  missing?: readonly number[],
  signal?: AbortSignal,
): Promise<boolean> {
  if (ndim < 2) return false; // one dimension: the keys are the same
  const prefix = keyPrefix(path);
  const origin = new Array<number>(ndim).fill(0);
  if (missing !== undefined && (await exists(store, prefix + missing.join("/"), signal))) return true;
  if (missing === undefined || missing.some((c) => c !== 0)) {
    if (await exists(store, prefix + origin.join("."), signal)) return false;
    if (await exists(store, prefix + origin.join("/"), signal)) return true;
  }
  if (typeof store.listDir === "function")
    return (await store.listDir(prefix, { signal })).prefixes.some((name) => INDEX.test(name));
  if (isListable(store))
    return (await store.list(prefix, { signal })).some(
      (key) => key.includes("/", prefix.length) && INDEX.test(key.slice(prefix.length).split("/", 1)[0]!),
    );
  return false;
}

/** Whether a value exists, reading one byte of it where the store reads ranges. */
async function exists(store: Store, key: string, signal?: AbortSignal): Promise<boolean> {
  if (store.getRange !== undefined)
    return (await store.getRange(key, { offset: 0, length: 1 }, { signal })) !== undefined;
  return (await store.get(key, { signal })) !== undefined;
}
