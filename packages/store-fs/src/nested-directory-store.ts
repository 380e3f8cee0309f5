import { StoreError } from "@z/meta";
import { DirectoryStore, type DirectoryStoreOptions } from "./directory-store.js";

export interface NestedDirectoryStoreOptions extends Omit<DirectoryStoreOptions, "dimensionSeparator"> {
  /** Only `/` is allowed, as in zarr-python. */
  dimensionSeparator?: "/";
}

/**
 * zarr-python 2.13's `NestedDirectoryStore`: a {@link DirectoryStore} whose
 * `dimensionSeparator` is `/`, so arrays created in it without an explicit separator get
 * `"dimension_separator": "/"` in `.zarray` and chunk files in nested directories
 * (`foo/0/0` rather than `foo/0.0`), and arrays whose `.zarray` names no separator (written by
 * zarr-python before 2.8, when this store rewrote keys itself) are read with `/`.
 *
 * Like zarr-python 2.13 it does not rewrite keys: `0.0` is stored as the file `0.0`. Mapping
 * chunk coordinates to keys is the array's job, using its `dimension_separator`; an array that
 * names `.` explicitly keeps flat chunk files even in this store, as in zarr-python.
 */
export class NestedDirectoryStore extends DirectoryStore {
  declare readonly dimensionSeparator: "/";

  constructor(root: string, options: NestedDirectoryStoreOptions = {}) {
    const separator: unknown = options.dimensionSeparator ?? "/";
    if (separator !== "/") {
      throw new StoreError(
        `NestedDirectoryStore only supports "/" as dimension separator, got ${JSON.stringify(separator)}`,
      );
    }
    super(root, { ...options, dimensionSeparator: "/" });
  }
}
