import {
  describeJson,
  encodeJson,
  isListable,
  isWritable,
  keyPrefix,
  MetadataError,
  normalizeStoragePath,
  parseJson,
  V1_META_KEY,
  type ByteRange,
  type DirectoryListing,
  type JsonObject,
  type JsonValue,
  type Store,
  type StoreOptions,
} from "@z/meta";
import type { ZarrArray } from "./array.js";
import { ArgumentError, NodeNotFoundError, ReadOnlyError } from "./errors.js";
import { v3NodeType } from "./node-kinds.js";
import { zarrJsonKey } from "./keys.js";
import { readsWholeValues, servesRanges } from "@z/meta";
import type { Group } from "./group.js";
import { open } from "./group.js";
import type { OpenMode } from "./open-array.js";

export const CONSOLIDATED_KEY = ".zmetadata";

const isV2MetadataKey = (key: string): boolean => /(^|\/)\.(zarray|zgroup|zattrs)$/.test(key);
const isZarrJson = (key: string): boolean => key === "zarr.json" || key.endsWith("/zarr.json");

/**
 * Gathers every `.zarray`, `.zgroup` and `.zattrs` under `path` into one `.zmetadata` document,
 * written exactly as zarr-python's `consolidate_metadata` writes it, so a reader needs one request
 * instead of one per node. A v3 group at `path` gets zarr-python 3's consolidation instead: every
 * `zarr.json` below it, inline in its own `zarr.json` (`consolidated_metadata`). Returns the root
 * opened through it.
 */
export async function consolidateMetadata(
  store: Store,
  options: { path?: string; metadataKey?: string } = {},
): Promise<ZarrArray | Group> {
  if (!isWritable(store) || !isListable(store))
    throw new ArgumentError("consolidateMetadata needs a writable, listable store");
  const path = normalizeStoragePath(options.path);
  if ((await v3NodeType(store, path)) === "group") {
    const { consolidateV3 } = await import("./consolidated-v3.js");
    await consolidateV3(store, path);
    return openConsolidated(store, { path, mode: "r+" });
  }
  const prefix = keyPrefix(path);
  const metadataKey = options.metadataKey ?? CONSOLIDATED_KEY;
  const keys = (await store.list(prefix)).filter(isV2MetadataKey).sort();
  const metadata: Record<string, JsonValue> = {};
  for (const key of keys) {
    const bytes = await store.get(key);
    // Floats stay floats (`0.0`), as Python re-dumps what it loaded.
    if (bytes !== undefined) metadata[key.slice(prefix.length)] = parseJson(bytes, key, { keepFloats: true });
  }
  const document = { metadata, zarr_consolidated_format: 1 };
  await store.set(prefix + metadataKey, encodeJson(document));
  return openConsolidated(store, { path: options.path, metadataKey, mode: "r+" });
}

/**
 * Opens a hierarchy through its `.zmetadata`: metadata comes from that one document (even when the
 * store holds no other metadata), data from the store. `r+` allows writing data, never metadata.
 */
export async function openConsolidated(
  store: Store,
  options: { path?: string; metadataKey?: string; mode?: Extract<OpenMode, "r" | "r+"> } = {},
): Promise<ZarrArray | Group> {
  const mode = options.mode ?? "r+";
  if (mode !== "r" && mode !== "r+")
    throw new ArgumentError(`openConsolidated mode must be "r" or "r+", got ${JSON.stringify(mode)}`);
  const path = normalizeStoragePath(options.path);
  // A v3 group's consolidation is inline in its zarr.json; v2's is a document of its own.
  // Both asked in one round trip; where both are, v3's, as zarr-python 3 reads them.
  const v2Key = keyPrefix(path) + (options.metadataKey ?? CONSOLIDATED_KEY);
  const [root, v2] = await Promise.all([
    options.metadataKey === undefined ? store.get(zarrJsonKey(path)) : undefined,
    store.get(v2Key),
  ]);
  const inline =
    root === undefined
      ? undefined
      : (await import("./consolidated-v3.js")).consolidatedDocuments(root, zarrJsonKey(path));
  const consolidated =
    inline === undefined
      ? ConsolidatedStore.fromDocument(store, v2, v2Key)
      : ConsolidatedStore.over(store, inline, keyPrefix(path), isZarrJson);
  return open(consolidated, { mode, path });
}

/**
 * A store that answers metadata keys from a consolidated document and passes data keys through to
 * the store underneath. Metadata is read-only here: writing it would make the document stale.
 */
export class ConsolidatedStore implements Store {
  private constructor(
    readonly inner: Store,
    private readonly documents: ReadonlyMap<string, Uint8Array>,
    private readonly base: string,
    /** The keys the documents answer for: v2's `.zarray`, `.zgroup`, `.zattrs`, or v3's `zarr.json`. */
    private readonly isMetadataKey: (key: string) => boolean = isV2MetadataKey,
  ) {
    if (!servesRanges(inner)) readsWholeValues(this);
  }

  /** A store over `inner` whose metadata documents (by key) are `documents`, for keys `isMetadataKey` names. */
  static over(
    inner: Store,
    documents: ReadonlyMap<string, Uint8Array>,
    base: string,
    isMetadataKey: (key: string) => boolean,
  ): ConsolidatedStore {
    return new ConsolidatedStore(inner, documents, base, isMetadataKey);
  }

  static async load(inner: Store, key: string): Promise<ConsolidatedStore> {
    return ConsolidatedStore.fromDocument(inner, await inner.get(key), key);
  }

  /** A store over `inner` answering metadata from the `.zmetadata` document `bytes` read from `key`. */
  static fromDocument(inner: Store, bytes: Uint8Array | undefined, key: string): ConsolidatedStore {
    if (bytes === undefined)
      throw new NodeNotFoundError("consolidated metadata", key.slice(0, Math.max(0, key.lastIndexOf("/"))), { key });
    const doc = parseJson(bytes, key, { keepFloats: true });
    const metadata =
      typeof doc === "object" && doc !== null && !Array.isArray(doc) ? (doc as JsonObject).metadata : undefined;
    const format = (doc as JsonObject)?.zarr_consolidated_format;
    if (format !== 1)
      throw new MetadataError(`${key}: zarr_consolidated_format must be 1, got ${describeJson(format)}`, {
        key,
        field: "zarr_consolidated_format",
      });
    if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
      throw new MetadataError(`${key}: "metadata" must be an object of metadata documents`, { key, field: "metadata" });
    }
    const base = key.slice(0, key.lastIndexOf("/") + 1);
    const documents = new Map<string, Uint8Array>();
    for (const [name, value] of Object.entries(metadata as JsonObject)) documents.set(base + name, encodeJson(value));
    return new ConsolidatedStore(inner, documents, base);
  }

  async get(key: string, options?: StoreOptions): Promise<Uint8Array | undefined> {
    if (this.isMetadataKey(key)) return this.documents.get(key)?.slice();
    // Opening the root looks for spec v1's `meta` too; a consolidated hierarchy has none, and
    // asking the store (a 404 over HTTP) would only say so slower. Likewise the other format's
    // documents, which opening a node asks for beside its own: the consolidation answers for the
    // hierarchy's metadata.
    if (key === V1_META_KEY || isZarrJson(key) || isV2MetadataKey(key)) return undefined;
    return this.inner.get(key, options);
  }

  async getRange(key: string, range: ByteRange, options?: StoreOptions): Promise<Uint8Array | undefined> {
    if (this.isMetadataKey(key) || this.inner.getRange === undefined) {
      const value = await this.get(key, options);
      if (value === undefined) return undefined;
      if ("suffixLength" in range) return value.slice(Math.max(0, value.length - range.suffixLength));
      return value.slice(range.offset, range.length === undefined ? undefined : range.offset + range.length);
    }
    return this.inner.getRange(key, range, options);
  }

  async set(key: string, value: Uint8Array, options?: StoreOptions): Promise<void> {
    if (this.isMetadataKey(key) || !isWritable(this.inner)) throw new ReadOnlyError("consolidated metadata", { key });
    await this.inner.set(key, value, options);
  }

  async delete(key: string, options?: StoreOptions): Promise<void> {
    if (this.isMetadataKey(key) || !isWritable(this.inner)) throw new ReadOnlyError("consolidated metadata", { key });
    await this.inner.delete(key, options);
  }

  /** Metadata keys from the document, data keys from the store (when it can list). */
  async list(prefix = "", options?: StoreOptions): Promise<string[]> {
    const keys = new Set([...this.documents.keys()].filter((k) => k.startsWith(prefix)));
    if (isListable(this.inner)) {
      for (const key of await this.inner.list(prefix, options)) if (!this.isMetadataKey(key)) keys.add(key);
    }
    return [...keys];
  }

  async listDir(prefix: string, options?: StoreOptions): Promise<DirectoryListing> {
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    for (const key of await this.list(prefix, options)) {
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash === -1) keys.add(rest);
      else prefixes.add(rest.slice(0, slash));
    }
    return { keys: [...keys].sort(), prefixes: [...prefixes].sort() };
  }

  /** Where the consolidated document sits (`""` or `path/`). */
  get root(): string {
    return this.base;
  }
}
