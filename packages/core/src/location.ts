import { joinPath, normalizeStoragePath, ZarrError, type ByteSource, type Store } from "@z/meta";
import { HttpByteSource, HttpStore, type HttpStoreOptions } from "@z/store-http";
import { ZipStore } from "@z/store-zip";

/**
 * Where a location string points: a directory, a zip file or an HTTP resource, and the node path
 * inside it. Locations are a directory path (`data.zarr`), a `.zip` file, a `file://` or
 * `http(s)://` URL, or a TensorStore-style pipeline such as `file:///data/x.zarr|zarr2:a/b` or
 * `https://host/x.zip|zip:inner|zarr2:a`.
 */
export type Location =
  | { readonly kind: "directory"; readonly path: string; readonly node: string }
  | { readonly kind: "zip"; readonly file: string; readonly remote: boolean; readonly node: string }
  | { readonly kind: "http"; readonly url: string; readonly node: string };

/** A location string that cannot be read, or names a store this environment cannot open. */
export class LocationError extends ZarrError {
  constructor(message: string) {
    super("ZARR_LOCATION", message);
  }
}

const ZARR_PART = /^zarr2?:/;

/** Parses a location string (see {@link Location}); no I/O. */
export function parseLocation(text: string): Location {
  if (text === "") throw new LocationError("a location must not be empty");
  const [base, ...parts] = text.split("|") as [string, ...string[]];
  let node = "";
  let inner: string | undefined;
  for (const part of parts) {
    if (ZARR_PART.test(part)) node = joinPath(node, decode(part.slice(part.indexOf(":") + 1), text));
    else if (part.startsWith("zip:")) inner = decode(part.slice(4), text);
    else if (part.startsWith("zarr3:"))
      throw new LocationError(`${text}: Zarr v3 is not supported (this reads and writes Zarr v2)`);
    else throw new LocationError(`${text}: unknown part ${JSON.stringify(part)} (expected zip:PATH or zarr2:PATH)`);
  }
  const isZip = (name: string): boolean => inner !== undefined || /\.zip$/i.test(name);
  const inZip = (): string => joinPath(inner ?? "", node);
  if (/^https?:\/\//i.test(base)) {
    return isZip(new URL(base).pathname)
      ? { kind: "zip", file: base, remote: true, node: inZip() }
      : { kind: "http", url: base, node };
  }
  let path = base;
  if (/^file:/i.test(base)) path = filePath(base, text);
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(base))
    throw new LocationError(`${text}: unsupported URL scheme (expected a path, file:// or http(s)://)`);
  return isZip(path) ? { kind: "zip", file: path, remote: false, node: inZip() } : { kind: "directory", path, node };
}

/** What opening a location needs from its environment: local files exist only outside browsers. */
export interface LocationOptions {
  http?: HttpStoreOptions;
  /** Opens a local directory (given by `@z/core/node`). */
  directory?: (path: string) => Store | Promise<Store>;
  /** Opens a local file as a byte source (given by `@z/core/node`). */
  file?: (path: string, writable: boolean) => ByteSource | Promise<ByteSource>;
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

/** The store a location names, and the node path inside it. */
export async function openLocation(text: string, options: LocationOptions = {}): Promise<OpenedLocation> {
  const location = parseLocation(text);
  const nothing = async (): Promise<void> => {};
  switch (location.kind) {
    case "http":
      return { store: new HttpStore(location.url, options.http), path: location.node, location, close: nothing };
    case "directory": {
      if (options.directory === undefined)
        throw new LocationError(`${text}: local directories open only in Node (import from "@z/core/node")`);
      return { store: await options.directory(location.path), path: location.node, location, close: nothing };
    }
    case "zip": {
      const source = location.remote
        ? new HttpByteSource(location.file, options.http)
        : options.file === undefined
          ? unavailable(text)
          : await options.file(location.file, options.writable ?? false);
      const store = await ZipStore.open(source, { mode: options.writable ? "a" : "r" });
      const close = async (): Promise<void> => {
        await store.close();
        await (source as { close?: () => Promise<void> }).close?.();
      };
      return { store, path: location.node, location, close };
    }
  }
}

const unavailable = (text: string): never => {
  throw new LocationError(`${text}: local zip files open only in Node (import from "@z/core/node")`);
};

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
