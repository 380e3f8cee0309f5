/*
 * `openArray`, apart from creating (create.ts, loaded only when a mode creates the array): a page that
 * opens arrays to read them loads none of the creation code (metadata defaults, object dtypes).
 */
import { normalizeStoragePath, type Store } from "@z/meta";
import { ZarrArray, type ArrayOpenOptions } from "./array.js";
import type { CreateOptions } from "./create.js";
import { ArgumentError, NodeExistsError, NodeNotFoundError } from "./errors.js";
import { containsGroup } from "./node-kinds.js";
import { arrayMetaKey, groupMetaKey } from "./keys.js";

/**
 * `r`: read only, must exist; `r+`: read/write, must exist; `a`: read/write, created if missing;
 * `w`: created, replacing whatever is there; `w-` (or `x`): created, failing if anything is there.
 */
export type OpenMode = "r" | "r+" | "a" | "w" | "w-" | "x";

export type OpenArrayOptions = Partial<CreateOptions> & { mode?: OpenMode };

/** The array at `path`, or `undefined` when it has no metadata. */
async function openIfArray(store: Store, path: string, options: ArrayOpenOptions): Promise<ZarrArray | undefined> {
  try {
    return await ZarrArray.open(store, path, options);
  } catch (error) {
    if (error instanceof NodeNotFoundError) return undefined;
    throw error;
  }
}

/** Opens (or, depending on `mode`, creates) an array, as zarr-python's `open_array` (default mode `a`). */
export async function openArray(store: Store, options: OpenArrayOptions = {}): Promise<ZarrArray> {
  const mode = options.mode ?? "a";
  const path = normalizeStoragePath(options.path);
  const { signal } = options;
  const createNew = (overwrite: boolean): Promise<ZarrArray> => {
    if (options.shape === undefined) throw new ArgumentError(`mode "${mode}" creates an array: shape is required`);
    const shape = options.shape;
    return import("./create.js").then(({ create }) => create({ ...options, shape, store, path, overwrite }));
  };
  switch (mode) {
    case "r":
    case "r+":
    case "a": {
      // Opening reads the metadata once; only when there is none is the path looked at further.
      const existing = await openIfArray(
        store,
        path,
        mode === "a" ? options : { ...options, readOnly: mode === "r" || options.readOnly },
      );
      if (existing !== undefined) return existing;
      if (await containsGroup(store, path, signal))
        throw new NodeExistsError("group", path, { key: groupMetaKey(path) });
      if (mode === "a") return createNew(false);
      throw new NodeNotFoundError("array", path, { key: arrayMetaKey(path) });
    }
    case "w":
      return createNew(true);
    case "w-":
    case "x":
      return createNew(false);
    default:
      throw new ArgumentError(`mode must be one of r, r+, a, w, w-, x; got ${JSON.stringify(mode)}`);
  }
}
