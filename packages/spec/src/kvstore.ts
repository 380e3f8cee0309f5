/*
 * The `kvstore` of a TensorStore spec: a KvStore spec (`{"driver": "file", "path": ...}`) or a
 * KvStore URL (`file:///data/x.zarr/`, `https://host/x.zip|zip:a/`), parsed as TensorStore parses
 * them, and opened as a z store through openers the caller gives (this file imports no store
 * package, so it runs in browsers too).
 */
import type { JsonValue, LocationStores, Store } from "@z/meta";
import { SpecError, SpecUnsupportedError } from "./errors.js";
import { dumpJson, isObject, Members, requireBoolean, requireString } from "./json.js";
import { parseS3KvStoreUrl, parseS3Members, type S3KvStoreSpec, type SpecS3Options } from "./kvstore-s3.js";

/** What a kvstore spec names. */
export type KvStoreSpec =
  | { readonly driver: "file"; readonly path: string }
  | { readonly driver: "memory"; readonly path: string; readonly resource: JsonValue | undefined }
  | { readonly driver: "http"; readonly baseUrl: string; readonly path: string; readonly headers: readonly string[] }
  | { readonly driver: "zip"; readonly base: KvStoreSpec; readonly path: string }
  | S3KvStoreSpec;

/**
 * Openers for the stores a spec's `kvstore` may name: `LocationStores` (give those you have, e.g.
 * `httpLocations()` from `@z/store-http`, `zipLocations` from `@z/store-zip`; `@z/spec/node` gives
 * them all), and for an `http` kvstore with `headers`, an opener that takes them.
 */
export interface SpecStores extends LocationStores {
  /** A store over an http(s) URL sending `headers` with every request (a spec's `headers`). */
  openHttpWithHeaders?(url: string, headers: Record<string, string>): Store;
  /**
   * A store over an `s3://bucket/path` URL, with the options an `s3` kvstore spec decides (its
   * endpoint, region, credentials type, ...) over the opener's own: `s3Locations(options)` from
   * `@z/store-s3` takes them.
   */
  openS3?(url: string, options?: SpecS3Options): Store;
}

/** The openers a kvstore needs, and the package and export each comes from. */
export function openersForKvStore(spec: KvStoreSpec): (keyof SpecStores)[] {
  switch (spec.driver) {
    case "memory":
      return [];
    case "file":
      return ["openDirectory"];
    case "http":
      return [spec.headers.length > 0 ? "openHttpWithHeaders" : "openHttp"];
    case "s3":
      return ["openS3"];
    case "zip":
      return [
        spec.base.driver === "file" ? "openFile" : spec.base.driver === "http" ? "openHttpFile" : "openZip",
        "openZip",
      ];
  }
}

/** Which package gives each opener, and its export that has it. */
export const SPEC_OPENERS: { readonly [K in keyof SpecStores]-?: { readonly pkg: string; readonly from: string } } = {
  openHttp: { pkg: "@z/store-http", from: "httpLocations()" },
  openHttpWithHeaders: { pkg: "@z/store-http", from: "(url, headers) => new HttpStore(url, { headers })" },
  openHttpFile: { pkg: "@z/store-http", from: "httpLocations()" },
  openZip: { pkg: "@z/store-zip", from: "zipLocations" },
  openDirectory: { pkg: "@z/store-fs", from: "fsLocations" },
  openFile: { pkg: "@z/store-fs", from: "fsLocations" },
  openS3: { pkg: "@z/store-s3", from: "s3Locations(options)" },
  // no kvstore driver of TensorStore's opens one: in the table because SpecStores extends LocationStores
  openReference: { pkg: "@z/store-reference", from: "referenceLocations()" },
};

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

/** TensorStore's `AppendPathComponent`: joined with `/` unless one is there already. */
export function appendPath(path: string, component: string): string {
  if (component === "") return path;
  if (path === "" || path.endsWith("/") || component.startsWith("/")) return path + component;
  return `${path}/${component}`;
}

/** TensorStore's `EnsureDirectoryPath`: a non-empty path ends with `/`. */
export const ensureDirectory = (path: string): string => (path === "" || path.endsWith("/") ? path : `${path}/`);

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
  let spec: KvStoreSpec;
  switch (driver) {
    case "file":
      for (const r of ["file_io_concurrency", "file_io_sync", "file_io_locking", "file_io_mode", "file_io_memmap"])
        m.take(r);
      spec = { driver, path };
      break;
    case "memory": {
      const resource = m.take("memory_key_value_store");
      const atomic = m.take("atomic");
      if (atomic !== undefined) requireBoolean(atomic, m.at("atomic"));
      spec = { driver, path, resource };
      break;
    }
    case "http": {
      const base = m.take("base_url");
      if (base === undefined)
        throw new SpecError("Expected string, but member is missing", { member: m.at("base_url") });
      const baseUrl = requireString(base, m.at("base_url"));
      if (!/^https?:\/\//i.test(baseUrl))
        throw new SpecError(`Expected http or https URL, but received: ${dumpJson(baseUrl)}`, {
          member: m.at("base_url"),
        });
      const headersValue = m.take("headers");
      let headers: string[] = [];
      if (headersValue !== undefined) {
        if (!Array.isArray(headersValue) || headersValue.some((h) => typeof h !== "string" || !h.includes(":")))
          throw new SpecError(`Expected array of "name: value" strings, but received: ${dumpJson(headersValue)}`, {
            member: m.at("headers"),
          });
        headers = headersValue as string[];
      }
      m.take("http_request_concurrency");
      m.take("http_request_retries");
      spec = { driver, baseUrl, path, headers };
      break;
    }
    case "zip": {
      const base = m.take("base");
      if (base === undefined)
        throw new SpecError("Expected kvstore spec, but member is missing", { member: m.at("base") });
      m.take("cache_pool");
      m.take("data_copy_concurrency");
      spec = { driver, base: parseKvStore(base, m.at("base")), path };
      break;
    }
    case "s3":
      return parseS3Members(m, path);
    default:
      if (UNSUPPORTED[driver] !== undefined)
        throw new SpecUnsupportedError(UNSUPPORTED[driver]!, { member: m.at("driver") });
      throw new SpecError(`${JSON.stringify(driver)} is not a registered KvStore driver`, { member: m.at("driver") });
  }
  m.done();
  return spec;
}

/** A KvStore URL: `file://`, `memory://`, `http(s)://`, then `|zip:PATH` adapters. */
export function parseKvStoreUrl(url: string, member: string): KvStoreSpec {
  const [root, ...adapters] = url.split("|") as [string, ...string[]];
  const rawScheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(root)?.[1];
  const scheme = rawScheme?.toLowerCase();
  let spec: KvStoreSpec;
  if (rawScheme === "s3") {
    spec = parseS3KvStoreUrl(root, member, (text) => decode(text, member));
  } else if (scheme === "s3") {
    throw new SpecError(`unsupported URL scheme ${JSON.stringify(rawScheme)} in ${JSON.stringify(root)}`, { member });
  } else if (scheme === "file") {
    if (!root.startsWith("file://")) throw new SpecError(`Invalid file URL: ${JSON.stringify(root)}`, { member });
    spec = { driver: "file", path: decode(root.slice("file://".length), member) };
  } else if (scheme === "memory") {
    if (!root.startsWith("memory://")) throw new SpecError(`Invalid memory URL: ${JSON.stringify(root)}`, { member });
    spec = { driver: "memory", path: decode(root.slice("memory://".length), member), resource: undefined };
  } else if (scheme === "http" || scheme === "https") {
    const parsed = new URL(root);
    spec = {
      driver: "http",
      baseUrl: `${parsed.protocol}//${parsed.host}`,
      path: decode(parsed.pathname, member),
      headers: [],
    };
  } else if (scheme === "gs") {
    throw new SpecUnsupportedError(UNSUPPORTED.gcs!, { member });
  } else {
    throw new SpecError(`Invalid kvstore URL: ${JSON.stringify(url)}`, { member });
  }
  for (const adapter of adapters) {
    const m = /^([a-z0-9_]+):(.*)$/.exec(adapter);
    if (m === null) throw new SpecError(`Invalid kvstore URL component: ${JSON.stringify(adapter)}`, { member });
    if (m[1] === "zip") spec = { driver: "zip", base: spec, path: decode(m[2]!, member) };
    else if (UNSUPPORTED[m[1]!] !== undefined) throw new SpecUnsupportedError(UNSUPPORTED[m[1]!]!, { member });
    else throw new SpecError(`${JSON.stringify(m[1])} is not a registered KvStore URL scheme`, { member });
  }
  return spec;
}

function decode(text: string, member: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new SpecError(`Invalid percent-encoding in ${JSON.stringify(text)}`, { member });
  }
}

/** The spec with `component` appended to its path (the spec's legacy `path` member). */
export const withPath = (spec: KvStoreSpec, component: string): KvStoreSpec => ({
  ...spec,
  path: appendPath(spec.path, component),
});

/** A kvstore spec as a short text for messages. */
export function describeKvStore(spec: KvStoreSpec): string {
  switch (spec.driver) {
    case "file":
      return `file://${spec.path}`;
    case "memory":
      return `memory://${spec.path}`;
    case "http":
      return `${spec.baseUrl.replace(/\/$/, "")}/${spec.path.replace(/^\//, "")}`;
    case "zip":
      return `${describeKvStore(spec.base)}|zip:${spec.path}`;
    case "s3":
      return `s3://${spec.bucket}/${spec.path}${spec.endpoint ? ` at ${spec.endpoint}` : ""}`;
  }
}
