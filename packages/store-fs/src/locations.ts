import type { LocationStores } from "@z/meta";
import { DirectoryStore } from "./directory-store.js";
import { fileByteSource } from "./file-byte-source.js";

/**
 * Local directories and files for `openLocation` (the `LocationStores` contract of `@z/meta`): a
 * directory opens as a {@link DirectoryStore}, a file (a local zip) as a {@link fileByteSource},
 * written through a copy renamed over it when writable. `@z/core/node`'s `openLocation` uses these
 * by itself; pass them to `@z/core`'s: `openLocation(path, { ...fsLocations, ...zipLocations })`.
 */
export const fsLocations: LocationStores = {
  openDirectory: (path) => new DirectoryStore(path),
  openFile: (path, writable) => fileByteSource(path, { writable }),
};
