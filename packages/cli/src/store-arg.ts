import { readFileSync } from "node:fs";
import { stat, unlink } from "node:fs/promises";
import { resolve } from "node:path";
import {
  CONSOLIDATED_KEY,
  ConsolidatedStore,
  LocationError,
  openConsolidated,
  openLocation,
  parseLocation,
  type Location,
} from "@z/core";
import { parseSpecText, type KvStoreSpec, type MemoryKvStoreSpec, type RegisteredKvStoreSpec } from "@z/spec";
import { openSpec, openSpecStore } from "@z/spec/node";
import { isListable, joinPath, MetadataError, ZarrError, type JsonValue, type Store } from "@z/meta";
import { DirectoryStore, fileByteSource, type FileKvStoreSpec } from "@z/store-fs";
import type { HttpKvStoreSpec } from "@z/store-http";
import type { S3KvStoreSpec } from "@z/store-s3";
import type { ZipKvStoreSpec } from "@z/store-zip";
import { CommandError, UsageError } from "./command.js";
import { registerCliStoreDrivers } from "./store-drivers.js";

// Every STORE argument goes through this file. Parsing and opening are @z/core's (`parseLocation`,
// `openLocation`, with the store drivers registered in @z/meta's registry: the CLI's own store
// packages' and those ZARR_STORES loads); this adds the CLI's checks (a missing store, a file where
// a directory should be) and closes what it opened, so zip files get their central directory.

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
 * - an `s3://bucket/path` URL (through `@z/store-s3`, with `AWS_*` from the environment);
 * - a kerchunk reference set: `reference://PATH-OR-URL`, or a `.json` file or `.parq` directory;
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
  if (location.kind === "reference" && !/^[a-z][a-z0-9+.-]*:\/\//i.test(location.file))
    return { ...location, file: resolve(location.file) };
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
    case "s3":
    case "url":
      return location.url;
    case "reference":
      return location.file;
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
  /**
   * How a local directory (an argument, a `file://` URL, a spec's `file` kvstore) is opened;
   * default a `DirectoryStore`. `zarr serve` passes one that refuses links leading outside.
   */
  readonly openDirectory?: (root: string) => Store;
}

/**
 * Whether a STORE argument is a TensorStore spec: JSON text (`{"driver": "zarr2", ...}`) or
 * `@file` naming a file of it.
 */
export const isSpecArg = (text: string): boolean => /^\s*\{/.test(text) || text.startsWith("@");

/**
 * A TensorStore spec given as a STORE argument or `--spec`: inline JSON, `@file`, or (for
 * `--spec`, `fileToo`) a file path. Bad JSON or an unreadable file is a `UsageError`.
 */
export function readSpecArg(text: string, fileToo = false): JsonValue {
  const inline = /^\s*\{/.test(text);
  const file = text.startsWith("@") ? text.slice(1) : fileToo && !inline ? text : undefined;
  let source = text;
  if (file !== undefined) {
    try {
      source = readFileSync(resolve(file), "utf8");
    } catch (cause) {
      throw new UsageError(
        `cannot read the spec file ${file}: ${cause instanceof Error ? cause.message : String(cause)}`,
      );
    }
  }
  try {
    return parseSpecText(source);
  } catch (error) {
    if (error instanceof MetadataError) throw new UsageError(`the spec is not valid JSON: ${error.message}`);
    throw error;
  }
}

/** The spec with `--path` joined as its legacy `path` member (after the kvstore's own path). */
export function specWithPath(spec: JsonValue, path: string | undefined): JsonValue {
  if (path === undefined || path === "") return spec;
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) return spec;
  const own = (spec as { path?: unknown }).path;
  return { ...spec, path: typeof own === "string" && own !== "" ? `${own.replace(/\/+$/, "")}/${path}` : path };
}

/** What a spec's kvstore is, as the CLI names locations (each store's kvstore as its hook reads it). */
function specLocation(kvstore: KvStoreSpec, node: string, text: string): StoreLocation {
  const spec = kvstore as
    | FileKvStoreSpec
    | HttpKvStoreSpec
    | ZipKvStoreSpec
    | S3KvStoreSpec
    | MemoryKvStoreSpec
    | RegisteredKvStoreSpec;
  switch (spec.driver) {
    case "file":
      return { kind: "directory", path: resolve(spec.path.replace(/\/+$/, "") || "."), node };
    case "http":
      return { kind: "http", url: `${spec.baseUrl.replace(/\/+$/, "")}/${spec.path.replace(/^\/+/, "")}`, node };
    case "zip":
      return {
        kind: "zip",
        file: spec.base.driver === "file" ? resolve(spec.base.path) : spec.base.path,
        remote: spec.base.driver === "http",
        node,
      };
    case "s3":
      return { kind: "s3", url: `s3://${spec.bucket}/${spec.path}`, node };
    case "registered":
      return { kind: "url", scheme: spec.name, url: spec.url ?? `${spec.name}:${spec.path}`, node };
    case "memory":
      throw new UsageError(`${text}: a "memory" kvstore lives inside one process; the CLI cannot open one`);
  }
  // A third party's kvstore, read by its own driver's hook.
  return { kind: "url", scheme: kvstore.driver, url: `${kvstore.driver}:${kvstore.path}`, node };
}

/**
 * Opens the store a spec's kvstore names. An array at the spec's path is opened with `openSpec`,
 * so a spec whose constraints the stored array does not meet fails here, naming the member.
 */
async function openSpecArg(text: string, options: OpenStoreOptions): Promise<OpenedStore> {
  const spec = specWithPath(readSpecArg(text), options.path);
  // A spec the library refuses is a ZarrError (SpecError, exit 1) naming the member at fault.
  const opened = await openSpecStore(spec, {
    readOnly: options.mode === "read",
    ...(options.openDirectory === undefined ? {} : { openDirectory: options.openDirectory }),
  });
  const location = specLocation(opened.kvstore, opened.path, text);
  if (options.mode !== "write") {
    const prefix = opened.path === "" ? "" : `${opened.path}/`;
    const metadataKey = (spec as { metadata_key?: unknown }).metadata_key;
    const key = prefix + (typeof metadataKey === "string" ? metadataKey : ".zarray");
    if (location.kind === "directory" && (await stat(location.path).catch(() => undefined)) === undefined)
      throw new CommandError(`no such store: ${describeLocation(location)}`, { key: location.path });
    if ((await opened.store.get(key)) !== undefined) await openSpec(spec, { readOnly: options.mode === "read" });
  }
  const store = options.mode === "read" ? await throughConsolidated(opened.store, opened.path) : opened.store;
  return { store, path: opened.path, location, close: () => opened.close() };
}

/** The array a spec names, opened with `openSpec` (checked against the spec, with its behaviour). */
export function openSpecArray(text: string, path: string | undefined, readOnly: boolean): ReturnType<typeof openSpec> {
  return openSpec(specWithPath(readSpecArg(text), path), { readOnly });
}

/** Opens the store a STORE argument names. A missing store is a `CommandError` (exit 1). */
export async function openStore(text: string, options: OpenStoreOptions): Promise<OpenedStore> {
  registerCliStoreDrivers();
  if (isSpecArg(text)) return openSpecArg(text, options);
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
    case "reference":
      if (write) throw new UsageError(`${text}: reference sets are read-only`);
      break;
    case "s3":
    case "url":
      // A bucket that does not exist, or keys that are wrong, fail at the first request with an
      // S3StoreError naming them; an empty prefix is a store with nothing in it yet. A registered
      // driver's store (a `url` location) answers for itself.
      break;
  }
  // ZipStore.close() leaves its byte source open (it belongs to the caller): the files opened here
  // are closed with the store.
  const files: { close(): Promise<void> }[] = [];
  let store: Store;
  let closeLocation: (() => Promise<void>) | undefined;
  try {
    // http(s), zip files and s3 from the drivers registered (registerCliStoreDrivers); local
    // directories and files opened here, resolved from the working directory.
    ({ store, close: closeLocation } = await openLocation(text, {
      openDirectory: (dir) => options.openDirectory?.(resolve(dir)) ?? new DirectoryStore(resolve(dir)),
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
      // a registered driver's store: whatever its close() finishes
      else if (location.kind === "url") await closeLocation?.();
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
  if (!isListable(store)) {
    // a v3 root group's consolidated metadata is inline in its zarr.json (zarr-python 3's)
    if (await hasInlineConsolidated(store, "zarr.json")) return (await openConsolidated(store, { mode: "r" })).store;
    return (await has(CONSOLIDATED_KEY)) ? ConsolidatedStore.load(store, CONSOLIDATED_KEY) : store;
  }
  if (
    (await has(`${prefix}zarr.json`)) ||
    (await has(`${prefix}.zarray`)) ||
    (await has(`${prefix}.zgroup`)) ||
    (path === "" && (await has("meta")))
  )
    return store;
  return (await has(CONSOLIDATED_KEY)) ? ConsolidatedStore.load(store, CONSOLIDATED_KEY) : store;
}

/** Whether the `zarr.json` at `key` is a group's with `consolidated_metadata` in it. */
async function hasInlineConsolidated(store: Store, key: string): Promise<boolean> {
  const bytes = await store.get(key);
  if (bytes === undefined) return false;
  try {
    const doc = JSON.parse(new TextDecoder().decode(bytes)) as { consolidated_metadata?: unknown } | null;
    return typeof doc?.consolidated_metadata === "object" && doc.consolidated_metadata !== null;
  } catch {
    return false; // read (and reported) as the node's document
  }
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
