import { LocationError } from "./location-error.js";
import { joinPath, normalizeStoragePath } from "./path.js";
import type { LocationStores, Store } from "./store.js";
import {
  registeredLocationOpener,
  STORE_PACKAGES,
  storeDriverForScheme,
  storePackageForOpener,
} from "./store-registry.js";

/**
 * Where a location string points: a directory, a zip file, an HTTP resource or an S3 bucket, and
 * the node path inside it. Locations are a directory path (`data.zarr`), a `.zip` file, a `file://`,
 * `http(s)://` or `s3://bucket/path` URL, or a TensorStore-style pipeline such as
 * `file:///data/x.zarr|zarr2:a/b`, `s3://bucket/x.zarr|zarr3:a/b` or `https://host/x.zip|zip:inner|zarr2:a`.
 * A URL of another scheme is a `url` location when a store driver is registered for its scheme
 * (`registerStoreDriver` of `@z/meta`), opened by that driver's `openUrl`.
 * A kerchunk reference set is `reference://` and its file's location (`reference://https://host/refs.json`),
 * a path or URL ending in `.json`, `.parq` or `.parquet`, or a pipeline with `|reference:`
 * (`https://host/refs|reference:|zarr2:temp`).
 */
export type Location =
  | { readonly kind: "directory"; readonly path: string; readonly node: string }
  | { readonly kind: "zip"; readonly file: string; readonly remote: boolean; readonly node: string }
  | { readonly kind: "http"; readonly url: string; readonly node: string }
  | { readonly kind: "s3"; readonly url: string; readonly node: string }
  | { readonly kind: "url"; readonly scheme: string; readonly url: string; readonly node: string }
  | { readonly kind: "reference"; readonly file: string; readonly node: string };

/**
 * The node part of a pipeline: TensorStore's `zarr2:` and `zarr3:` (and `zarr:`). Either names the
 * node's path; which format is there is read from the store (zarr.json, else .zarray/.zgroup).
 */
const ZARR_PART = /^zarr[23]?:/;

/** Parses a location string (see {@link Location}); no I/O. */
export function parseLocation(text: string): Location {
  if (text === "") throw new LocationError("a location must not be empty");
  const [base, ...parts] = text.split("|") as [string, ...string[]];
  let node = "";
  let inner: string | undefined;
  // (a Zarr v3 node's own zarr.json is not a reference file)
  let reference =
    /^reference:\/\//i.test(base) || (/\.(json|parq|parquet)\/?$/i.test(base) && !/(^|\/)zarr\.json$/i.test(base));
  for (const part of parts) {
    if (part === "reference:") reference = true;
    else if (ZARR_PART.test(part)) node = joinPath(node, decode(part.slice(part.indexOf(":") + 1), text));
    else if (part.startsWith("zip:")) inner = decode(part.slice(4), text);
    else
      throw new LocationError(
        `${text}: unknown part ${JSON.stringify(part)} (expected zip:PATH, zarr2:PATH or zarr3:PATH)`,
      );
  }
  if (reference) {
    const file = base.replace(/^reference:\/\//i, "");
    if (file === "") throw new LocationError(`${text}: expected reference://PATH-OR-URL of a reference file`);
    return { kind: "reference", file: /^file:/i.test(file) ? filePath(file, text) : file, node };
  }
  const isZip = (name: string): boolean => inner !== undefined || /\.zip$/i.test(name);
  const inZip = (): string => joinPath(inner ?? "", node);
  if (/^https?:\/\//i.test(base)) {
    return isZip(new URL(base).pathname)
      ? { kind: "zip", file: base, remote: true, node: inZip() }
      : { kind: "http", url: base, node };
  }
  if (/^s3:\/\//i.test(base)) {
    if (isZip(base))
      throw new LocationError(`${text}: zip files in S3 are not supported (copy the hierarchy out of the zip)`);
    if (!/^s3:\/\/[^/?#]+(\/[^?#]*)?$/i.test(base))
      throw new LocationError(`${text}: expected s3://bucket or s3://bucket/path`);
    return { kind: "s3", url: base, node };
  }
  let path = base;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(base)?.[1]?.toLowerCase();
  if (/^file:/i.test(base)) path = filePath(base, text);
  else if (scheme !== undefined && storeDriverForScheme(scheme)?.openUrl !== undefined) {
    if (inner !== undefined) throw new LocationError(`${text}: zip files in ${scheme}:// stores are not supported`);
    return { kind: "url", scheme, url: base, node };
  } else if (scheme !== undefined)
    throw new LocationError(
      `${text}: unsupported URL scheme (expected a path, file://, http(s):// or s3://, or a scheme a registered store driver opens)`,
    );
  return isZip(path) ? { kind: "zip", file: path, remote: false, node: inZip() } : { kind: "directory", path, node };
}

/**
 * What `openLocation` opens stores with (`LocationStores`), and whether zip files are
 * opened for writing too (default: read-only).
 */
export interface LocationOptions extends LocationStores {
  /** Open zip files for writing too (default: read-only). */
  writable?: boolean;
}

/** A store opened from a location. `close()` finishes it: a zip's central directory, its file handle. */
export interface OpenedLocation {
  readonly store: Store;
  /** The node path inside the store. */
  readonly path: string;
  readonly location: Location;
  close(): Promise<void>;
}

/** The openers a location needs: `openHttp` for an HTTP store, `openFile` and `openZip` for a local zip, ... */
export function openersFor(location: Location): (keyof LocationStores)[] {
  switch (location.kind) {
    case "http":
      return ["openHttp"];
    case "directory":
      return ["openDirectory"];
    case "s3":
      return ["openS3"];
    case "url":
      return [];
    case "zip":
      return location.remote ? ["openHttpFile", "openZip"] : ["openFile", "openZip"];
    case "reference":
      // and the opener of the reference file's own location (its targets' are looked up when read)
      return [
        "openReference",
        /^https?:/i.test(location.file) ? "openHttp" : /^s3:/i.test(location.file) ? "openS3" : "openDirectory",
      ];
  }
}

/** What locations of this kind are called in messages ("local zip files", ...). */
export const describeLocationKind = (location: Location): string =>
  location.kind === "url"
    ? `${location.scheme}:// URLs`
    : location.kind === "reference"
      ? "reference sets"
      : location.kind === "s3"
        ? "S3 buckets"
        : location.kind === "http"
          ? "http(s) URLs"
          : location.kind === "directory"
            ? "local directories"
            : location.remote
              ? "zip files over http(s)"
              : "local zip files";

/**
 * The store a location names, and the node path inside it, opened with the openers in `options`
 * only (this entry runs in browsers: it imports no store package). Pass those of the packages you
 * use: `openLocation(url, { ...httpLocations() })` with `httpLocations` from `@z/store-http`, add
 * `...zipLocations` (`@z/store-zip`) for zip files. A missing one is a `LocationError` naming the
 * package and export. Store drivers registered with `registerStoreDriver` (`@z/meta`) give the
 * openers not passed, and open the URLs of their own schemes. `@z/core/node`'s `openLocation`
 * finds the store packages installed by itself.
 */
export async function openLocation(text: string, options: LocationOptions = {}): Promise<OpenedLocation> {
  const location = parseLocation(text);
  const { openers, missing } = withRegisteredOpeners(location, options);
  for (const opener of missing) {
    const pkg = storePackageForOpener(opener);
    const from = STORE_PACKAGES[pkg].locations;
    const local = opener === "openDirectory" || opener === "openFile";
    throw new LocationError(
      `${text}: ${describeLocationKind(location)} need ${pkg} (npm install ${pkg}): ` +
        (local
          ? `they open in Node, with openLocation of "@z/core/node", or pass { ...${from} } of ${pkg}`
          : `pass { ...${from} } to openLocation, with ${from.replace("()", "")} from "${pkg}"`),
      { packageName: pkg },
    );
  }
  return openWith(location, openers as LocationOptions, options.writable ?? false);
}

/**
 * `options` with the openers `location` needs and they lack taken from the registered store
 * drivers, and the openers still missing after that.
 */
export function withRegisteredOpeners(
  location: Location,
  options: LocationOptions,
): { openers: Record<string, unknown>; missing: (keyof LocationStores)[] } {
  const openers: Record<string, unknown> = { ...options };
  const missing: (keyof LocationStores)[] = [];
  for (const opener of openersFor(location)) {
    if (typeof openers[opener] === "function") continue;
    const registered = registeredLocationOpener(opener);
    if (registered === undefined) missing.push(opener);
    else openers[opener] = registered;
  }
  return { openers, missing };
}

/** `options` with every opener of z's store packages it lacks that a registered driver gives. */
function allOpeners(options: LocationOptions): LocationStores {
  const all: Record<string, unknown> = { ...options };
  for (const { openers } of Object.values(STORE_PACKAGES))
    for (const opener of openers) all[opener] ??= registeredLocationOpener(opener);
  return all as LocationStores;
}

/** Opens a parsed location with openers that are all there (`openLocation` checked them). */
async function openWith(location: Location, options: LocationOptions, writable: boolean): Promise<OpenedLocation> {
  const nothing = async (): Promise<void> => {};
  switch (location.kind) {
    case "url": {
      const store = await storeDriverForScheme(location.scheme)!.openUrl!(location.url, { writable });
      const close = async (): Promise<void> => await (store as { close?: () => Promise<void> }).close?.();
      return { store, path: location.node, location, close };
    }
    case "http":
      return { store: options.openHttp!(location.url), path: location.node, location, close: nothing };
    case "directory":
      return { store: await options.openDirectory!(location.path), path: location.node, location, close: nothing };
    case "s3":
      return { store: options.openS3!(location.url), path: location.node, location, close: nothing };
    case "reference":
      return {
        // Its targets may be anywhere: every opener given or registered, not only the file's.
        store: await options.openReference!(location.file, allOpeners(options)),
        path: location.node,
        location,
        close: nothing,
      };
    case "zip": {
      const source = location.remote
        ? options.openHttpFile!(location.file)
        : await options.openFile!(location.file, writable);
      const store = await options.openZip!(source, { writable });
      const close = async (): Promise<void> => {
        await store.close();
        await (source as { close?: () => Promise<void> }).close?.();
      };
      return { store, path: location.node, location, close };
    }
  }
}

function decode(text: string, whole: string): string {
  try {
    return normalizeStoragePath(decodeURIComponent(text));
  } catch (cause) {
    throw new LocationError(
      `${whole}: bad path ${JSON.stringify(text)} (${cause instanceof Error ? cause.message : String(cause)})`,
    );
  }
}

/** A `file:` URL's path, without Node's `url` module (this file runs in browsers too). */
function filePath(url: string, whole: string): string {
  const parsed = new URL(url);
  if (parsed.host !== "" && parsed.host !== "localhost")
    throw new LocationError(`${whole}: file URLs on other hosts are not supported`);
  return decodeURIComponent(parsed.pathname);
}
