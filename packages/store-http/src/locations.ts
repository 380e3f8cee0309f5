import type { LocationStores } from "@z/meta";
import { HttpByteSource } from "./http-byte-source.js";
import { HttpStore, type HttpStoreOptions } from "./http-store.js";

/**
 * http(s) URLs for `openLocation` of `@z/core` (the `LocationStores` contract of `@z/meta`): a
 * Zarr hierarchy opens as an {@link HttpStore}, a remote zip file as an {@link HttpByteSource}
 * read by ranges, both with `options` (headers, retries, concurrency, ...):
 * `openLocation("https://host/data.zarr", { ...httpLocations({ headers }) })`.
 */
export function httpLocations(options: HttpStoreOptions = {}): LocationStores {
  return {
    openHttp: (url) => new HttpStore(url, options),
    openHttpWithHeaders: (url, headers) => new HttpStore(url, { ...options, headers }),
    openHttpFile: (url) => new HttpByteSource(url, options),
  };
}
