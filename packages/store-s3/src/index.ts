/**
 * A Zarr store in an S3 bucket (AWS S3, MinIO, Cloudflare R2, Ceph, Google Cloud Storage's
 * interoperability mode): ranged GETs, PUT, DELETE, ListObjectsV2 listings, SigV4 signing (by
 * aws4fetch), retries with backoff and bounded concurrency, over `fetch`. Browser-safe; in Node
 * (the package's `node` export condition) the `AWS_*` environment variables fill in what the
 * options leave out, and requests go through `@z/http-client`'s HTTP/1.1 client and `node:https` instead of `fetch`.
 *
 * ```ts
 * import { S3Store } from "@z/store-s3";
 *
 * const store = new S3Store({ bucket: "my-bucket", prefix: "data/x.zarr", region: "eu-west-1" });
 * const meta = await store.get(".zarray"); // undefined when the key is missing
 * ```
 *
 * @packageDocumentation
 */
export { S3Store } from "./s3-store.js";
export { S3StoreError } from "./errors.js";
export type { S3Credentials, S3StoreOptions, FetchFunction } from "./options.js";
export type { Environment } from "./environment.js";
export { parseS3Url, s3Locations, type S3Locations } from "./locations.js";
export { s3StoreDriver } from "./driver.js";
export type { S3KvStoreSpec, SpecS3Options } from "./kvstore-spec.js";
