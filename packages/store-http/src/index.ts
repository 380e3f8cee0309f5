/**
 * A Zarr store over HTTP(S) with `fetch` (in Node, `node:net` and `node:https`): range requests, retries with
 * backoff, a concurrency limit, timeouts, optional writes with PUT/DELETE; and
 * {@link HttpByteSource}, one remote file read by ranges (for `@z/store-zip`'s `ZipStore`).
 *
 * ```ts
 * import { HttpStore } from "@z/store-http";
 *
 * const store = new HttpStore("https://example.com/data.zarr/", { concurrency: 8 });
 * const meta = await store.get(".zarray"); // undefined when the server answers 404
 * ```
 *
 * @packageDocumentation
 */
export { HttpStore, type HttpStoreOptions } from "./http-store.js";
export { HttpByteSource } from "./http-byte-source.js";
export { HttpStoreError } from "./errors.js";
export type { HttpOptions } from "./options.js";
export { httpLocations } from "./locations.js";
export { httpStoreDriver } from "./driver.js";
// Which transport stores made from then on use when their options name no `fetch` (the Node entry
// sets `@z/http-client/node`'s; a benchmark or an app may set another, as apps/bench/micro/ does).
export { setDefaultTransport } from "./transport.js";
export type { HttpKvStoreSpec } from "./kvstore-spec.js";
// HttpStoreError is a StoreError (defined in @z/meta), as are the other errors these stores throw.
export { StoreError } from "@z/meta";
