import type { ByteSource } from "./byte-source.js";
import type { JsonValue } from "./json-value.js";

/**
 * The key/value store contract. A store is any object with an async `get`; everything else is
 * optional and unlocks more: `set`/`delete` make it writable, `list`/`listDir` make it listable,
 * `getRange` lets readers fetch part of a value. Keys are `/`-separated strings without a leading
 * `/`, e.g. `foo/bar/.zarray` or `foo/bar/0.0`.
 */
export interface Store {
  /** The value under `key`, or `undefined` when there is none. */
  get(key: string, options?: StoreOptions): Promise<Uint8Array | undefined>;
  /** Part of the value under `key`, or `undefined` when there is none. */
  getRange?(key: string, range: ByteRange, options?: StoreOptions): Promise<Uint8Array | undefined>;
  /** Stores `value` under `key`, replacing any previous value as a whole. */
  set?(key: string, value: Uint8Array, options?: StoreOptions): Promise<void>;
  /** Removes `key`; removing a missing key is not an error. */
  delete?(key: string, options?: StoreOptions): Promise<void>;
  /** Every key that starts with `prefix` (all keys when omitted), in no particular order. */
  list?(prefix?: string, options?: StoreOptions): Promise<string[]>;
  /**
   * The direct children of the directory `prefix` (`""` for the root, otherwise ending in `/`):
   * `keys` are names of values, `prefixes` names of sub-directories, both relative to `prefix`.
   */
  listDir?(prefix: string, options?: StoreOptions): Promise<DirectoryListing>;
  /**
   * True when every value `get` and `getRange` return is new memory that nothing else keeps (no
   * cache, no store buffer): the caller may change it or hand its buffer to another thread
   * (transfer it) rather than copy it.
   */
  readonly freshValues?: boolean;
  /**
   * How many chunks `@z/core` keeps in flight on this store when neither the call nor the array
   * says (core's own default is 8): a store that merges the reads asked for at once into fewer
   * requests (a reference set's ranges of one file), or whose every request waits on a far server,
   * reads faster with more.
   */
  readonly preferredConcurrency?: number;
  /**
   * Optional: plain data (structured-cloneable) from which another thread opens this same store
   * again, reading and writing exactly as this one does; `undefined` when it cannot (e.g. a
   * directory store over a file system of the caller's, or a subclass that reads or writes
   * differently). `@z/core`'s worker threads then read and write chunks themselves. `@z/store-fs`'s
   * `DirectoryStore` offers one; a store wrapping another must not pass its inner store's on.
   */
  threadStore?(): ThreadStoreSpec | undefined;
}

/**
 * How a thread opens a store again (see {@link Store.threadStore}): plain JSON data, sent to the
 * thread as it is. A thread reopens it with the driver registered there for its `kind` (see
 * `StoreDriver.threadKinds`), else with the `threadStoreDriver` export of `module`, which it imports
 * first. `@z/store-fs`'s `DirectoryStore` gives `{ kind: "directory", root, fsync, module }`.
 */
export interface ThreadStoreSpec {
  /** Which driver reopens it (one whose `threadKinds` has it). */
  readonly kind: string;
  /**
   * The URL of an ES module whose `threadStoreDriver` export (a `StoreDriver`) reopens specs of
   * this `kind`: imported by a thread that has no driver registered for it. A small module, since
   * every thread loads it before its first batch on such a store.
   */
  readonly module?: string;
  /** The store's own settings (a directory's `root`, ...). */
  readonly [member: string]: JsonValue | undefined;
}

/**
 * An optional capability of a store (see {@link readsSynchronously}): reading on the calling
 * thread, without a hop through an event loop. `@z/store-fs`'s `DirectoryStore` offers it; readers
 * (`@z/core`) then read local chunks as zarr-python does, which costs less than the four hops
 * through Node's thread pool an asynchronous read makes, and read many small ranges of a chunk (a
 * partial read of a window) without waiting between them. Every method reads exactly what `get`
 * or `getRange` would give; `readsSync` says whether that holds for this instance (false, say,
 * for a subclass that reads differently: then none is used). Returned values are new memory, or
 * views of the caller's `buffer`.
 */
export interface SyncReadableStore extends Store {
  /** True when the methods below read exactly what `get` and `getRange` would. */
  readonly readsSync: boolean;
  /** `get`, on this thread. */
  getSync(key: string): Uint8Array | undefined;
  /** `getRange`, on this thread. */
  getRangeSync(key: string, range: ByteRange): Uint8Array | undefined;
  /** `getSync` into `buffer` when the value fits (a view of it), else into new memory. */
  getSyncInto?(key: string, buffer: Uint8Array): Uint8Array | undefined;
  /** `getRangeSync` into `buffer` when the range fits (a view of it), else into new memory. */
  getRangeSyncInto?(key: string, range: ByteRange, buffer: Uint8Array | undefined): Uint8Array | undefined;
  /**
   * Reads the value under `key` into `parts`, one after another (their lengths summing to the
   * value's), asynchronously (a directory store's `readv` on Node's thread pool): `true` when
   * it filled them, `undefined` when there is no value, `false` when the value has another length
   * (nothing is promised about `parts` then).
   */
  getIntoParts?(key: string, parts: readonly Uint8Array[], options?: StoreOptions): Promise<boolean | undefined>;
}

/** Whether `store` reads on the calling thread exactly as its `get` and `getRange` do (see {@link SyncReadableStore}). */
export function readsSynchronously(store: Store): store is SyncReadableStore {
  const s = store as Partial<SyncReadableStore>;
  return s.readsSync === true && typeof s.getSync === "function" && typeof s.getRangeSync === "function";
}

/** A store that can be written to. */
export type WritableStore = Store & Required<Pick<Store, "set" | "delete">>;

/** A store that can enumerate its keys. */
export type ListableStore = Store & Required<Pick<Store, "list">>;

export interface StoreOptions {
  signal?: AbortSignal;
}

/** `{ offset, length }` reads `length` bytes from `offset` (to the end when `length` is omitted); `{ suffixLength }` reads the last bytes. */
export type ByteRange = { offset: number; length?: number } | { suffixLength: number };

export interface DirectoryListing {
  keys: string[];
  prefixes: string[];
}

export function isWritable(store: Store): store is WritableStore {
  return typeof store.set === "function" && typeof store.delete === "function";
}

export function isListable(store: Store): store is ListableStore {
  return typeof store.list === "function";
}

/**
 * What opening a location string needs from the store packages (`openLocation` of `@z/core`):
 * each opener comes from the package that has the store, so `@z/core` itself depends on none of
 * them. `@z/store-http`'s `httpLocations()` gives `openHttp` and `openHttpFile`, `@z/store-zip`'s
 * `zipLocations` gives `openZip`, `@z/store-fs`'s `fsLocations` (Node) `openDirectory` and
 * `openFile`; spread the ones you need: `openLocation(url, { ...httpLocations(), ...zipLocations })`.
 * Registering a package's driver (`registerStoreDriver(httpStoreDriver)`, see `StoreDriver`) gives
 * its openers to every `openLocation` and spec at once.
 */
export interface LocationStores {
  /** A store over an http(s) URL (a Zarr hierarchy served over HTTP). */
  openHttp?(url: string): Store;
  /** A store over an http(s) URL sending `headers` with every request (a TensorStore spec's `headers`). */
  openHttpWithHeaders?(url: string, headers: Record<string, string>): Store;
  /** A byte source over an http(s) URL (a remote zip file). */
  openHttpFile?(url: string): ByteSource;
  /** A store over a zip file's bytes. */
  openZip?(source: ByteSource, options: { writable: boolean }): Promise<Store & { close(): Promise<void> }>;
  /** A local directory (Node). */
  openDirectory?(path: string): Store | Promise<Store>;
  /** A local file as a byte source (Node). */
  openFile?(path: string, writable: boolean): ByteSource | Promise<ByteSource>;
  /** A store over an `s3://bucket/path` URL (a prefix of an S3 bucket). */
  openS3?(url: string): Store;
  /**
   * A store over a kerchunk / VirtualiZarr reference set: `file` is the location of a reference
   * file (`refs.json`) or Parquet reference directory, as a path or URL, opened (with its targets)
   * through `stores`, the other openers given. `@z/store-reference`'s `referenceLocations()` gives it.
   */
  openReference?(file: string, stores: LocationStores): Promise<Store>;
}
