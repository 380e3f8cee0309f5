import { stat, unlink } from "node:fs/promises";
import { resolve } from "node:path";
import {
  CONSOLIDATED_KEY,
  ConsolidatedStore,
  LocationError,
  openLocation,
  parseLocation,
  type Location,
} from "@z/core";
import { isListable, joinPath, ZarrError, type Store } from "@z/meta";
import { DirectoryStore, fileByteSource } from "@z/store-fs";
import { httpLocations } from "@z/store-http";
import { zipLocations } from "@z/store-zip";
import { CommandError, UsageError } from "./command.js";

// Every STORE argument goes through this file. Parsing and opening are @z/core's (`parseLocation`,
// `openLocation`, given the openers of the store packages the CLI depends on); this adds the CLI's
// checks (a missing store, a file where a directory should be) and closes what it opened, so zip
// files get their central directory.

/**
 * What a STORE argument names (core's `Location`, local paths made absolute): a directory, a zip
 * file (local or `http(s)://`), or an HTTP store, and the node path inside it.
 */
export type StoreLocation = Location;

/** A store opened from a STORE argument, with the node path it (and `--path`) point at. */
export interface OpenedStore {
  readonly store: Store;
  /** The node path: the argument's own path (`|zarr2:sub/path`) joined with `--path`. */
  readonly path: string;
  readonly location: StoreLocation;
  /** Closes the store: a zip file written to gets its central directory here. */
  close(): Promise<void>;
}

/**
 * Reads a STORE argument (no I/O):
 * - a directory path (`data.zarr`, `/abs/data.zarr`) or a `.zip` file;
 * - a `file://` or `http(s)://` URL (a URL ending in `.zip` is a zip file read with range requests);
 * - a TensorStore-style URL pipeline, `file:///abs/data.zarr|zarr2:sub/path` (also `zarr:`), or
 *   `https://host/x.zip|zip:inner|zarr2:a`, whose `zarr2:` part names a node inside the store.
 * Bad arguments are `UsageError`s.
 */
export function parseStoreArg(text: string): StoreLocation {
  if (text === "") throw new UsageError("STORE must not be empty");
  let location: Location;
  try {
    location = parseLocation(text);
  } catch (error) {
    if (error instanceof LocationError) throw new UsageError(error.message);
    if (error instanceof TypeError) throw new UsageError(`${text}: not a valid URL`); // new URL()
    throw error;
  }
  if (location.kind === "directory") return { ...location, path: resolve(location.path) };
  if (location.kind === "zip" && !location.remote) return { ...location, file: resolve(location.file) };
  return location;
}

/** How a location is named in messages. */
export function describeLocation(location: StoreLocation): string {
  switch (location.kind) {
    case "directory":
      return location.path;
    case "zip":
      return location.file;
    case "http":
      return location.url;
  }
}

export interface OpenStoreOptions {
  /**
   * `read`: the store must exist; `update`: it must exist and is opened for writing too; `write`:
   * it is created when missing (a directory on first write, a zip file at once).
   */
  readonly mode: "read" | "update" | "write";
  /** The `--path` flag, joined to the argument's own path. */
  readonly path?: string;
}

/** Opens the store a STORE argument names. A missing store is a `CommandError` (exit 1). */
export async function openStore(text: string, options: OpenStoreOptions): Promise<OpenedStore> {
  const location = parseStoreArg(text);
  let path: string;
  try {
    path = joinPath(location.node, options.path);
  } catch (cause) {
    throw new UsageError(`--path: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  const write = options.mode !== "read";
  const create = options.mode === "write";
  let created: string | undefined; // a zip file this call creates: removed again when nothing was written to it
  switch (location.kind) {
    case "directory": {
      const info = await stat(location.path).catch(() => undefined);
      if (info === undefined && !create) throw new CommandError(`no such store: ${text}`, { key: location.path });
      if (info !== undefined && !info.isDirectory())
        throw new CommandError(`${text} is not a directory store`, { key: location.path });
      break;
    }
    case "zip": {
      if (location.remote) {
        if (write) throw new UsageError(`${text}: zip files over HTTP are read-only`);
        break;
      }
      const info = await stat(location.file).catch(() => undefined);
      if (info === undefined && !create) throw new CommandError(`no such store: ${text}`, { key: location.file });
      if (info !== undefined && !info.isFile())
        throw new CommandError(`${text} is not a zip file`, { key: location.file });
      if (info === undefined) created = location.file;
      break;
    }
    case "http":
      if (write) throw new UsageError(`${text}: HTTP stores are read-only`);
      break;
  }
  // ZipStore.close() leaves its byte source open (it belongs to the caller): the files opened here
  // are closed with the store.
  const files: { close(): Promise<void> }[] = [];
  let store: Store;
  try {
    ({ store } = await openLocation(text, {
      ...httpLocations(),
      ...zipLocations,
      openDirectory: (dir) => new DirectoryStore(resolve(dir)),
      openFile: async (file, writable) => {
        const source = await fileByteSource(resolve(file), { writable });
        files.push(source);
        return source;
      },
      writable: write,
    }));
  } catch (error) {
    await Promise.all(files.map((f) => f.close()));
    if (created !== undefined) await removeIfEmpty(created);
    if (error instanceof LocationError) throw new UsageError(error.message);
    if (error instanceof ZarrError && location.kind === "zip")
      throw new CommandError(`${text} is not a readable zip file: ${error.message}`, {
        key: describeLocation(location),
        cause: error,
      });
    throw error;
  }
  if (options.mode === "read") store = await throughConsolidated(store, path);
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    // a new zip file nothing was written to is removed again rather than left as an empty archive
    const unused = created !== undefined && isListable(store) && (await store.list().catch(() => [""])).length === 0;
    try {
      // a ZipStore (zipLocations): close() writes the central directory
      if (location.kind === "zip") await (store as Store & { close(): Promise<void> }).close();
    } finally {
      await Promise.all(files.map((f) => f.close()));
      if (unused) await unlink(created!).catch(() => undefined);
    }
  };
  return { store, path, location, close };
}

/**
 * Reads a hierarchy through its root's `.zmetadata`, as `openConsolidated`, when that is the way to
 * read it: when the store cannot list its keys (plain HTTP), where the consolidated document is
 * what tells a group's members, and when the node has no metadata document of its own (a hierarchy
 * published with consolidated metadata only). A store that can list is otherwise read as it is, so
 * a stale `.zmetadata` hides nothing there.
 */
async function throughConsolidated(store: Store, path: string): Promise<Store> {
  const prefix = path === "" ? "" : `${path}/`;
  const has = async (key: string): Promise<boolean> => (await store.get(key)) !== undefined;
  if (!isListable(store))
    return (await has(CONSOLIDATED_KEY)) ? ConsolidatedStore.load(store, CONSOLIDATED_KEY) : store;
  if ((await has(`${prefix}.zarray`)) || (await has(`${prefix}.zgroup`)) || (path === "" && (await has("meta"))))
    return store;
  return (await has(CONSOLIDATED_KEY)) ? ConsolidatedStore.load(store, CONSOLIDATED_KEY) : store;
}

/**
 * Whether the store lists its data keys (chunks) too. A `ConsolidatedStore` over a store that
 * cannot list lists only the metadata of its document: counting chunks from that would say none
 * are stored.
 */
export function listsChunks(store: Store): store is Store & { list(prefix?: string): Promise<string[]> } {
  if (store instanceof ConsolidatedStore) return isListable(store.inner);
  return isListable(store);
}

/** Runs `fn` on the store a STORE argument names, closing it afterwards (also on failure). */
export async function withStore<T>(
  text: string,
  options: OpenStoreOptions,
  fn: (opened: OpenedStore) => Promise<T>,
): Promise<T> {
  const opened = await openStore(text, options);
  let result: T;
  try {
    result = await fn(opened);
  } catch (error) {
    await opened.close().catch(() => undefined); // the first error is the one to report
    throw error;
  }
  await opened.close();
  return result;
}

async function removeIfEmpty(file: string): Promise<void> {
  const info = await stat(file).catch(() => undefined);
  if (info !== undefined && info.size === 0) await unlink(file).catch(() => undefined);
}
