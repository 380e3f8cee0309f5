import { type LocationStores, type Store, StoreError } from "@z/meta";
import type { S3StoreOptions } from "./options.js";
import { S3Store } from "./s3-store.js";

/** The bucket and the prefix in it of an `s3://bucket/path/x.zarr` URL (the path percent-decoded). */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/?#]+)(\/[^?#]*)?$/i.exec(url);
  if (match === null)
    throw new StoreError(`${JSON.stringify(url)} is not an S3 URL: expected s3://bucket or s3://bucket/path`);
  let prefix: string;
  try {
    prefix = decodeURIComponent(match[2] ?? "");
  } catch {
    throw new StoreError(`${JSON.stringify(url)}: bad percent-encoding in the path`);
  }
  return { bucket: match[1] ?? "", prefix: prefix.replace(/^\/+|\/+$/g, "") };
}

/** How `openLocation` opens `s3://` URLs: `openS3(url)` gives an {@link S3Store} with these options. */
export interface S3Locations extends LocationStores {
  /**
   * An {@link S3Store} on the URL's bucket, with the URL's path as its prefix; `options` (those a
   * TensorStore spec's s3 kvstore names: endpoint, region, ...) take precedence over the ones
   * {@link s3Locations} was given.
   */
  openS3(url: string, options?: Omit<S3StoreOptions, "bucket" | "prefix">): Store;
}

/**
 * The opener of `s3://bucket/path` locations, for `openLocation` (in browsers; `@z/core/node`
 * loads this package itself when it is installed): the options every store gets (region,
 * endpoint, credentials, concurrency, ...), the bucket and prefix coming from each URL.
 *
 * ```ts
 * // openLocation from @z/core
 * const { store, path } = await openLocation("s3://bucket/x.zarr|zarr2:group/array", {
 *   ...s3Locations({ region: "eu-west-1", anonymous: true }),
 * });
 * ```
 */
export function s3Locations(options: Omit<S3StoreOptions, "bucket" | "prefix"> = {}): S3Locations {
  return {
    openS3: (url, extra = {}) => new S3Store({ ...options, ...defined(extra), ...parseS3Url(url) }),
  };
}

/** The options that are set (an option given as `undefined` leaves the one before it). */
const defined = <T extends object>(options: T): Partial<T> =>
  Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
