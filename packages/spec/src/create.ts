/*
 * The metadata of a new array from a spec, as TensorStore chooses it: `GetNewMetadata`, then the
 * checks TensorStore makes of the array it created against the spec (`GetComponentIndex`), done
 * here before anything is written.
 */
import type { JsonValue } from "@z/meta";
import { SpecError } from "./errors.js";
import { encodeZarrMetadata, type ZarrMetadata } from "./metadata.js";
import { parseSpec, type ParsedSpec, validateOpenMode } from "./parse.js";
import { fieldOf, newMetadata, validateMetadata, validateMetadataSchema } from "./resolve.js";
import { withContext } from "./chunk-layout.js";
import { type CachePool, type ConcurrencyLimit, SpecContext } from "./context.js";
import { encodeMetadataV3, type MetadataV3 } from "./v3-metadata.js";
import { newMetadataV3, validateMetadataSchemaV3, validateMetadataV3 } from "./v3-resolve.js";

/** The context resources a spec uses, looked up in its own context (a child of `parent`). */
export function bindResources(
  spec: ParsedSpec,
  parent: SpecContext,
): { context: SpecContext; cachePool: CachePool; metadataCachePool: CachePool; dataCopyConcurrency: ConcurrencyLimit } {
  const context = spec.context === undefined ? parent : new SpecContext(spec.context, parent);
  const cachePool = context.resource("cache_pool", spec.cachePool, "cache_pool");
  const metadataCachePool =
    spec.metadataCachePool === undefined
      ? cachePool
      : context.resource("cache_pool", spec.metadataCachePool, "metadata_cache_pool");
  const dataCopyConcurrency = context.resource(
    "data_copy_concurrency",
    spec.dataCopyConcurrency,
    "data_copy_concurrency",
  );
  return { context, cachePool, metadataCachePool, dataCopyConcurrency };
}

/** The metadata TensorStore creates for a parsed spec, checked as TensorStore checks it. */
export function newMetadataFor(spec: ParsedSpec): ZarrMetadata {
  const meta = withContext('Cannot create using specified "metadata" and schema', () =>
    newMetadata(spec.metadata, spec.openAsVoid ? "" : spec.field, spec.schema),
  );
  validateCreated(meta, spec);
  return meta;
}

/** TensorStore's checks of an opened array's metadata against the spec (`GetComponentIndex`). */
export function validateCreated(meta: ZarrMetadata, spec: ParsedSpec): number {
  validateMetadata(meta, spec.metadata);
  if (spec.openAsVoid) return 0;
  const { index } = fieldOf(meta.dtype, spec.field);
  validateMetadataSchema(meta, index, spec.schema);
  return index;
}

/** The `zarr.json` TensorStore's zarr3 driver creates for a parsed spec, checked as TensorStore checks it. */
export function newMetadataV3For(spec: ParsedSpec): MetadataV3 {
  const meta = withContext('Cannot create using specified "metadata" and schema', () =>
    newMetadataV3(spec.metadataV3!, spec.field, spec.schema),
  );
  validateCreatedV3(meta, spec);
  return meta;
}

/** TensorStore's checks of an opened zarr3 array's metadata against the spec (`GetComponentIndex`). */
export function validateCreatedV3(meta: MetadataV3, spec: ParsedSpec): void {
  validateMetadataV3(meta, spec.metadataV3!);
  if (spec.field !== "")
    throw new SpecError(`Requested field ${JSON.stringify(spec.field)} but dtype does not have named fields`, {
      member: "field",
    });
  validateMetadataSchemaV3(meta, spec.schema);
}

/** A create spec of the driver `driver`, read and checked as for an open (no I/O). */
function parsedCreateSpec(spec: JsonValue, driver: "zarr2" | "zarr3", other: string): ParsedSpec {
  const parsed = parseSpec(spec);
  if ((parsed.driver === "zarr3") !== (driver === "zarr3"))
    throw new SpecError(
      `a ${parsed.driver} spec does not create ${driver === "zarr3" ? "a zarr.json" : "a .zarray"}: use ${other}`,
      { member: "driver" },
    );
  bindResources(parsed, new SpecContext());
  validateOpenMode(parsed, true);
  if (!parsed.create) throw new SpecError('the spec does not create an array ("create": true)', { member: "create" });
  return parsed;
}

/**
 * The `.zarray` text TensorStore 0.1.85 writes when it creates the array a zarr2 spec describes
 * (compact JSON, keys sorted), chosen from the spec's `metadata` and `schema` constraints as
 * TensorStore chooses it; a `SpecError` for a spec TensorStore refuses. No I/O.
 */
export function specZarray(spec: JsonValue): string {
  return encodeZarrMetadata(newMetadataFor(parsedCreateSpec(spec, "zarr2", "specZarrJson")));
}

/**
 * The `zarr.json` text TensorStore 0.1.85 writes when it creates the array a zarr3 spec describes
 * (compact JSON, keys sorted): its chunk grid chosen from the chunk layout, a `sharding_indexed`
 * codec added where the read and write chunks differ, the codec chain completed with TensorStore's
 * defaults. A `SpecError` for a spec TensorStore refuses. No I/O.
 */
export function specZarrJson(spec: JsonValue): string {
  return encodeMetadataV3(newMetadataV3For(parsedCreateSpec(spec, "zarr3", "specZarray")));
}
