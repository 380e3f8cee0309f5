import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { joinPath, normalizeStoragePath, ZarrError, type Store } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { CommandError, UsageError } from "./command.js";

// Every STORE argument goes through this file, so new kinds of store (zip files, HTTP) slot in here.

/** What a STORE argument names: a kind of store, where it is, and a path inside it. */
export type StoreLocation =
  | { readonly kind: "directory"; readonly root: string; readonly path: string }
  | { readonly kind: "zip"; readonly file: string; readonly path: string }
  | { readonly kind: "http"; readonly url: string; readonly path: string };

/** A store opened from a STORE argument, with the node path it (and `--path`) point at. */
export interface OpenedStore {
  readonly store: Store;
  /** The node path: the argument's own path (`|zarr2:sub/path`) joined with `--path`. */
  readonly path: string;
  readonly location: StoreLocation;
  close(): Promise<void>;
}

const TENSORSTORE_ZARR = /^zarr2?:/;

/**
 * Reads a STORE argument:
 * - a directory path (`data.zarr`, `/abs/data.zarr`);
 * - a `file://` URL (`file:///abs/data.zarr`);
 * - a TensorStore-style URL pipeline, `file:///abs/data.zarr|zarr2:sub/path` (also `zarr:`), whose
 *   `zarr2:` part names a node inside the store;
 * - `*.zip` paths and `http(s)://` URLs are recognised, and refused until their stores exist.
 */
export function parseStoreArg(text: string): StoreLocation {
  if (text === "") throw new UsageError("STORE must not be empty");
  const [base, ...adapters] = text.split("|");
  let path = "";
  let zip: string | undefined;
  for (const adapter of adapters) {
    if (TENSORSTORE_ZARR.test(adapter)) path = joinPath(path, decodePath(adapter.slice(adapter.indexOf(":") + 1), text));
    else if (adapter.startsWith("zarr3:")) throw new UsageError(`${text}: Zarr v3 is not supported (this reads and writes Zarr v2)`);
    else if (adapter.startsWith("zip:")) zip = decodePath(adapter.slice(4), text);
    else throw new UsageError(`${text}: unknown URL part ${JSON.stringify(adapter)} (expected zarr2:PATH)`);
  }
  let location: StoreLocation;
  if (/^https?:\/\//i.test(base!)) {
    location = { kind: "http", url: base!, path };
  } else if (/^file:/i.test(base!)) {
    let file: string;
    try {
      file = fileURLToPath(base!);
    } catch (cause) {
      throw new UsageError(`${text}: not a valid file URL (${cause instanceof Error ? cause.message : String(cause)})`);
    }
    location = zip !== undefined || /\.zip$/i.test(file) ? { kind: "zip", file, path: joinPath(zip, path) } : { kind: "directory", root: file, path };
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(base!)) {
    throw new UsageError(`${text}: unsupported URL scheme (expected a directory, file://, or http(s)://)`);
  } else {
    const file = resolve(base!);
    location = zip !== undefined || /\.zip$/i.test(file) ? { kind: "zip", file, path: joinPath(zip, path) } : { kind: "directory", root: file, path };
  }
  return location;
}

function decodePath(text: string, arg: string): string {
  try {
    return normalizeStoragePath(decodeURIComponent(text));
  } catch (cause) {
    if (cause instanceof ZarrError) throw new UsageError(`${arg}: ${cause.message}`);
    throw new UsageError(`${arg}: bad percent-encoding in ${JSON.stringify(text)}`);
  }
}

/** How a location is named in messages. */
export function describeLocation(location: StoreLocation): string {
  switch (location.kind) {
    case "directory":
      return location.root;
    case "zip":
      return location.file;
    case "http":
      return location.url;
  }
}

export interface OpenStoreOptions {
  /** `read`: the store must exist; `write`: it is created when missing (a directory on first write). */
  readonly mode: "read" | "write";
  /** The `--path` flag, joined to the argument's own path. */
  readonly path?: string;
}

/** Opens the store a STORE argument names. A missing store is a `CommandError` (exit 1). */
export async function openStore(text: string, options: OpenStoreOptions): Promise<OpenedStore> {
  const location = parseStoreArg(text);
  let path: string;
  try {
    path = joinPath(location.path, options.path);
  } catch (cause) {
    throw new UsageError(`--path: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  switch (location.kind) {
    case "directory": {
      const info = await stat(location.root).catch(() => undefined);
      if (info === undefined && options.mode === "read") throw new CommandError(`no such store: ${text}`, { key: location.root });
      if (info !== undefined && !info.isDirectory()) throw new CommandError(`${text} is not a directory store`, { key: location.root });
      const store = new DirectoryStore(location.root);
      return { store, path, location, close: async () => undefined };
    }
    case "zip":
      throw new UsageError(`${text}: zip stores are not supported yet`);
    case "http":
      throw new UsageError(`${text}: HTTP stores are not supported yet`);
  }
}
