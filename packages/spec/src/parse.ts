/*
 * The zarr2 driver's JSON spec, read member by member in the order TensorStore's binders read it
 * (tensorstore/driver/driver_spec.cc, kvs_backed_chunk_driver.cc, zarr/driver.cc), so that the
 * first error reported is the one TensorStore reports, and every member not part of the spec is
 * refused by name.
 */
import { JsonFloat, parseJson, type JsonValue } from "@z/meta";
import { withMember } from "./chunk-layout.js";
import { type Domain, parseDomainMembers, TRANSFORM_KEYS } from "./domain.js";
import { SpecError, SpecUnsupportedError } from "./errors.js";
import { dumpJson, isObject, Members, requireArray, requireBoolean, requireInteger, requireString } from "./json.js";
import {
  ensureDirectory,
  isRegistered,
  type KvStoreSpec,
  kvstoreJson,
  parseKvStore,
  parseKvStoreUrl,
  withPath,
} from "./kvstore.js";
import { parsePartialMetadata, parseSeparator, type PartialMetadata } from "./metadata.js";
import { specRankInfo } from "./resolve.js";
import { parseDataTypeName, Schema } from "./schema.js";
import { validateZarr3DataType } from "./v3-dtype.js";
import { type MetadataConstraintsV3, parseMetadataConstraintsV3 } from "./v3-metadata.js";
import { setMetadataConstraintsOnSchemaV3 } from "./v3-resolve.js";

/** TensorStore's staleness bound of cached data or metadata. */
export type StalenessBound =
  /** Revalidated on every read (`true`). */
  | { readonly kind: "always" }
  /** Never revalidated (`false`). */
  | { readonly kind: "never" }
  /** Revalidated if cached before the array was opened (`"open"`). */
  | { readonly kind: "open" }
  /** Revalidated if cached before this time (ms since the epoch; the spec gives seconds). */
  | { readonly kind: "time"; readonly time: number };

/** A zarr2 or zarr3 spec, read and checked; what the open needs. */
export interface ParsedSpec {
  readonly driver: "zarr2" | "zarr" | "zarr3";
  /** The context JSON given in the spec, if any. */
  readonly context: JsonValue | undefined;
  readonly schema: Schema;
  /** The input domain of an identity `transform`, if one was given. */
  readonly transform: Domain | undefined;
  readonly kvstore: KvStoreSpec;
  /** A zarr2 spec's `metadata` (a zarr3 spec's: `{}`). */
  readonly metadata: PartialMetadata;
  /** A zarr3 spec's `metadata` (undefined for zarr2). */
  readonly metadataV3: MetadataConstraintsV3 | undefined;
  readonly metadataKey: string;
  /** `""`: no field selected. */
  readonly field: string;
  readonly openAsVoid: boolean;
  readonly open: boolean;
  readonly create: boolean;
  readonly deleteExisting: boolean;
  readonly assumeMetadata: boolean;
  readonly assumeCachedMetadata: boolean;
  readonly fillMissingDataReads: boolean;
  readonly storeDataEqualToFillValue: boolean;
  readonly recheckCachedData: StalenessBound;
  readonly recheckCachedMetadata: StalenessBound;
  /** References to context resources (a name, an inline spec, or undefined for the default). */
  readonly cachePool: JsonValue | undefined;
  readonly metadataCachePool: JsonValue | undefined;
  readonly dataCopyConcurrency: JsonValue | undefined;
}

/** Other TensorStore drivers: specs for them are refused as not this driver's. */
const OTHER_DRIVERS = [
  "n5",
  "neuroglancer_precomputed",
  "array",
  "cast",
  "downsample",
  "image",
  "json",
  "stack",
  "virtual_chunked",
  "auto",
  "png",
  "jpeg",
  "tiff",
  "webp",
  "avif",
  "bmp",
];
const KVSTORE_DRIVERS = ["file", "memory", "http", "zip", "s3", "gcs", "ocdbt", "gcs_grpc"];

/** Spec text (JSON with integers past 2^53 kept exact, floats kept as floats). */
export function parseSpecText(text: string): JsonValue {
  return parseJson(text, undefined, { keepFloats: true });
}

/** Reads a zarr2 or zarr3 spec: a JSON object, or a TensorStore URL (`file:///data/x.zarr|zarr2:a/b`, `...|zarr3:`). */
export function parseSpec(input: JsonValue): ParsedSpec {
  if (typeof input === "string") return parseSpec(specFromUrl(input));
  const m = new Members(input, "");
  const driverValue = m.take("driver");
  if (driverValue === undefined) throw new SpecError("Expected string, but member is missing", { member: "driver" });
  const driver = requireString(driverValue, "driver");
  if (driver !== "zarr2" && driver !== "zarr" && driver !== "zarr3") {
    if (OTHER_DRIVERS.includes(driver) || KVSTORE_DRIVERS.includes(driver))
      throw new SpecUnsupportedError(
        `the ${JSON.stringify(driver)} driver is not supported: this opens zarr2 and zarr3 specs (driver "zarr2", "zarr" or "zarr3")`,
        { member: "driver" },
      );
    throw new SpecError(`${JSON.stringify(driver)} is not a registered TensorStore driver`, { member: "driver" });
  }

  const context = m.take("context");
  if (context !== undefined && !isObject(context))
    throw new SpecError(`Expected object, but received: ${dumpJson(context)}`, { member: "context" });

  const schema = new Schema();
  const schemaJson = m.take("schema");
  if (schemaJson !== undefined) schema.parse(schemaJson, "schema");
  const dtypeJson = m.take("dtype");
  if (dtypeJson !== undefined) {
    const dtype = parseDataTypeName(dtypeJson, "dtype");
    withMember("dtype", () => schema.setDtype(dtype));
  }

  const transformJson = m.take("transform");
  const transform = transformJson === undefined ? undefined : parseIdentityTransform(transformJson, "transform");
  const rankJson = m.take("rank");
  if (rankJson !== undefined) {
    const rank = requireInteger(rankJson, "rank", -1, 32);
    if (rank >= 0) {
      if (transform !== undefined && transform.dims.length !== rank)
        throw new SpecError(
          `Specified rank (${rank}) does not match input rank of transform (${transform.dims.length})`,
          {
            member: "rank",
          },
        );
      withMember("rank", () => schema.setRank(rank));
    }
  }
  if (transform !== undefined) withMember("transform", () => schema.setRank(transform.dims.length));

  // The kvstore-backed driver's members.
  const dataCopyConcurrency = resourceRef(m, "data_copy_concurrency");
  const cachePool = resourceRef(m, "cache_pool");
  const metadataCachePool = resourceRef(m, "metadata_cache_pool");
  const kvstoreJson = m.take("kvstore");
  let kvstore = kvstoreJson === undefined ? undefined : parseKvStore(kvstoreJson, "kvstore");
  const pathJson = m.take("path");
  if (pathJson !== undefined) {
    const path = requireString(pathJson, "path");
    if (kvstore === undefined)
      throw new SpecError('"path" must be specified in conjunction with "kvstore"', { member: "path" });
    kvstore = withPath(kvstore, path);
  }
  if (kvstore === undefined)
    throw new SpecError('"kvstore" must be specified (a KvStore spec or URL)', { member: "kvstore" });
  kvstore = { ...kvstore, path: ensureDirectory(kvstore.path) };
  const recheckCachedMetadata = staleness(m, "recheck_cached_metadata", { kind: "open" });
  const recheckCachedData = staleness(m, "recheck_cached_data", { kind: "always" });
  const fillMissingDataReads = bool(m, "fill_missing_data_reads") ?? true;
  const storeDataEqualToFillValue = bool(m, "store_data_equal_to_fill_value") ?? false;
  const openFlag = bool(m, "open");
  const createFlag = bool(m, "create");
  const open = openFlag !== undefined || createFlag !== undefined ? (openFlag ?? false) : true;
  // Flags given but neither set: TensorStore 0.1.85 then creates (as `"create": true` alone does).
  const create = (createFlag ?? false) || (!open && openFlag !== undefined) || (!open && createFlag === false);
  const deleteExisting = bool(m, "delete_existing") ?? false;
  const assumeMetadata = bool(m, "assume_metadata") ?? false;
  const assumeCachedMetadata = !assumeMetadata && (bool(m, "assume_cached_metadata") ?? false);
  const allow = m.take("allow_metadata_mismatch");
  if (allow !== undefined && allow !== false)
    throw new SpecError('"allow_metadata_mismatch" no longer supported', { member: "allow_metadata_mismatch" });

  // What both drivers' specs hold; each adds its own metadata members.
  const common: Omit<ParsedSpec, "metadata" | "metadataV3" | "metadataKey" | "field" | "openAsVoid"> = {
    driver,
    context,
    schema,
    transform,
    kvstore,
    open,
    create,
    deleteExisting,
    assumeMetadata,
    assumeCachedMetadata,
    fillMissingDataReads,
    storeDataEqualToFillValue,
    recheckCachedData,
    recheckCachedMetadata,
    cachePool,
    metadataCachePool,
    dataCopyConcurrency,
  };
  if (driver === "zarr3") return parseZarr3Members(m, common);

  // The zarr2 driver's own members.
  const metadataJson = m.take("metadata");
  const metadata = metadataJson === undefined ? {} : parsePartialMetadata(metadataJson, "metadata");
  const keyJson = m.take("metadata_key");
  const metadataKey = keyJson === undefined ? ".zarray" : requireString(keyJson, "metadata_key");
  const encodingJson = m.take("key_encoding");
  if (encodingJson !== undefined) {
    const separator = parseSeparator(encodingJson, "key_encoding");
    if (metadata.dimensionSeparator !== undefined && metadata.dimensionSeparator !== separator)
      throw new SpecError(
        `value (${JSON.stringify(separator)}) does not match value in metadata (${JSON.stringify(metadata.dimensionSeparator)})`,
        { member: "key_encoding" },
      );
    metadata.dimensionSeparator = separator;
  }
  const fieldJson = m.take("field");
  let field = "";
  if (fieldJson !== undefined && fieldJson !== null) field = requireString(fieldJson, "field");
  const openAsVoid = bool(m, "open_as_void") ?? false;
  if (openAsVoid && field !== "")
    throw new SpecError('"field" and "open_as_void" are mutually exclusive', { member: "open_as_void" });
  const info = withMember("field", () => specRankInfo(metadata, field, schema, openAsVoid));
  if (info.fullRank !== undefined) withMember("metadata", () => schema.setRank(info.fullRank));
  if (info.field !== undefined) withMember("metadata.dtype", () => schema.setDtype(info.field!.dtype));
  m.done();

  return { ...common, metadata, metadataV3: undefined, metadataKey, field, openAsVoid };
}

/**
 * The zarr3 driver's own members (tensorstore/driver/zarr3/driver.cc `ZarrDriverSpec`): after the
 * kvstore-backed members, the schema's data type checked, then `metadata`, `field`, `open_as_void`.
 */
function parseZarr3Members(
  m: Members,
  common: Omit<ParsedSpec, "metadata" | "metadataV3" | "metadataKey" | "field" | "openAsVoid">,
): ParsedSpec {
  const { schema } = common;
  if (schema.dtype !== undefined) validateZarr3DataType(schema.dtype, "dtype");
  const metadataJson = m.take("metadata");
  const metadataV3 =
    metadataJson === undefined
      ? { attributes: {}, extensions: {} }
      : parseMetadataConstraintsV3(metadataJson, "metadata");
  const fieldJson = m.take("field");
  let field = "";
  if (fieldJson !== undefined && fieldJson !== null) field = requireString(fieldJson, "field");
  const openAsVoid = bool(m, "open_as_void") ?? false;
  if (openAsVoid && field !== "")
    throw new SpecError('"field" and "open_as_void" are mutually exclusive', { member: "open_as_void" });
  setMetadataConstraintsOnSchemaV3(metadataV3, schema);
  m.done();
  if (openAsVoid)
    throw new SpecUnsupportedError(
      "open_as_void is not supported for zarr3 arrays by this library: open the array with openArray and read its bytes through a view",
      { member: "open_as_void" },
    );
  return { ...common, metadata: {}, metadataV3, metadataKey: "zarr.json", field, openAsVoid };
}

/** TensorStore's `OpenModeSpec::Validate`: the combinations of open flags it refuses. */
export function validateOpenMode(spec: ParsedSpec, writable: boolean): void {
  const fail = (why: string, member: string): SpecError =>
    new SpecError(`Cannot specify an open mode of ${why}`, { member });
  if (spec.deleteExisting && !spec.create) throw fail("`delete_existing` without `create`", "delete_existing");
  if (spec.deleteExisting && spec.open) throw fail("`delete_existing` with `open`", "delete_existing");
  if (spec.deleteExisting && spec.assumeMetadata)
    throw fail("`delete_existing` with `assume_metadata`", "delete_existing");
  if (spec.deleteExisting && spec.assumeCachedMetadata)
    throw fail("`delete_existing` with `assume_cached_metadata`", "delete_existing");
  if (spec.assumeMetadata && !spec.open) throw fail("`assume_metadata` without `open`", "assume_metadata");
  if (spec.assumeCachedMetadata && !spec.open)
    throw fail("`assume_cached_metadata` without `open`", "assume_cached_metadata");
  if (spec.create && !writable) throw fail("`create` without `write`", "create");
}

function bool(m: Members, name: string): boolean | undefined {
  const v = m.take(name);
  return v === undefined ? undefined : requireBoolean(v, m.at(name));
}

function staleness(m: Members, name: string, fallback: StalenessBound): StalenessBound {
  const v = m.take(name);
  if (v === undefined) return fallback;
  if (v === true) return { kind: "always" };
  if (v === false) return { kind: "never" };
  if (v === "open") return { kind: "open" };
  if (typeof v === "number" || typeof v === "bigint" || v instanceof JsonFloat)
    return { kind: "time", time: Number(v instanceof JsonFloat ? v.value : v) * 1000 };
  throw new SpecError(`Expected boolean, number, or "open", but received: ${dumpJson(v)}`, { member: m.at(name) });
}

/** A context resource member: a reference (`"cache_pool#a"`), an inline spec, or null. */
function resourceRef(m: Members, name: string): JsonValue | undefined {
  const v = m.take(name);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" && !isObject(v))
    throw new SpecError(`Expected string or object, but received: ${dumpJson(v)}`, { member: m.at(name) });
  return v;
}

/**
 * A `transform` member. Only identity transforms are supported (the output dimensions are the
 * input dimensions, unshifted and unstrided, as the transforms TensorStore itself writes into a
 * spec are); their input domain is returned.
 */
function parseIdentityTransform(j: JsonValue, member: string): Domain {
  const m = new Members(j, member);
  const domain = parseDomainMembers(m, TRANSFORM_KEYS);
  if (domain === undefined)
    throw new SpecError(
      `At least one of ${Object.values(TRANSFORM_KEYS)
        .map((k) => JSON.stringify(k))
        .join(", ")} members must be specified`,
      { member },
    );
  const output = m.take("output");
  if (output !== undefined) {
    const maps = requireArray(output, m.at("output"));
    const identity =
      maps.length === domain.dims.length &&
      maps.every((map, i) => {
        if (!isObject(map)) return false;
        const keys = Object.keys(map);
        const offset = map.offset ?? 0;
        const stride = map.stride ?? 1;
        return (
          keys.every((k) => ["input_dimension", "offset", "stride"].includes(k)) &&
          map.input_dimension === i &&
          (offset === 0 || offset === 0n) &&
          (stride === 1 || stride === 1n)
        );
      });
    if (!identity)
      throw new SpecUnsupportedError(
        `only identity transforms are supported (output dimension i is input dimension i, offset 0, stride 1), got ${dumpJson(output)}`,
        { member: m.at("output") },
      );
  }
  m.done();
  return domain;
}

/** A TensorStore URL (`<kvstore URL>|zarr2:<path>`, `...|zarr3:<path>`) as the spec it stands for. */
function specFromUrl(url: string): JsonValue {
  const parts = url.split("|");
  const last = parts[parts.length - 1]!;
  const driver = /^(zarr2|zarr3|zarr):(.*)$/.exec(last);
  if (driver === null || parts.length < 2)
    throw new SpecUnsupportedError(
      `${JSON.stringify(url)}: a TensorStore URL must end with "|zarr2:" or "|zarr3:" (auto-detection is not supported)`,
    );
  if (driver[1] === "zarr")
    throw new SpecError(`${JSON.stringify(driver[1])} is not a registered TensorStore URL scheme`, {
      member: "driver",
    });
  if (/[?#]/.test(driver[2]!)) throw new SpecError(`Query string not supported: ${JSON.stringify(last)}`);
  const base = parseKvStoreUrl(parts.slice(0, -1).join("|"), "kvstore");
  const path = decodeURIComponent(driver[2]!);
  // A registered driver's URL stays the URL it is; the node's path is the spec's legacy `path`.
  if (isRegistered(base) && base.url !== undefined)
    return { driver: driver[1]!, kvstore: base.url, ...(path === "" ? {} : { path }) };
  return { driver: driver[1]!, kvstore: kvstoreJson(withPath(base, path)) };
}

// Where it was before the stores' hooks wrote their kvstores back.
export { kvstoreJson } from "./kvstore.js";
