/*
 * Opening a zarr2 spec as TensorStore opens it (tensorstore/driver/kvs_backed_chunk_driver.cc):
 * the kvstore, then the metadata (read and checked against the spec, created, or assumed), then the
 * array, with the spec's missing-data, fill-value and caching behaviour.
 */
import type { CodecRegistry } from "@z/codecs";
import {
  isListable,
  isWritable,
  normalizeStoragePath,
  parseArrayMetadata,
  parseJson,
  storeDriverForKvStore,
  storeDriverForScheme,
  type JsonValue,
  type KvStoreOpenTools,
  type Store,
} from "@z/meta";
import { LocationError, NodeExistsError, NodeNotFoundError, ZarrArray, type ChunkPool } from "@z/core";
import { cachedStore } from "./cached-store.js";
import { type CachePool, SpecContext } from "./context.js";
import { bindResources, newMetadataFor, validateCreated } from "./create.js";
import { SpecError, SpecUnsupportedError } from "./errors.js";
import { SpecFieldView } from "./field-view.js";
import { toZarrDataType } from "./dtype.js";
import {
  describeKvStore,
  formatTools,
  isMemory,
  isRegistered,
  type KvStoreSpec,
  kvstoreHook,
  openersForKvStore,
  prepareKvStores,
  specOpener,
  type SpecStores,
} from "./kvstore.js";
import { encodeZarrMetadata, parseZarrMetadata, type ZarrMetadata } from "./metadata.js";
import { type ParsedSpec, parseSpec, type StalenessBound, validateOpenMode } from "./parse.js";
import { formatDomain } from "./domain.js";
import { openMetadataV3 } from "./open-v3.js";

/** What `openSpec` needs besides the spec. */
export interface OpenSpecOptions extends SpecStores {
  /**
   * The context whose resources (cache pool, in-memory stores) the spec's refer to, shared with
   * every other `openSpec` given the same one. Default: a new context for this call.
   */
  context?: SpecContext;
  /** Open read-only: writes are refused, and so is a spec that creates (`create` needs write). */
  readOnly?: boolean;
  /** Where codec ids are looked up. */
  registry?: CodecRegistry;
  /** See `ArrayOpenOptions.pool`. */
  pool?: ChunkPool | false;
  /** Cancels the open. */
  signal?: AbortSignal;
}

/** What `openSpec` gives: the array, or for a structured field, `|S`/`|V` data or `open_as_void`, a view of it. */
export type SpecArray = ZarrArray | SpecFieldView;

/**
 * Opens (or creates) the zarr array a TensorStore zarr2 or zarr3 spec describes, as TensorStore
 * 0.1.85 would: `spec` is the driver's JSON spec (`{"driver": "zarr2", "kvstore": ..., ...}`,
 * `{"driver": "zarr3", ...}`), or a TensorStore URL (`file:///data/x.zarr|zarr2:`, `...|zarr3:`). An
 * existing array must match the spec's `metadata` and `schema` constraints; a new one gets the
 * `.zarray` or `zarr.json` TensorStore would write. Plain dtypes give a
 * `ZarrArray`; a structured dtype's field, `|S<n>`/`|V<n>` and `open_as_void` give a
 * `SpecFieldView` with the field's dimensions appended, as TensorStore presents them.
 */
export async function openSpec(spec: JsonValue, options: OpenSpecOptions = {}): Promise<SpecArray> {
  await prepareKvStores(spec);
  const parsed = parseSpec(spec);
  const { context, cachePool, metadataCachePool, dataCopyConcurrency } = bindResources(
    parsed,
    options.context ?? new SpecContext(),
  );
  validateOpenMode(parsed, !options.readOnly);
  const recheck = parsed.recheckCachedMetadata.kind;
  if (recheck === "always" || recheck === "time")
    throw new SpecUnsupportedError(
      'metadata revalidated before every read and write is not supported: the metadata is read when the array is opened ("open", the default) or taken from the context\'s cache pool (false); open the spec again to see metadata changed since',
      { member: "recheck_cached_metadata" },
    );
  const openedAt = Date.now();
  const { store: base, path } = await openKvStore(parsed.kvstore, context, options);
  const prefix = path === "" ? "" : `${path}/`;
  const metaKey = prefix + parsed.metadataKey;
  const { signal } = options;
  if (parsed.driver === "zarr3") {
    if (parsed.create && parsed.deleteExisting) await deleteUnder(base, prefix, signal);
    const metaStore = cached(base, metadataCachePool, parsed.recheckCachedMetadata, openedAt);
    const { metadata, commit } = await openMetadataV3(parsed, base, metaStore, path, prefix, signal);
    // Opened before a new zarr.json is written: metadata z cannot open (a codec it lacks) leaves nothing behind.
    const array = await ZarrArray.fromMetadata(
      cached(base, cachePool, parsed.recheckCachedData, openedAt),
      path,
      metadata,
      {
        readOnly: options.readOnly,
        // A zarr3 array always has a fill value: chunks equal to it are not stored unless asked.
        writeEmptyChunks: parsed.storeDataEqualToFillValue,
        fillMissingChunks: parsed.fillMissingDataReads,
        fixedMetadata: parsed.assumeMetadata,
        registry: options.registry,
        pool: options.pool,
        signal,
        ...(dataCopyConcurrency.limit === "shared" ? {} : { concurrency: dataCopyConcurrency.limit }),
      },
    );
    await commit?.();
    return array;
  }

  let meta: ZarrMetadata;
  let created = false;
  if (parsed.assumeMetadata || parsed.assumeCachedMetadata) {
    meta = newMetadataFor(parsed);
  } else {
    if (parsed.create && parsed.deleteExisting) await deleteUnder(base, prefix, signal);
    const metaStore = cached(base, metadataCachePool, parsed.recheckCachedMetadata, openedAt);
    const bytes = parsed.create && parsed.deleteExisting ? undefined : await metaStore.get(metaKey, { signal });
    if (bytes !== undefined) {
      if (!parsed.open) throw new NodeExistsError("array", path, { key: metaKey });
      meta = parseZarrMetadata(parseJson(bytes, metaKey, { keepFloats: true }), metaKey);
      validateCreated(meta, parsed);
    } else if (parsed.create) {
      meta = newMetadataFor(parsed);
      toZarrDataType(meta.dtype, "metadata.dtype"); // one z holds, before anything is written
      if (!isWritable(base))
        throw new SpecError(`${describeKvStore(parsed.kvstore)} is read-only`, { member: "kvstore" });
      checkTransform(parsed, meta);
      await metaStore.set!(metaKey, new TextEncoder().encode(encodeZarrMetadata(meta)), { signal });
      created = true;
    } else {
      throw new NodeNotFoundError("array", path, { key: metaKey });
    }
  }
  if (!created) checkTransform(parsed, meta);
  toZarrDataType(meta.dtype, "metadata.dtype");

  const index = parsed.openAsVoid ? -1 : fieldIndexOf(meta, parsed.field);
  const fill = index < 0 ? meta.fillValue.every((f) => f !== undefined) : meta.fillValue[index] !== undefined;
  const store = cached(base, cachePool, parsed.recheckCachedData, openedAt);
  const zMeta = parseArrayMetadata(encodeZarrMetadata(meta), metaKey);
  const array = await ZarrArray.fromMetadata(
    store,
    path,
    {
      ...zMeta,
      // Chunk keys as TensorStore makes them: the stored separator, else the spec's, else ".".
      dimensionSeparator: meta.dimensionSeparator ?? parsed.metadata.dimensionSeparator ?? ".",
    },
    {
      readOnly: options.readOnly,
      // Chunks equal to the fill value are not stored unless asked, or when there is no fill value.
      writeEmptyChunks: parsed.storeDataEqualToFillValue || !fill,
      fillMissingChunks: parsed.fillMissingDataReads,
      metadataKey: parsed.metadataKey,
      fixedMetadata: parsed.assumeMetadata,
      registry: options.registry,
      pool: options.pool,
      signal,
      ...(dataCopyConcurrency.limit === "shared" ? {} : { concurrency: dataCopyConcurrency.limit }),
    },
  );
  return viewOf(array, meta, index);
}

/** The array, or the view of it TensorStore opens for the field (`-1`: `open_as_void`). */
function viewOf(array: ZarrArray, meta: ZarrMetadata, index: number): SpecArray {
  if (index < 0) return new SpecFieldView(array, undefined, [meta.dtype.bytesPerOuterElement], "byte");
  const field = meta.dtype.fields[index]!;
  if (!meta.dtype.hasFields) {
    if (field.fieldShape.length === 0) return array;
    return new SpecFieldView(array, undefined, field.fieldShape, field.dtype);
  }
  return new SpecFieldView(array, field.name, field.fieldShape, field.dtype);
}

function fieldIndexOf(meta: ZarrMetadata, name: string): number {
  if (name === "") return 0;
  return meta.dtype.fields.findIndex((f) => f.name === name);
}

/** A store a spec's kvstore names, and the array's path in it. */
export interface SpecStore {
  readonly store: Store;
  /** The node path inside the store (the kvstore's path, and the spec's `path`). */
  readonly path: string;
  /** The kvstore, as parsed. */
  readonly kvstore: KvStoreSpec;
  /** Releases what was opened (a zip file). */
  close(): Promise<void>;
}

/**
 * The store a spec's `kvstore` (and `path`) name, opened with the openers in `options`, without
 * looking at any array there: for tools that work on the hierarchy around the spec's array.
 */
export async function openSpecStore(spec: JsonValue, options: OpenSpecOptions = {}): Promise<SpecStore> {
  await prepareKvStores(spec);
  const parsed = parseSpec(spec);
  const { context } = bindResources(parsed, options.context ?? new SpecContext());
  const opened = await openKvStore(parsed.kvstore, context, options);
  return { ...opened, kvstore: parsed.kvstore, close: opened.close ?? (async () => {}) };
}

/** `store` read through `pool` when the spec lets cached values be used (a limit and a bound other than `true`). */
function cached(store: Store, pool: CachePool, bound: StalenessBound, openedAt: number): Store {
  if (pool.totalBytesLimit === 0 || bound.kind === "always") return store;
  const ms = bound.kind === "never" ? -Infinity : bound.kind === "open" ? openedAt : bound.time;
  return cachedStore(store, pool, ms);
}

/**
 * An identity `transform`'s explicit bounds must be the array's: TensorStore would open a view of
 * another region (or past the array's resizable bounds), which this library does not.
 */
function checkTransform(spec: ParsedSpec, meta: ZarrMetadata): void {
  const t = spec.transform;
  if (t === undefined) return;
  const index = spec.openAsVoid ? -1 : fieldIndexOf(meta, spec.field);
  const fieldShape = index < 0 ? [meta.dtype.bytesPerOuterElement] : meta.dtype.fields[index]!.fieldShape;
  const shape = [...meta.shape, ...fieldShape];
  if (t.dims.length !== shape.length)
    throw new SpecError(`Transform input rank ${t.dims.length} does not match the array's rank ${shape.length}`, {
      member: "transform",
    });
  t.dims.forEach((d, i) => {
    const lowerOk = d.implicitLower || d.min === 0 || d.min === -Infinity;
    const upperOk = d.implicitUpper ? true : d.max === shape[i]! - 1;
    if (!lowerOk || !upperOk)
      throw new SpecUnsupportedError(
        `the transform's domain ${formatDomain(t)} is not the array's [0, ${shape[i]}) in dimension ${i}: views of part of an array are not supported`,
        { member: "transform" },
      );
  });
}

/** TensorStore's `delete_existing`: every key under the array's prefix. */
async function deleteUnder(store: Store, prefix: string, signal?: AbortSignal): Promise<void> {
  if (!isWritable(store) || !isListable(store))
    throw new SpecUnsupportedError("delete_existing needs a store that can list and delete its keys", {
      member: "delete_existing",
    });
  for (const key of await store.list(prefix, { signal })) await store.delete(key, { signal });
}

/** The z store a kvstore spec names, and the array's path in it. */
async function openKvStore(
  spec: KvStoreSpec,
  context: SpecContext,
  stores: SpecStores,
): Promise<{ store: Store; path: string; close?: () => Promise<void> }> {
  const trim = (p: string): string => p.replace(/\/+$/, "");
  if (isMemory(spec))
    return {
      store: context.resource("memory_key_value_store", spec.resource, "kvstore.memory_key_value_store") as Store,
      path: normalizeStoragePath(trim(spec.path)),
    };
  const writable = (stores as OpenSpecOptions).readOnly !== true;
  if (isRegistered(spec)) {
    // parseKvStore made this only for a driver registered with openKvStore or openUrl.
    const driver = spec.url === undefined ? storeDriverForKvStore(spec.name) : storeDriverForScheme(spec.name);
    const store =
      spec.url === undefined
        ? await driver!.openKvStore!({ ...spec.members, path: spec.path }, { writable })
        : await driver!.openUrl!(spec.url, { writable });
    const close = async (): Promise<void> => await (store as { close?: () => Promise<void> }).close?.();
    // The path is the node's inside the store, as a memory kvstore's (StoreDriver.openKvStore).
    return { store, path: normalizeStoragePath(trim(spec.path)), close };
  }
  for (const opener of openersForKvStore(spec)) {
    if (typeof stores[opener] !== "function") {
      const { pkg, from } = specOpener(opener, spec);
      throw new LocationError(
        `${describeKvStore(spec)}: the ${JSON.stringify(spec.driver)} kvstore needs ${opener} (pass ${from} from ${pkg}, or open from "@z/spec/node")`,
        { packageName: pkg },
      );
    }
  }
  const tools: KvStoreOpenTools = {
    ...formatTools,
    stores: stores as KvStoreOpenTools["stores"],
    writable,
    resource: (provider, ref, member) => context.resource(provider as never, ref, member) as JsonValue,
    openSource: async (base, member) => {
      const hook = isMemory(base) || isRegistered(base) ? undefined : kvstoreHook(base);
      if (hook?.openSource === undefined)
        throw new SpecUnsupportedError(`a zip file in a ${JSON.stringify(base.driver)} kvstore is not supported`, {
          member,
        });
      return await hook.openSource(base, tools);
    },
  };
  const opened = await kvstoreHook(spec).open(spec, tools);
  return {
    store: opened.store,
    path: opened.path,
    ...(opened.close === undefined ? {} : { close: () => opened.close!() }),
  };
}
