/*
 * The `kvstore` of a TensorStore spec: a KvStore spec (`{"driver": "file", "path": ...}`) or a
 * KvStore URL (`file:///data/x.zarr/`, `https://host/x.zip|zip:a/`), read as TensorStore reads
 * them. This file knows the `memory` kvstore (a resource of the spec's context) and the store
 * registry of `@z/meta`, no store: each store package's driver gives the kvstore spec hook of its
 * drivers (`StoreDriver.kvstoreSpec`: `file` is `@z/store-fs`'s, `s3` `@z/store-s3`'s, ...), loaded
 * by `prepareKvStores` before a spec is read, so this runs in browsers too. A driver registered
 * with `openKvStore` or `openUrl` and no hook is opened with the members or URL as given.
 */
import {
  STORE_PACKAGES,
  storeDriverForKvStore,
  storeDriverForScheme,
  storeDrivers,
  storePackageForKvStore,
  storePackageForOpener,
  type JsonValue,
  type KvStoreFormatTools,
  type KvStoreParseTools,
  type KvStoreSpecHook,
  type LocationStores,
  type ParsedKvStore,
  type Store,
  type StoreDriver,
} from "@z/meta";
import { SpecError, SpecUnsupportedError } from "./errors.js";
import { dumpJson, isObject, Members, requireBoolean, requireString } from "./json.js";

/** What a kvstore spec names: a `memory` kvstore, a registered driver's, or what a store's hook read. */
export type KvStoreSpec = MemoryKvStoreSpec | RegisteredKvStoreSpec | ParsedKvStore;

/** A `memory` kvstore: a resource of the spec's context. */
export interface MemoryKvStoreSpec {
  readonly driver: "memory";
  readonly path: string;
  readonly resource: JsonValue | undefined;
}

/**
 * A kvstore of a store driver registered in `@z/meta` (`registerStoreDriver`) with no kvstore spec
 * hook: its driver `name` and, from a spec object, its JSON `members` as given, or from a KvStore
 * URL of its scheme, the `url`.
 */
export interface RegisteredKvStoreSpec {
  readonly driver: "registered";
  /** The kvstore driver name (a spec object's `driver`), or the URL scheme (a KvStore URL's). */
  readonly name: string;
  /** The node's path inside the store the driver opens. */
  readonly path: string;
  /** A spec object's members, as given (without `context`). */
  readonly members?: { readonly [member: string]: JsonValue };
  /** A KvStore URL, before any `|` part. */
  readonly url?: string;
}

/**
 * Openers for the stores a spec's `kvstore` may name: `LocationStores` (give those you have, e.g.
 * `httpLocations()` from `@z/store-http`, `zipLocations` from `@z/store-zip`; `@z/spec/node` gives
 * them all), and for an `http` kvstore with `headers`, an opener that takes them.
 */
export interface SpecStores extends LocationStores {
  /**
   * A store over an `s3://bucket/path` URL, with the options an `s3` kvstore spec decides (its
   * endpoint, region, credentials type, ...; `SpecS3Options` of `@z/store-s3`) over the opener's
   * own: `s3Locations(options)` from `@z/store-s3` takes them.
   */
  openS3?(url: string, options?: object): Store;
}

export const isMemory = (spec: KvStoreSpec): spec is MemoryKvStoreSpec => spec.driver === "memory";
export const isRegistered = (spec: KvStoreSpec): spec is RegisteredKvStoreSpec => spec.driver === "registered";

/** The hooks loaded, by driver: those of drivers registered, then those the Node entry found. */
const hooks = new Map<StoreDriver, KvStoreSpecHook>();
/** Drivers of z's store packages the Node entry imported (never registered globally). */
const found: StoreDriver[] = [];

type HookList = "drivers" | "urlSchemes" | "urlAdapters";

/** The loaded hook (and its driver) that reads `name` as a spec object's driver, a URL scheme or an adapter. */
function hookFor(name: string, list: HookList): { hook: KvStoreSpecHook; driver: StoreDriver } | undefined {
  for (const driver of [...storeDrivers(), ...found]) {
    const hook = hooks.get(driver);
    if (hook?.[list]?.includes(name) === true) return { hook, driver };
  }
  return undefined;
}

/** The hook of a parsed kvstore (`parseKvStore` made it only when there is one). */
function hookOf(spec: ParsedKvStore): KvStoreSpecHook {
  const entry = hookFor(spec.driver, "drivers");
  if (entry === undefined) throw new TypeError(`no kvstore spec hook reads ${JSON.stringify(spec.driver)}`);
  return entry.hook;
}

/** The package a parsed kvstore's driver comes from. */
export const kvstorePackage = (spec: ParsedKvStore): string | undefined =>
  hookFor(spec.driver, "drivers")?.driver.packageName;

/**
 * The kvstore driver names, URL schemes and adapters a spec may name (every `driver` string and
 * URL scheme or `|name:` part in it: more than it uses does no harm, as only drivers that
 * declare one of them load their hook).
 */
function namesIn(j: JsonValue, names = new Set<string>()): Set<string> {
  if (typeof j === "string") {
    for (const part of j.split("|")) {
      const name = /^([a-zA-Z][a-zA-Z0-9+._-]*):/.exec(part)?.[1];
      if (name !== undefined) names.add(name.toLowerCase());
    }
  } else if (Array.isArray(j)) for (const v of j) namesIn(v, names);
  else if (isObject(j)) {
    if (typeof j.driver === "string") names.add(j.driver);
    for (const v of Object.values(j)) namesIn(v, names);
  }
  return names;
}

/**
 * Loads the kvstore spec hooks of the drivers a spec may name: those registered, and where none is
 * registered for a name, what `find` gives (the Node entry: the installed store package's driver).
 * Reading the spec afterwards needs no I/O.
 */
export async function prepareKvStores(
  spec: JsonValue,
  find?: (name: string) => Promise<StoreDriver | undefined>,
): Promise<void> {
  for (const name of namesIn(spec)) {
    const declares = (d: StoreDriver): boolean =>
      d.kvstoreDrivers?.includes(name) === true && typeof d.kvstoreSpec === "function";
    let drivers = storeDrivers().filter(declares);
    if (drivers.length === 0 && find !== undefined) {
      const driver = found.find(declares) ?? (await find(name));
      if (driver !== undefined && declares(driver)) {
        if (!found.includes(driver)) found.push(driver);
        drivers = [driver];
      }
    }
    for (const driver of drivers) if (!hooks.has(driver)) hooks.set(driver, await driver.kvstoreSpec!());
  }
}

/** Drivers TensorStore has that this library has no store for: refused, naming why. */
const UNSUPPORTED: Record<string, string> = {
  gcs: "Google Cloud Storage is not supported by this library",
  gcs_grpc: "Google Cloud Storage is not supported by this library",
  ocdbt: "OCDBT databases are not supported by this library",
  neuroglancer_uint64_sharded: "Neuroglancer sharded stores are not supported by this library",
  zarr3_sharding_indexed:
    "the zarr3_sharding_indexed kvstore (the chunks of one shard as keys) is not supported by this library: open the sharded array with its zarr3 spec",
  tsgrpc_kvstore: "TensorStore gRPC stores are not supported by this library",
};

/** A driver name or URL scheme of z's own stores whose package's driver is not loaded: say which package. */
function notLoaded(name: string, what: string, member: string): SpecError | undefined {
  const pkg = storePackageForKvStore(name);
  if (pkg === undefined) return undefined;
  return new SpecError(
    `${JSON.stringify(name)} is the ${what} of ${pkg}: register its ${STORE_PACKAGES[pkg].driver} (registerStoreDriver of @z/meta), or open from "@z/spec/node"`,
    { member },
  );
}

/** TensorStore's `AppendPathComponent`: joined with `/` unless one is there already. */
export function appendPath(path: string, component: string): string {
  if (component === "") return path;
  if (path === "" || path.endsWith("/") || component.startsWith("/")) return path + component;
  return `${path}/${component}`;
}

/** TensorStore's `EnsureDirectoryPath`: a non-empty path ends with `/`. */
export const ensureDirectory = (path: string): string => (path === "" || path.endsWith("/") ? path : `${path}/`);

function decode(text: string, member: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new SpecError(`Invalid percent-encoding in ${JSON.stringify(text)}`, { member });
  }
}

const parseTools: KvStoreParseTools = { parseKvStore: (j, member) => parseKvStore(j, member), decode };

/** A kvstore member: a spec object or a URL. */
export function parseKvStore(j: JsonValue, member: string): KvStoreSpec {
  if (typeof j === "string") return parseKvStoreUrl(j, member);
  if (!isObject(j)) throw new SpecError(`Expected object or string, but received: ${dumpJson(j)}`, { member });
  const m = new Members(j, member);
  const driverValue = m.take("driver");
  if (driverValue === undefined)
    throw new SpecError("Expected string, but member is missing", { member: m.at("driver") });
  const driver = requireString(driverValue, m.at("driver"));
  const pathValue = m.take("path");
  const path = pathValue === undefined ? "" : requireString(pathValue, m.at("path"));
  const context = m.take("context");
  if (context !== undefined)
    throw new SpecUnsupportedError(
      "a context inside the kvstore spec is not supported; give it in the spec's context",
      {
        member: m.at("context"),
      },
    );
  if (driver === "memory") {
    const resource = m.take("memory_key_value_store");
    const atomic = m.take("atomic");
    if (atomic !== undefined) requireBoolean(atomic, m.at("atomic"));
    m.done();
    return { driver, path, resource };
  }
  const hook = hookFor(driver, "drivers")?.hook;
  if (hook !== undefined) {
    const spec = hook.parse(m, path, parseTools);
    m.done();
    return spec;
  }
  if (storeDriverForKvStore(driver)?.openKvStore !== undefined) {
    const { context: _, ...members } = j;
    return { driver: "registered", name: driver, path, members };
  }
  if (UNSUPPORTED[driver] !== undefined)
    throw new SpecUnsupportedError(UNSUPPORTED[driver]!, { member: m.at("driver") });
  throw (
    notLoaded(driver, "kvstore driver", m.at("driver")) ??
    new SpecError(`${JSON.stringify(driver)} is not a registered KvStore driver`, { member: m.at("driver") })
  );
}

/** A KvStore URL: `memory://`, or a store hook's scheme (`file://`, `http(s)://`, `s3://`), then `|zip:PATH` adapters. */
export function parseKvStoreUrl(url: string, member: string): KvStoreSpec {
  const [root, ...adapters] = url.split("|") as [string, ...string[]];
  const rawScheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(root)?.[1];
  const scheme = rawScheme?.toLowerCase();
  const hook = scheme === undefined ? undefined : hookFor(scheme, "urlSchemes")?.hook;
  let spec: KvStoreSpec;
  if (scheme === "memory") {
    if (!root.startsWith("memory://")) throw new SpecError(`Invalid memory URL: ${JSON.stringify(root)}`, { member });
    spec = { driver: "memory", path: decode(root.slice("memory://".length), member), resource: undefined };
  } else if (hook?.parseUrl !== undefined) {
    spec = hook.parseUrl(root, member, parseTools);
  } else if (scheme !== undefined && storeDriverForScheme(scheme)?.openUrl !== undefined) {
    spec = { driver: "registered", name: scheme, path: "", url: root };
  } else if (scheme === "gs") {
    throw new SpecUnsupportedError(UNSUPPORTED.gcs!, { member });
  } else {
    throw (
      (scheme === undefined ? undefined : notLoaded(scheme, "KvStore URL scheme", member)) ??
      new SpecError(`Invalid kvstore URL: ${JSON.stringify(url)}`, { member })
    );
  }
  for (const adapter of adapters) {
    const m = /^([a-z0-9_]+):(.*)$/.exec(adapter);
    if (m === null) throw new SpecError(`Invalid kvstore URL component: ${JSON.stringify(adapter)}`, { member });
    const adapting = hookFor(m[1]!, "urlAdapters")?.hook;
    if (adapting?.adapt !== undefined) spec = adapting.adapt(spec, decode(m[2]!, member), member, parseTools);
    else if (UNSUPPORTED[m[1]!] !== undefined) throw new SpecUnsupportedError(UNSUPPORTED[m[1]!]!, { member });
    else
      throw (
        notLoaded(m[1]!, "KvStore URL adapter", member) ??
        new SpecError(`${JSON.stringify(m[1])} is not a registered KvStore URL scheme`, { member })
      );
  }
  return spec;
}

/** The spec with `component` appended to its path (the spec's legacy `path` member). */
export const withPath = (spec: KvStoreSpec, component: string): KvStoreSpec => ({
  ...spec,
  path: appendPath(spec.path, component),
});

/** What a hook is given to write a nested kvstore back or name it. */
export const formatTools: KvStoreFormatTools = {
  kvstoreJson: (spec) => kvstoreJson(spec),
  describeKvStore: (spec) => describeKvStore(spec),
  sourceOpeners: (spec) => (isMemory(spec) || isRegistered(spec) ? [] : (hookOf(spec).sourceOpeners?.(spec) ?? [])),
};

/** A parsed kvstore spec back as JSON. */
export function kvstoreJson(spec: KvStoreSpec): JsonValue {
  if (isMemory(spec)) return { driver: "memory", path: spec.path };
  if (isRegistered(spec)) return spec.url ?? { ...spec.members, driver: spec.name, path: spec.path };
  return hookOf(spec).toJson(spec, formatTools);
}

/** A kvstore spec as a short text for messages. */
export function describeKvStore(spec: KvStoreSpec): string {
  if (isMemory(spec)) return `memory://${spec.path}`;
  if (isRegistered(spec)) return spec.url ?? `${spec.name}:${spec.path}`;
  return hookOf(spec).describe(spec, formatTools);
}

/** The openers a kvstore needs. */
export function openersForKvStore(spec: KvStoreSpec): (keyof SpecStores)[] {
  if (isMemory(spec) || isRegistered(spec)) return [];
  return hookOf(spec).openers(spec, formatTools) as (keyof SpecStores)[];
}

/** The hook that opens a parsed kvstore. */
export const kvstoreHook = (spec: ParsedKvStore): KvStoreSpecHook => hookOf(spec);

/** Which package gives an opener, and its export that has it (`@z/meta`'s store registry, or the hook's word). */
export function specOpener(name: string, spec: ParsedKvStore): { readonly pkg: string; readonly from: string } {
  const entry = hookFor(spec.driver, "drivers");
  const from = entry?.hook.openerExports?.[name];
  try {
    const pkg = storePackageForOpener(name as keyof LocationStores);
    return { pkg, from: from ?? STORE_PACKAGES[pkg].locations };
  } catch {
    // An opener of a third party's hook: its own package.
    return { pkg: entry?.driver.packageName ?? "the store package", from: from ?? name };
  }
}
