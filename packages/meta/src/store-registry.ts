/*
 * The store registry: the one place that says which store opens which URL scheme, which
 * TensorStore kvstore driver and which thread spec. `openLocation` (`@z/core`), `openSpec`
 * (`@z/spec`), the `zarr` command and the chunk pool's threads look stores up here and name none
 * themselves, as TensorStore's kvstore drivers register their own URL schemes
 * (`kvstore/url_registry.h`). Each store package exports its driver (`httpStoreDriver` of
 * `@z/store-http`, ...); a third-party store declares one the same way and registers it.
 */
import type { JsonValue } from "./json-value.js";
import type { KvStoreSpecHook } from "./kvstore-spec.js";
import type { LocationStores, Store, ThreadStoreSpec } from "./store.js";

const REGISTRY = Symbol.for("@z/meta store drivers");

/** How a registered store is opened: for writing too, or read-only. */
export interface StoreOpenOptions {
  readonly writable: boolean;
}

/**
 * What a store package declares to the registry (see {@link registerStoreDriver}). Every member
 * but `packageName` is optional: a driver gives what its store can do.
 *
 * ```ts
 * export const kvStoreDriver: StoreDriver = {
 *   packageName: "my-kv-store",
 *   schemes: ["kv"], // openLocation("kv://bucket/x.zarr|zarr2:a"), `zarr info kv://...`
 *   kvstoreDrivers: ["kv"], // {"driver": "zarr2", "kvstore": {"driver": "kv", "path": ...}}
 *   openUrl: (url) => new KeyValueStore(clientFor(url)),
 *   openKvStore: (spec) => new KeyValueStore(clientFor(`kv://${spec.path}`)),
 * };
 * ```
 */
export interface StoreDriver {
  /** The npm package that has the store: named in messages when it is needed and not there. */
  readonly packageName: string;
  /**
   * URL schemes of location strings (`openLocation`, the `zarr` command's STORE), lower case and
   * without the `:`: `["kv"]` opens `kv://...` through {@link StoreDriver.openUrl}. The schemes
   * of z's own stores (`file`, `http`, `https`, `s3`) are read by `parseLocation` itself and
   * opened through {@link StoreDriver.locations}.
   */
  readonly schemes?: readonly string[];
  /**
   * TensorStore kvstore `driver` names (and KvStore URL schemes and `|name:` URL adapters) a spec's
   * `kvstore` may use: read by {@link StoreDriver.kvstoreSpec}'s hook, or else opened as given
   * through {@link StoreDriver.openKvStore} and {@link StoreDriver.openUrl}.
   */
  readonly kvstoreDrivers?: readonly string[];
  /**
   * How a spec's kvstore of {@link StoreDriver.kvstoreDrivers} is read, written back and opened
   * (`@z/spec` loads it when a spec first names one, so a page that opens no spec never loads it).
   */
  kvstoreSpec?(): KvStoreSpecHook | Promise<KvStoreSpecHook>;
  /** The {@link ThreadStoreSpec} kinds {@link StoreDriver.openThreadStore} reopens. */
  readonly threadKinds?: readonly string[];
  /** The openers of z's own location kinds this package gives (directories, zip files, http, s3). */
  readonly locations?: LocationStores;
  /** The store a URL of one of {@link StoreDriver.schemes} names (the part before any `|`). */
  openUrl?(url: string, options: StoreOpenOptions): Store | Promise<Store>;
  /**
   * The store a spec's `kvstore` object names (one of {@link StoreDriver.kvstoreDrivers}): its
   * JSON members as given. Its `path` (with the spec's own `path` appended) is the node's path
   * inside the store returned, as a `memory` kvstore's is: the driver need not root the store there.
   */
  openKvStore?(spec: { readonly [member: string]: JsonValue }, options: StoreOpenOptions): Store | Promise<Store>;
  /** A store a worker thread opens again from what a store's `threadStore()` gave (see `threadKinds`). */
  openThreadStore?(spec: ThreadStoreSpec): Store;
  /**
   * This driver reading its settings (credentials, endpoints) from `environment` rather than from
   * where its package reads them by default: the Node entries that load store packages by
   * themselves give the process's environment.
   */
  withEnvironment?(environment: Readonly<Record<string, string | undefined>>): StoreDriver;
}

/**
 * The registered drivers, latest first: a later registration of a scheme overrides an earlier one.
 * Kept on `globalThis`, so that a store package bringing a copy of `@z/meta` of its own registers
 * where `@z/core` looks.
 */
const drivers: StoreDriver[] = ((globalThis as { [REGISTRY]?: StoreDriver[] })[REGISTRY] ??= []);

/**
 * Registers a store package's driver for `openLocation`, specs, the `zarr` command and pool
 * threads (registering the same driver again does nothing). Returns a function that removes it.
 */
export function registerStoreDriver(driver: StoreDriver): () => void {
  if (!drivers.includes(driver)) drivers.unshift(driver);
  return () => {
    const at = drivers.indexOf(driver);
    if (at >= 0) drivers.splice(at, 1);
  };
}

/** The registered drivers, the latest registered first. */
export const storeDrivers = (): readonly StoreDriver[] => [...drivers];

/** The driver registered for a URL scheme (`"kv"`, case-insensitive), if any. */
export const storeDriverForScheme = (scheme: string): StoreDriver | undefined =>
  drivers.find((d) => d.schemes?.includes(scheme.toLowerCase()) === true);

/** The driver registered for a TensorStore kvstore driver name, if any. */
export const storeDriverForKvStore = (name: string): StoreDriver | undefined =>
  drivers.find((d) => d.kvstoreDrivers?.includes(name) === true);

/** The driver registered that reopens thread specs of `kind`, if any. */
export const storeDriverForThread = (kind: string): StoreDriver | undefined =>
  drivers.find((d) => d.threadKinds?.includes(kind) === true && typeof d.openThreadStore === "function");

/**
 * The store a worker thread opens from `spec` (a store's `threadStore()`), through the driver
 * registered for its kind; `undefined` when none is.
 */
export const openThreadStore = (spec: ThreadStoreSpec): Store | undefined =>
  storeDriverForThread(spec.kind)?.openThreadStore?.(spec);

/** The opener `name` of z's own location kinds from the registered drivers, if one gives it. */
export function registeredLocationOpener<K extends keyof LocationStores>(name: K): LocationStores[K] | undefined {
  for (const d of drivers) if (typeof d.locations?.[name] === "function") return d.locations[name];
  return undefined;
}

/**
 * Where z's own stores are found when none is registered or passed: the package that has each
 * location opener, kvstore driver (and KvStore URL scheme) and thread spec kind, and its driver's
 * export. This is the one list of store packages (as fsspec's `known_implementations` is): the
 * messages that say what to install, and the Node entries and pool threads that import installed
 * store packages by themselves, read it; none names a store package of its own.
 */
export const STORE_PACKAGES = {
  "@z/store-fs": {
    driver: "fsStoreDriver",
    locations: "fsLocations",
    openers: ["openDirectory", "openFile"],
    kvstores: ["file"],
    threadKinds: ["directory"],
    targets: true,
  },
  "@z/store-http": {
    driver: "httpStoreDriver",
    locations: "httpLocations()",
    openers: ["openHttp", "openHttpFile", "openHttpWithHeaders"],
    kvstores: ["http", "https"],
    threadKinds: [],
    targets: true,
  },
  "@z/store-zip": {
    driver: "zipStoreDriver",
    locations: "zipLocations",
    openers: ["openZip"],
    kvstores: ["zip"],
    threadKinds: [],
    targets: false,
  },
  "@z/store-s3": {
    driver: "s3StoreDriver",
    locations: "s3Locations()",
    openers: ["openS3"],
    kvstores: ["s3"],
    threadKinds: [],
    targets: true,
  },
  "@z/store-reference": {
    driver: "referenceStoreDriver",
    locations: "referenceLocations()",
    openers: ["openReference"],
    kvstores: [],
    threadKinds: [],
    targets: false,
  },
} as const satisfies Record<
  string,
  {
    driver: string;
    locations: string;
    openers: readonly (keyof LocationStores)[];
    kvstores: readonly string[];
    /** The `ThreadStoreSpec` kinds its driver reopens in a thread (for specs that name no module). */
    threadKinds: readonly string[];
    /** Whether its openers open the files a reference set points into (`openReference`'s targets). */
    targets: boolean;
  }
>;

/** The packages of {@link STORE_PACKAGES} whose openers open a reference set's target files. */
export const targetStorePackages = (): StorePackageName[] =>
  (Object.keys(STORE_PACKAGES) as StorePackageName[]).filter((pkg) => STORE_PACKAGES[pkg].targets);

/** A package of {@link STORE_PACKAGES}. */
export type StorePackageName = keyof typeof STORE_PACKAGES;

/** The package of z's that gives the location opener `name`. */
export function storePackageForOpener(name: keyof LocationStores): StorePackageName {
  for (const [pkg, entry] of Object.entries(STORE_PACKAGES))
    if ((entry.openers as readonly string[]).includes(name)) return pkg as StorePackageName;
  throw new TypeError(`no store package gives ${name}`);
}

/** The package of z's whose driver reopens thread specs of `kind`, if any. */
export function storePackageForThread(kind: string): StorePackageName | undefined {
  for (const [pkg, entry] of Object.entries(STORE_PACKAGES))
    if ((entry.threadKinds as readonly string[]).includes(kind)) return pkg as StorePackageName;
  return undefined;
}

/** The package of z's that has the kvstore driver `name`, if any. */
export function storePackageForKvStore(name: string): StorePackageName | undefined {
  for (const [pkg, entry] of Object.entries(STORE_PACKAGES))
    if ((entry.kvstores as readonly string[]).includes(name)) return pkg as StorePackageName;
  return undefined;
}
