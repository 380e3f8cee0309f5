import type { LocationStores } from "@z/meta";
import { ZipStore } from "./zip-store.js";

/**
 * Zip files for `openLocation` of `@z/core` (the `LocationStores` contract of `@z/meta`): a zip
 * file's bytes open as a {@link ZipStore}, read-only unless `writable` (then mode `"a"`). The bytes
 * come from another package's opener: `@z/store-http`'s `httpLocations()` for a remote zip,
 * `@z/store-fs`'s `fsLocations` for a local one.
 */
export const zipLocations: LocationStores = {
  openZip: (source, { writable }) => ZipStore.open(source, { mode: writable ? "a" : "r" }),
};
