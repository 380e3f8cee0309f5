import {
  isListable,
  isWritable,
  type ByteRange,
  type DirectoryListing,
  type Store,
  type StoreOptions,
} from "./store.js";
import { ArgumentError, ReadOnlyError } from "./errors.js";
import { readsWholeValues } from "./store-ranges.js";

/**
 * Keeps recently read values of a slow store (HTTP, zip over HTTP) in memory, up to `maxSize`
 * bytes, least recently used first out, as zarr-python's `LRUStoreCache`. Listings are cached
 * until a write or `invalidate`. Writes go through to the store. Concurrent reads of one key
 * share a single request.
 */
export class LRUStoreCache implements Store {
  /** Reads answered from the cache, and reads that went to the store. */
  hits = 0;
  misses = 0;
  readonly #values = new Map<string, Uint8Array>(); // insertion order = recency order
  readonly #inflight = new Map<string, Promise<Uint8Array | undefined>>();
  #listings = new Map<string, Promise<string[]>>();
  #dirListings = new Map<string, Promise<DirectoryListing>>();
  #size = 0;

  /** `maxSize` in bytes; `null` keeps everything. */
  constructor(
    readonly store: Store,
    readonly maxSize: number | null,
  ) {
    if (maxSize !== null && (!Number.isFinite(maxSize) || maxSize < 0))
      throw new ArgumentError(`maxSize must be a non-negative number or null, got ${maxSize}`);
    readsWholeValues(this);
  }

  /** Bytes held in the cache. */
  get currentSize(): number {
    return this.#size;
  }

  async get(key: string, options?: StoreOptions): Promise<Uint8Array | undefined> {
    const cached = this.#values.get(key);
    if (cached !== undefined) {
      this.hits += 1;
      this.#values.delete(key); // re-insert: now the most recently used
      this.#values.set(key, cached);
      return cached.slice();
    }
    let pending = this.#inflight.get(key);
    if (pending === undefined) {
      this.misses += 1;
      pending = this.store.get(key, options).then((value) => {
        if (value !== undefined) this.#remember(key, value.slice());
        return value;
      });
      this.#inflight.set(key, pending);
      void pending.finally(() => this.#inflight.delete(key)).catch(() => {});
    } else {
      this.hits += 1;
    }
    return (await pending)?.slice();
  }

  async getRange(key: string, range: ByteRange, options?: StoreOptions): Promise<Uint8Array | undefined> {
    const cached = this.#values.get(key);
    if (cached === undefined && this.store.getRange !== undefined) return this.store.getRange(key, range, options);
    const value = cached ?? (await this.get(key, options));
    if (value === undefined) return undefined;
    if ("suffixLength" in range) return value.slice(Math.max(0, value.length - range.suffixLength));
    return value.slice(range.offset, range.length === undefined ? undefined : range.offset + range.length);
  }

  async set(key: string, value: Uint8Array, options?: StoreOptions): Promise<void> {
    if (!isWritable(this.store)) throw new ReadOnlyError("the cached store", { key });
    await this.store.set(key, value, options);
    this.invalidateKeys();
    this.#forget(key);
    this.#remember(key, value.slice());
  }

  async delete(key: string, options?: StoreOptions): Promise<void> {
    if (!isWritable(this.store)) throw new ReadOnlyError("the cached store", { key });
    await this.store.delete(key, options);
    this.invalidateKeys();
    this.#forget(key);
  }

  list(prefix = "", options?: StoreOptions): Promise<string[]> {
    if (!isListable(this.store)) throw new ArgumentError("the cached store cannot list its keys");
    const store = this.store;
    return this.#cached(this.#listings, prefix, () => store.list(prefix, options)).then((keys) => [...keys]);
  }

  listDir(prefix: string, options?: StoreOptions): Promise<DirectoryListing> {
    const listDir = this.store.listDir?.bind(this.store);
    if (listDir === undefined) throw new ArgumentError("the cached store cannot list directories");
    return this.#cached(this.#dirListings, prefix, () => listDir(prefix, options)).then((l) => ({
      keys: [...l.keys],
      prefixes: [...l.prefixes],
    }));
  }

  /** Drops every cached value and listing. */
  invalidate(): void {
    this.invalidateValues();
    this.invalidateKeys();
  }

  invalidateValues(): void {
    this.#values.clear();
    this.#size = 0;
  }

  invalidateKeys(): void {
    this.#listings = new Map();
    this.#dirListings = new Map();
  }

  #cached<T>(cache: Map<string, Promise<T>>, prefix: string, load: () => Promise<T>): Promise<T> {
    let pending = cache.get(prefix);
    if (pending === undefined) {
      pending = load();
      cache.set(prefix, pending);
      pending.catch(() => cache.delete(prefix)); // a failed listing is not remembered
    }
    return pending;
  }

  #remember(key: string, value: Uint8Array): void {
    // A value larger than the whole cache is never kept, as zarr-python.
    if (this.maxSize !== null && value.length > this.maxSize) return;
    this.#forget(key);
    while (this.maxSize !== null && this.#size + value.length > this.maxSize) {
      const oldest = this.#values.keys().next().value as string;
      this.#forget(oldest);
    }
    this.#values.set(key, value);
    this.#size += value.length;
  }

  #forget(key: string): void {
    const value = this.#values.get(key);
    if (value !== undefined) {
      this.#values.delete(key);
      this.#size -= value.length;
    }
  }
}
