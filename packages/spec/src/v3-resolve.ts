/*
 * How TensorStore's zarr3 driver turns a spec into metadata and checks metadata against a spec
 * (tensorstore/driver/zarr3/metadata.cc): `GetNewMetadata` chooses the `zarr.json` of a new array
 * from the `metadata` constraints and the schema (the chunk grid from the chunk layout, a sharding
 * codec when the read and write chunks differ, the codec chain completed); `ValidateMetadata` and
 * `ValidateMetadataSchema` check an existing array against them.
 */
import { JsonFloat, type JsonValue } from "@z/meta";
import { chooseReadWriteChunkShapes, type ChunkLayout, withContext, withMember } from "./chunk-layout.js";
import { type Domain, isFiniteInterval, mergeDomains } from "./domain.js";
import type { TsDataType } from "./dtype.js";
import { SpecError } from "./errors.js";
import { broadcast, convertValues, identical, type Values } from "./fill-value.js";
import { dumpJson, isObject, type JsonObjectValue } from "./json.js";
import { mergeCodecs, type Schema } from "./schema.js";
import { type DimensionUnits, mergeUnits, sameUnit, unitToString } from "./units.js";
import { chainLayout, prepareChainV3, resolveChainV3 } from "./v3-codec-resolve.js";
import { type ChainV3, EMPTY_CHAIN, mergeChains, shardingHeight } from "./v3-codecs.js";
import { isZarr3DataType, zarr3ItemSize } from "./v3-dtype.js";
import { fillOfValues, type FillV3, zeroFill } from "./v3-fill-value.js";
import { chunkKeyEncodingJson, type MetadataConstraintsV3, type MetadataV3 } from "./v3-metadata.js";

const WRITE = 0;
const READ = 1;
const CODEC = 2;

const hardVec = (values: readonly number[]) => ({ values, hard: values.map(() => true) });

/** TensorStore's `TrySetMetadataConstraintsOnSchema` (data types of one field): the schema's dtype and rank. */
export function setMetadataConstraintsOnSchemaV3(c: MetadataConstraintsV3, schema: Schema): void {
  const full = schema.rank;
  const chunked = c.rank;
  // A plain data type adds no dimensions; without one, what it adds is not known.
  const fieldRank = c.dtype === undefined ? undefined : 0;
  const fullRank = full ?? (chunked !== undefined && fieldRank !== undefined ? chunked + fieldRank : undefined);
  if (
    (chunked !== undefined && fullRank !== undefined && chunked > fullRank) ||
    (fullRank !== undefined && chunked !== undefined && fieldRank !== undefined && fullRank !== chunked + fieldRank)
  )
    throw new SpecError(`Rank specified by schema (${fullRank}) is not compatible with metadata`, {
      member: "metadata",
    });
  if (c.dtype !== undefined) withMember("metadata.data_type", () => schema.setDtype(c.dtype));
  if (fullRank !== undefined) withMember("metadata", () => schema.setRank(fullRank));
}

/** TensorStore's `GetEffectiveDomain`: the domain `shape` and `names` imply, merged with the schema's. */
function effectiveDomain(
  chunkedRank: number | undefined,
  shape: readonly number[] | undefined,
  names: readonly (string | null)[] | undefined,
  schema: Schema,
): { domain: Domain | undefined; namesUsed: boolean } {
  if (shape === undefined && names === undefined && schema.domain === undefined)
    return { domain: schema.rank === 0 ? { dims: [], labels: [] } : undefined, namesUsed: false };
  const rank = Math.max(schema.rank ?? -1, chunkedRank ?? -1);
  const dims = Array.from({ length: rank }, (_, i) => ({
    min: 0,
    max: shape === undefined ? Infinity : shape[i]! - 1,
    implicitLower: false,
    implicitUpper: true,
  }));
  let labels = new Array<string>(rank).fill("");
  let namesUsed = false;
  if (names !== undefined) {
    const given = names.map((n) => n ?? "");
    const named = given.filter((n) => n !== "");
    // Names that are not distinct are no TensorStore labels: the dimensions stay unlabeled.
    if (new Set(named).size === named.length) {
      labels = given;
      namesUsed = true;
    }
  }
  const merged = withContext("Mismatch between metadata and schema", () =>
    mergeDomains(schema.domain, { dims, labels }),
  )!;
  return {
    domain: {
      dims: merged.dims.map((d) => ({ ...d, implicitLower: false, implicitUpper: true })),
      labels: merged.labels,
    },
    namesUsed,
  };
}

/** TensorStore's `SetChunkLayoutFromMetadata`: what the chunk grid and the codecs say about the chunk layout. */
function setChunkLayoutFromMetadataV3(
  rank: number | undefined,
  chunkShape: readonly number[] | undefined,
  codecs: ChainV3 | undefined,
  dtype: TsDataType | undefined,
  layout: ChunkLayout,
): void {
  if (rank === undefined) return;
  layout.setRank(rank);
  withContext("Error setting grid_origin", () => layout.setGridOrigin(hardVec(new Array<number>(rank).fill(0))));
  if (chunkShape !== undefined) layout.setGrid(WRITE, { shape: hardVec(chunkShape) });
  if (codecs === undefined) return;
  const info = chainLayout(codecs, { dtype, rank, ...(chunkShape === undefined ? {} : { shape: chunkShape }) });
  if (info.innerOrder !== undefined)
    withContext("Error setting inner_order", () => layout.setInnerOrder(info.innerOrder!, true));
  if (info.readChunkShape !== undefined) layout.setGrid(READ, { shape: hardVec(info.readChunkShape) });
  if (info.codecChunkShape !== undefined) layout.setGrid(CODEC, { shape: hardVec(info.codecChunkShape) });
}

/** TensorStore's `GetEffectiveChunkLayout`: the schema's chunk layout with the metadata constraints'. */
function effectiveChunkLayout(c: MetadataConstraintsV3, schema: Schema): ChunkLayout {
  const layout = schema.chunkLayout.clone();
  const rank = c.rank ?? schema.rank ?? c.shape?.length ?? c.chunkShape?.length;
  // The data type is not looked at here: TensorStore passes bytes for it.
  setChunkLayoutFromMetadataV3(rank, c.chunkShape, c.codecs, undefined, layout);
  return layout;
}

/** TensorStore's `GetEffectiveDimensionUnits`. */
function effectiveUnits(
  rank: number,
  units: DimensionUnits | undefined,
  schema: DimensionUnits | undefined,
): DimensionUnits {
  const own = units ?? new Array<undefined>(rank).fill(undefined);
  return schema === undefined ? own : mergeUnits(own, schema);
}

/** A schema's fill value as the data type's (it must broadcast to a scalar). */
function schemaFill(values: Values, dtype: TsDataType): FillV3 {
  return fillOfValues(convertValues(broadcast(values, [], "schema.fill_value"), dtype, "schema.fill_value"));
}

/** TensorStore's `ValidateMetadata(metadata)` for a new array: its codecs fit its chunks. */
function validateStructure(meta: MetadataV3): void {
  chainLayout(meta.codecs, { dtype: meta.dtype, rank: meta.rank, shape: meta.chunkShape });
  prepareChainV3(meta.codecs, meta.chunkShape);
  let bytes = BigInt(zarr3ItemSize(meta.dtype));
  for (const s of meta.chunkShape) bytes *= BigInt(s);
  if (bytes > 2n ** 63n - 1n)
    throw new SpecError(`Integer overflow computing encoded size of array of shape {${meta.chunkShape.join(", ")}}`);
}

/** TensorStore's `GetNewMetadata`: the `zarr.json` of a new array. */
export function newMetadataV3(c: MetadataConstraintsV3, field: string, schema: Schema): MetadataV3 {
  let dtype: TsDataType;
  if (c.dtype !== undefined) dtype = c.dtype;
  else if (field !== "")
    throw new SpecError('"dtype" must be specified in "metadata" if "field" is specified', { member: "field" });
  else if (schema.dtype !== undefined) {
    if (!isZarr3DataType(schema.dtype))
      throw new SpecError(`Data type not supported: ${schema.dtype}`, { member: "dtype" });
    dtype = schema.dtype;
  } else throw new SpecError("dtype must be specified", { member: "dtype" });
  if (field !== "")
    throw new SpecError(`Requested field ${JSON.stringify(field)} but dtype does not have named fields`, {
      member: "field",
    });
  const chunkedRank = c.rank ?? schema.rank;
  const { domain, namesUsed } = effectiveDomain(chunkedRank, c.shape, c.dimensionNames, schema);
  if (domain === undefined || !domain.dims.every(isFiniteInterval))
    throw new SpecError("domain must be specified", { member: "metadata.shape" });
  const rank = domain.dims.length;
  const shape = domain.dims.map((d) => d.max - d.min + 1);
  const dimensionNames = domain.labels.map((label, i) =>
    label !== "" ? label : namesUsed && c.dimensionNames?.[i] === "" ? "" : null,
  );

  let fill: FillV3;
  if (c.fill !== undefined) fill = c.fill;
  else if (schema.fillValue !== undefined)
    fill = withContext("Invalid fill_value", () => schemaFill(schema.fillValue!, dtype), "schema.fill_value");
  else fill = zeroFill(dtype);

  const units = withContext(
    "Invalid dimension_units",
    () => effectiveUnits(rank, c.dimensionUnits, schema.dimensionUnits),
    "schema.dimension_units",
  );
  const codec = mergeCodecs(
    { driver: "zarr3", ...(c.codecs === undefined ? {} : { codecs: c.codecs }) },
    schema.codec,
  )!;
  const layout = effectiveChunkLayout(c, schema);
  const inner = layout.innerOrder();
  const { read, write } = withMember("schema.chunk_layout", () => chooseReadWriteChunkShapes(layout, domain, rank));

  let chain = codec.codecs;
  // Read chunks smaller than write chunks are what sharding gives: TensorStore adds it.
  if (read.some((r, i) => r !== write[i]) && (chain === undefined || shardingHeight(chain) === 0))
    chain = {
      arrayToArray: [],
      arrayToBytes: {
        name: "sharding_indexed",
        chunkShape: [...read],
        ...(chain === undefined ? {} : { codecs: chain }),
      },
      bytesToBytes: [],
    };
  const { chain: codecs } = resolveChainV3(chain ?? EMPTY_CHAIN, {
    dtype,
    rank,
    readChunkShape: read,
    ...(inner === undefined ? {} : { innerOrder: inner.values }),
  });
  const meta: MetadataV3 = {
    rank,
    shape,
    dtype,
    fill,
    dimensionNames,
    chunkKeyEncoding: c.chunkKeyEncoding ?? { kind: "default", separator: "/" },
    chunkShape: write,
    codecs,
    attributes: c.attributes,
    ...(units.some((u) => u !== undefined) ? { dimensionUnits: units } : {}),
    extensions: c.extensions,
  };
  validateStructure(meta);
  validateMetadataSchemaV3(meta, schema);
  return meta;
}

// --- checks of stored metadata ----------------------------------------------------------------------

/** TensorStore's `MetadataMismatchError`. */
const mismatch = (name: string, want: JsonValue | undefined, got: JsonValue | undefined): SpecError =>
  new SpecError(
    `Expected ${JSON.stringify(name)} of ${want === undefined ? "<unspecified>" : dumpJson(want)} but received: ${got === undefined ? "<unspecified>" : dumpJson(got)}`,
    { member: `metadata.${name}` },
  );

/** TensorStore's `JsonSame`: equal JSON, numbers compared by value. */
function jsonSame(a: JsonValue, b: JsonValue): boolean {
  const num = (x: JsonValue): number | bigint | undefined =>
    typeof x === "number" || typeof x === "bigint" ? x : x instanceof JsonFloat ? x.value : undefined;
  const x = num(a);
  const y = num(b);
  // A bigint and a number of the same value are the same number.
  if (x !== undefined || y !== undefined)
    return (
      x !== undefined &&
      y !== undefined &&
      (typeof x === typeof y
        ? x === y
        : Number.isInteger(Number(x)) && Number.isInteger(Number(y)) && BigInt(x) === BigInt(y))
    );
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonSame(v, b[i]!));
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonSame(a[k]!, b[k]!));
  }
  return a === b;
}

/** TensorStore's `ValidateMetadataSubset`: each member of `expected` is in `actual`, the same. */
function validateSubset(expected: JsonObjectValue, actual: JsonObjectValue, where: string): void {
  for (const [key, value] of Object.entries(expected)) {
    if (!Object.hasOwn(actual, key) || !jsonSame(actual[key]!, value))
      throw new SpecError(
        `Expected ${JSON.stringify(key)} of ${dumpJson(value)} but received: ${Object.hasOwn(actual, key) ? dumpJson(actual[key]) : "<unspecified>"}`,
        { member: where },
      );
  }
}

const unitsJson = (u: DimensionUnits | undefined): JsonValue =>
  u === undefined ? null : u.map((x) => (x === undefined ? null : unitToString(x)));

/** TensorStore's `ValidateMetadata(metadata, constraints)`: the `metadata` member against a `zarr.json`. */
export function validateMetadataV3(meta: MetadataV3, c: MetadataConstraintsV3): void {
  const vec = (v: readonly number[]): JsonValue => [...v];
  if (c.dtype !== undefined && c.dtype !== meta.dtype) throw mismatch("data_type", c.dtype, meta.dtype);
  if (c.fill !== undefined && !identical(c.fill.values, meta.fill.values))
    throw mismatch("fill_value", c.fill.json, meta.fill.json);
  if (c.shape !== undefined && dumpJson(vec(c.shape)) !== dumpJson(vec(meta.shape)))
    throw mismatch("shape", vec(c.shape), vec(meta.shape));
  if (c.chunkShape !== undefined && dumpJson(vec(c.chunkShape)) !== dumpJson(vec(meta.chunkShape)))
    throw mismatch("chunk_shape", vec(c.chunkShape), vec(meta.chunkShape));
  if (
    c.chunkKeyEncoding !== undefined &&
    (c.chunkKeyEncoding.kind !== meta.chunkKeyEncoding.kind ||
      c.chunkKeyEncoding.separator !== meta.chunkKeyEncoding.separator)
  )
    throw mismatch(
      "chunk_key_encoding",
      chunkKeyEncodingJson(c.chunkKeyEncoding),
      chunkKeyEncodingJson(meta.chunkKeyEncoding),
    );
  if (c.codecs !== undefined)
    withContext('Mismatch in "codecs"', () => mergeChains(meta.codecs, c.codecs!, true), "metadata.codecs");
  if (c.dimensionNames !== undefined && dumpJson([...c.dimensionNames]) !== dumpJson([...meta.dimensionNames]))
    throw mismatch("dimension_names", [...c.dimensionNames], [...meta.dimensionNames]);
  withContext('Mismatch in "attributes"', () => validateSubset(c.attributes, meta.attributes, "metadata.attributes"));
  if (c.dimensionUnits !== undefined)
    c.dimensionUnits.forEach((u, i) => {
      if (u === undefined) return;
      const stored = meta.dimensionUnits?.[i];
      if (stored === undefined || !sameUnit(stored, u))
        throw mismatch("dimension_units", unitsJson(c.dimensionUnits), unitsJson(meta.dimensionUnits));
    });
  validateSubset(c.extensions, meta.extensions, "metadata");
}

/** TensorStore's `ValidateMetadataSchema`: schema constraints against a `zarr.json`. */
export function validateMetadataSchemaV3(meta: MetadataV3, schema: Schema): void {
  if (schema.rank !== undefined && schema.rank !== meta.rank)
    throw new SpecError(
      `Rank specified by schema (${schema.rank}) does not match rank specified by metadata (${meta.rank})`,
      {
        member: "schema.rank",
      },
    );
  if (schema.dtype !== undefined && schema.dtype !== meta.dtype)
    throw new SpecError(`data_type from metadata (${meta.dtype}) does not match dtype in schema (${schema.dtype})`, {
      member: "schema.dtype",
    });
  if (schema.domain !== undefined) effectiveDomain(meta.rank, meta.shape, meta.dimensionNames, schema);
  if (schema.chunkLayout.rank !== undefined) {
    const copy = schema.chunkLayout.clone();
    withMember("schema.chunk_layout", () =>
      setChunkLayoutFromMetadataV3(meta.rank, meta.chunkShape, meta.codecs, meta.dtype, copy),
    );
    if (copy.hasHardCodecChunkShape())
      throw new SpecError("codec_chunk_shape not supported", { member: "schema.chunk_layout.codec_chunk" });
  }
  if (schema.fillValue !== undefined) {
    const wanted = withMember("schema.fill_value", () => schemaFill(schema.fillValue!, meta.dtype));
    if (!identical(wanted.values, meta.fill.values))
      throw new SpecError(
        `Invalid fill_value: schema requires fill value of ${dumpJson(wanted.json)}, but metadata specifies fill value of ${dumpJson(meta.fill.json)}`,
        { member: "schema.fill_value" },
      );
  }
  if (schema.codec !== undefined)
    withContext(
      "codec from metadata does not match codec in schema",
      () => mergeCodecs({ driver: "zarr3", codecs: meta.codecs }, schema.codec),
      "schema.codec",
    );
  if (schema.dimensionUnits !== undefined)
    withContext(
      "dimension_units from metadata does not match dimension_units in schema",
      () => effectiveUnits(meta.rank, meta.dimensionUnits, schema.dimensionUnits),
      "schema.dimension_units",
    );
}
