import {
  checkByteRange,
  joinPath,
  type ByteRange,
  type DirectoryListing,
  type ListableStore,
  type Store,
  type StoreOptions,
} from "@z/meta";
import { StoreError } from "@z/meta";
import { ReferenceStoreError } from "./errors.js";
import { JsonReferences, type JsonReferenceOptions } from "./json-references.js";
import { ParquetReferences, type ParquetReferenceOptions } from "./parquet-references.js";
import { RangeBatcher } from "./range-batcher.js";
import type { Reference, ReferenceSource } from "./reference.js";
import { isAbsoluteUrl, relativeKey, type OpenTarget, type ReferenceTarget } from "./targets.js";

/** Options of a {@link ReferenceStore}. */
export interface ReferenceStoreOptions extends JsonReferenceOptions, ParquetReferenceOptions {
  /**
   * Opens targets named by absolute URLs (`https://`, `s3://`, `file://`, `/path`). Relative ones
   * (`data.nc`) are read from the store the reference set was read from, beside it, unless they
   * lead above that store's root (then they are resolved against `baseUrl` and opened with this).
   * `referenceLocations` gives one built from the stores of `openLocation`.
   */
  readonly openTarget?: OpenTarget;
  /** The URL of the reference set (`https://host/refs/refs.json`), for relative targets above its store's root. */
  readonly baseUrl?: string;
  /**
   * Ranges of one file at most this many bytes apart, asked for at once, are read together
   * (fsspec's `max_gap`, default 64 000); negative: each on its own.
   */
  readonly maxGap?: number;
  /** The longest merged read (fsspec's `max_block`, default 256 MB). */
  readonly maxBlock?: number;
  /**
   * How many chunks `@z/core` reads at once from this store when the call does not say (its
   * `preferredConcurrency`; default 32, rather than core's 8): the ranges asked for at once are
   * what gets merged, so with more in flight a full read of a variable whose chunks lie together
   * in its file takes a few requests, not one round trip per 8 chunks.
   */
  readonly concurrency?: number;
}

/** Chunk reads in flight by default: see {@link ReferenceStoreOptions.concurrency}. */
const DEFAULT_CONCURRENCY = 32;

/** Where the reference set was read from: relative targets are read beside it. */
interface Base {
  readonly store: Store;
  readonly dir: string;
}

/**
 * A read-only Zarr store over a kerchunk / VirtualiZarr reference set (see {@link JsonReferences},
 * {@link ParquetReferences}): each key is inline bytes or a byte range of a target file, read from
 * the target's store (one ranged read per chunk; ranges of one file asked for at once and close
 * together merged, see `maxGap`). A range past the end of its file, a target that is missing or
 * fails, are {@link ReferenceStoreError}s naming the key and the target (the target store's error
 * as `cause`); a key the set has no reference for is missing (`undefined`), as a chunk never
 * written.
 *
 * ```ts
 * const store = await ReferenceStore.open(directoryStore, "refs.json"); // and data.nc beside it
 * const temp = await openArray(store, { path: "temp", mode: "r" });
 * ```
 */
export class ReferenceStore implements ListableStore {
  readonly source: ReferenceSource;
  readonly #options: ReferenceStoreOptions;
  readonly #base: Base | undefined;
  readonly #targets = new Map<string, Promise<ReferenceTarget>>();
  readonly #batchers = new Map<string, RangeBatcher>();
  /** See {@link ReferenceStoreOptions.concurrency}. */
  readonly preferredConcurrency: number;

  constructor(source: ReferenceSource, options: ReferenceStoreOptions & { base?: Base } = {}) {
    this.source = source;
    this.#options = options;
    this.#base = options.base;
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new StoreError(
        `invalid ReferenceStore option concurrency: expected an integer of at least 1, got ${String(options.concurrency)}`,
      );
    this.preferredConcurrency = concurrency;
  }

  /**
   * The reference set under `key` of `store`: a JSON file (version 0 or 1), or a directory of
   * Parquet references (with `.zmetadata`; a key ending in `.json` is always read as JSON).
   * Relative targets are read from `store`, beside it.
   */
  static async open(store: Store, key: string, options: ReferenceStoreOptions = {}): Promise<ReferenceStore> {
    const slash = key.lastIndexOf("/");
    const base = { store, dir: slash === -1 ? "" : key.slice(0, slash) };
    if (!/\.json$/i.test(key)) {
      const zmetadata = await store.get(joinPath(key, ".zmetadata")).catch(() => undefined);
      if (zmetadata !== undefined) {
        const source = ParquetReferences.fromZmetadata(store, key, new TextDecoder().decode(zmetadata), options);
        // the targets of a Parquet set are relative to the directory that holds it, as for a JSON file
        return new ReferenceStore(source, { ...options, base });
      }
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = await store.get(key);
    } catch (cause) {
      throw new ReferenceStoreError(
        "Z_REFERENCE_TARGET",
        `cannot read the reference set ${key}: ${(cause as Error).message}`,
        {
          target: key,
          cause,
        },
      );
    }
    if (bytes === undefined)
      throw new ReferenceStoreError(
        "Z_REFERENCE_TARGET",
        `no reference set at ${key || "."} (neither a JSON file nor a directory with .zmetadata)`,
        { target: key },
      );
    return new ReferenceStore(JsonReferences.parse(new TextDecoder().decode(bytes), key, options), {
      ...options,
      base,
    });
  }

  async get(key: string, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    options.signal?.throwIfAborted();
    const ref = await this.source.reference(key, options);
    if (ref === undefined) return undefined;
    if (ref.kind === "inline") return ref.bytes.slice();
    return this.#read(key, ref, ref.offset, ref.length, options.signal);
  }

  async getRange(key: string, range: ByteRange, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    checkByteRange(key, range);
    options.signal?.throwIfAborted();
    const ref = await this.source.reference(key, options);
    if (ref === undefined) return undefined;
    if (ref.kind === "inline") {
      const b = ref.bytes;
      return "suffixLength" in range
        ? b.slice(Math.max(0, b.length - range.suffixLength))
        : b.slice(range.offset, range.length === undefined ? undefined : range.offset + range.length);
    }
    if (ref.offset === undefined || ref.length === undefined) {
      // the whole file: the target store clamps the range itself
      const target = await this.#target(key, ref.url);
      return this.#call(key, ref.url, options.signal, () =>
        target.store.getRange !== undefined
          ? target.store.getRange(target.key, range, options)
          : target.store.get(target.key, options).then((b) => b && sliceRange(b, range)),
      ).then((b) => this.#present(key, ref.url, b));
    }
    // a range of the referenced range, clamped to it as slice() clamps
    const start =
      "suffixLength" in range ? Math.max(0, ref.length - range.suffixLength) : Math.min(range.offset, ref.length);
    const end =
      "suffixLength" in range || range.length === undefined ? ref.length : Math.min(ref.length, start + range.length);
    return this.#read(key, ref, ref.offset + start, end - start, options.signal);
  }

  async list(prefix = "", options: StoreOptions = {}): Promise<string[]> {
    if (this.source instanceof ParquetReferences) {
      // only the record files of arrays under the prefix are read
      const keys = this.source.metadataKeys().filter((k) => k.startsWith(prefix));
      for (const field of this.source.fields())
        if (`${field}/`.startsWith(prefix) || prefix.startsWith(`${field}/`))
          keys.push(...(await this.source.chunkKeys(field, options)).filter((k) => k.startsWith(prefix)));
      return keys;
    }
    return (await this.source.keys(options)).filter((k) => k.startsWith(prefix));
  }

  async listDir(prefix: string, options: StoreOptions = {}): Promise<DirectoryListing> {
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    const add = (key: string): void => {
      if (!key.startsWith(prefix)) return;
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash === -1) keys.add(rest);
      else prefixes.add(rest.slice(0, slash));
    };
    if (this.source instanceof ParquetReferences) {
      // an array's chunks are listed only when its own directory is: its .zarray says the others are there
      for (const key of this.source.metadataKeys()) add(key);
      const field = prefix.replace(/\/$/, "");
      if (this.source.fields().includes(field)) for (const key of await this.source.chunkKeys(field, options)) add(key);
    } else for (const key of await this.source.keys(options)) add(key);
    return { keys: [...keys], prefixes: [...prefixes] };
  }

  /** Reads `length` bytes from `offset` of the target of `key` (the whole file when not given). */
  async #read(
    key: string,
    ref: Reference & { kind: "target" },
    offset: number | undefined,
    length: number | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array> {
    const target = await this.#target(key, ref.url);
    const options = signal === undefined ? {} : { signal };
    if (offset === undefined || length === undefined) {
      const bytes = await this.#call(key, ref.url, signal, () => target.store.get(target.key, options));
      return this.#present(key, ref.url, bytes);
    }
    if (length === 0) return new Uint8Array(0);
    const bytes = await this.#call(key, ref.url, signal, () =>
      this.#batcher(ref.url, target).read(offset, length, signal),
    );
    const got = this.#present(key, ref.url, bytes);
    if (got.length < length)
      throw new ReferenceStoreError(
        "Z_REFERENCE_RANGE",
        `${JSON.stringify(key)}: its reference, bytes ${offset} to ${offset + length} of ${ref.url}, is past the end of the file (only ${got.length} of them are there)`,
        { key, target: ref.url },
      );
    return got;
  }

  #present(key: string, url: string, bytes: Uint8Array | undefined): Uint8Array {
    if (bytes === undefined)
      throw new ReferenceStoreError("Z_REFERENCE_TARGET", `${JSON.stringify(key)}: its target ${url} does not exist`, {
        key,
        target: url,
      });
    return bytes;
  }

  #batcher(url: string, target: ReferenceTarget): RangeBatcher {
    let batcher = this.#batchers.get(url);
    if (batcher === undefined) {
      const { store, key } = target;
      batcher = new RangeBatcher(
        (offset, length, signal) => {
          const options = signal === undefined ? {} : { signal };
          return store.getRange !== undefined
            ? store.getRange(key, { offset, length }, options)
            : store.get(key, options).then((b) => b?.subarray(offset, offset + length));
        },
        this.#options.maxGap ?? 64_000,
        this.#options.maxBlock ?? 256_000_000,
      );
      this.#batchers.set(url, batcher);
    }
    return batcher;
  }

  /** The store and key of the target `url`, opened once. */
  #target(key: string, url: string): Promise<ReferenceTarget> {
    let target = this.#targets.get(url);
    if (target === undefined) {
      target = this.#openTarget(key, url);
      this.#targets.set(url, target);
      target.catch(() => this.#targets.delete(url));
    }
    return target;
  }

  async #openTarget(key: string, url: string): Promise<ReferenceTarget> {
    if (!isAbsoluteUrl(url) && this.#base !== undefined) {
      const inBase = relativeKey(this.#base.dir, url);
      if (inBase !== undefined) return { store: this.#base.store, key: inBase };
    }
    const absolute = isAbsoluteUrl(url) ? url : this.#options.baseUrl && new URL(url, this.#options.baseUrl).href;
    const open = this.#options.openTarget;
    if (absolute === undefined || absolute === "" || open === undefined)
      throw new ReferenceStoreError(
        "Z_REFERENCE_TARGET",
        `${JSON.stringify(key)}: cannot open its target ${url}: ${absolute ? "no openTarget was given for absolute URLs" : "a relative path with no reference file location to resolve it against"}`,
        { key, target: url },
      );
    try {
      return await open(absolute);
    } catch (cause) {
      throw new ReferenceStoreError(
        "Z_REFERENCE_TARGET",
        `${JSON.stringify(key)}: cannot open its target ${url}: ${(cause as Error).message}`,
        {
          key,
          target: url,
          cause,
        },
      );
    }
  }

  /** Runs a read of the target, its failures wrapped to name the key (an abort passes as it is). */
  async #call<T>(key: string, url: string, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (cause) {
      if (cause instanceof ReferenceStoreError || (signal?.aborted && cause === signal.reason)) throw cause;
      throw new ReferenceStoreError(
        "Z_REFERENCE_TARGET",
        `${JSON.stringify(key)}: cannot read its target ${url}: ${(cause as Error).message}`,
        {
          key,
          target: url,
          cause,
        },
      );
    }
  }
}

function sliceRange(b: Uint8Array, range: ByteRange): Uint8Array {
  return "suffixLength" in range
    ? b.subarray(Math.max(0, b.length - range.suffixLength))
    : b.subarray(range.offset, range.length === undefined ? undefined : range.offset + range.length);
}
