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
