/*
 * The kvstore spec hook a store driver gives (`StoreDriver.kvstoreSpec`): how the TensorStore
 * kvstore drivers it declares are read from a spec (`{"driver": "s3", ...}`, `s3://bucket/path`,
 * `|zip:path`), written back, named in messages and opened. `@z/spec` keeps the registry's hooks and
 * knows no store: the file, http, zip and s3 kvstores are the hooks of `@z/store-fs`,
 * `@z/store-http`, `@z/store-zip` and `@z/store-s3`, as TensorStore's kvstore drivers each register
 * their own JSON binder (`kvstore/registry.h`).
 */
import type { ByteSource } from "./byte-source.js";
import type { JsonValue } from "./json-value.js";
import type { Members } from "./spec-json.js";
import type { LocationStores, Store } from "./store.js";

/** A kvstore of a spec as its driver's hook read it: the driver name, the path, and the hook's own members. */
export interface ParsedKvStore {
  /** The kvstore driver name (one of the hook's {@link KvStoreSpecHook.drivers}). */
  readonly driver: string;
  /** The kvstore's `path`. */
  readonly path: string;
}

/** What the spec front end gives a hook while it reads a kvstore. */
export interface KvStoreParseTools {
  /** A nested kvstore member (a zip kvstore's `base`), a spec object or a URL, read through its own hook. */
  parseKvStore(j: JsonValue, member: string): ParsedKvStore;
  /** A URL part percent-decoded; a `SpecError` naming `member` when its encoding is not valid. */
  decode(text: string, member: string): string;
}

/** What the spec front end gives a hook to write a kvstore back or name it. */
export interface KvStoreFormatTools {
  /** A nested kvstore as TensorStore's JSON. */
  kvstoreJson(spec: ParsedKvStore): JsonValue;
  /** A nested kvstore as a short text for messages. */
  describeKvStore(spec: ParsedKvStore): string;
  /** The openers a nested kvstore's hook needs to open it as one file ({@link KvStoreSpecHook.sourceOpeners}). */
  sourceOpeners(spec: ParsedKvStore): readonly string[];
}

/** What the spec front end gives a hook to open a kvstore. */
export interface KvStoreOpenTools extends KvStoreFormatTools {
  /** The openers given or found; each of the hook's {@link KvStoreSpecHook.openers} is a function here. */
  readonly stores: LocationStores & { readonly [opener: string]: unknown };
  /** Whether the spec is opened for writing (`openSpec` without `readOnly`). */
  readonly writable: boolean;
  /** A context resource the kvstore names (a reference, an inline spec, or `undefined`: the context's default). */
  resource(provider: string, ref: JsonValue | undefined, member: string): JsonValue;
  /** A nested kvstore opened as one file (a zip kvstore's `base`); a `SpecUnsupportedError` when its hook cannot. */
  openSource(spec: ParsedKvStore, member: string): Promise<ByteSource>;
}

/** A kvstore opened: the store, the node's path inside it, and what releases it. */
export interface OpenedKvStore {
  readonly store: Store;
  readonly path: string;
  close?(): Promise<void>;
}

/**
 * A store driver's kvstore spec hook. `parse` reads the members of a spec object (`Members` of
 * `@z/meta/spec`, throwing its `SpecError` and `SpecUnsupportedError` as TensorStore words its
 * errors); `parseUrl` a KvStore URL's first part, `adapt` a `|name:path` part over another kvstore.
 */
export interface KvStoreSpecHook<S extends ParsedKvStore = ParsedKvStore> {
  /** The `driver` names of spec objects it reads. */
  readonly drivers: readonly string[];
  /** The KvStore URL schemes (lower case, without `:`) of a URL's first part it reads. */
  readonly urlSchemes?: readonly string[];
  /** The `|name:path` URL adapters it reads. */
  readonly urlAdapters?: readonly string[];
  /** Where an opener comes from, for messages, when not the package's `locations` export. */
  readonly openerExports?: Readonly<Record<string, string>>;
  /** A spec object's members after `driver`, `path` and `context` (unread members are refused after). */
  parse(m: Members, path: string, tools: KvStoreParseTools): S;
  /** A KvStore URL's first part (`s3://bucket/path`) of one of {@link KvStoreSpecHook.urlSchemes}. */
  parseUrl?(root: string, member: string, tools: KvStoreParseTools): S;
  /** A `|name:path` URL part over `base` (`path` percent-decoded). */
  adapt?(base: ParsedKvStore, path: string, member: string, tools: KvStoreParseTools): S;
  /** The kvstore as TensorStore's JSON. */
  toJson(spec: S, tools: KvStoreFormatTools): JsonValue;
  /** The kvstore as a short text for messages. */
  describe(spec: S, tools: KvStoreFormatTools): string;
  /** The `LocationStores` openers {@link KvStoreSpecHook.open} needs. */
  openers(spec: S, tools: KvStoreFormatTools): readonly string[];
  /** The kvstore opened with the openers given. */
  open(spec: S, tools: KvStoreOpenTools): Promise<OpenedKvStore>;
  /** The openers {@link KvStoreSpecHook.openSource} needs. */
  sourceOpeners?(spec: S): readonly string[];
  /** The kvstore opened as one file (for a zip kvstore over it). */
  openSource?(spec: S, tools: KvStoreOpenTools): Promise<ByteSource>;
}
