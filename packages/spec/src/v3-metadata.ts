/*
 * `zarr.json` as TensorStore's zarr3 driver reads and writes it (tensorstore/driver/zarr3/metadata.cc
 * `MetadataJsonBinder`): the spec's `metadata` member (every member optional, each a constraint)
 * and the stored document (all but `dimension_names` and `attributes` required), read member by
 * member in TensorStore's order; and the compact JSON TensorStore writes.
 */
import type { JsonValue } from "@z/meta";
import { SpecError } from "./errors.js";
import { K_INF_INDEX } from "./domain.js";
import type { TsDataType } from "./dtype.js";
import { dumpJson, isObject, Members, requireArray, requireInteger, type JsonObjectValue } from "./json.js";
import { parseStoredUnits, unitToString, type DimensionUnits } from "./units.js";
import { chainJsonV3, type ChainV3, parseChainV3 } from "./v3-codecs.js";
import { parseZarr3DataType } from "./v3-dtype.js";
import { type FillV3, parseFillV3 } from "./v3-fill-value.js";

/** A chunk key encoding: `default` (`c/0/1`) or `v2` (`0.1`), with its separator. */
export interface ChunkKeyEncodingV3 {
  readonly kind: "default" | "v2";
  readonly separator: "/" | ".";
}

/** What `zarr.json` and the spec's `metadata` share (in `metadata`, each member optional). */
interface MetadataV3Members {
  /** Set from whichever of `shape`, `dimension_names`, `chunk_grid`, `attributes.dimension_units` gives it. */
  rank?: number;
  shape?: readonly number[];
  dtype?: TsDataType;
  fill?: FillV3;
  dimensionNames?: readonly (string | null)[];
  chunkKeyEncoding?: ChunkKeyEncodingV3;
  chunkShape?: readonly number[];
  codecs?: ChainV3;
  /** `attributes` but `dimension_units`. */
  attributes: JsonObjectValue;
  dimensionUnits?: DimensionUnits;
  /** Members TensorStore does not know, each marked `{"must_understand": false}`. */
  extensions: JsonObjectValue;
}

/** The spec's `metadata` member of a zarr3 spec. */
export type MetadataConstraintsV3 = MetadataV3Members;

/** A whole `zarr.json` of an array, as TensorStore holds it. */
export interface MetadataV3 {
  readonly rank: number;
  readonly shape: readonly number[];
  readonly dtype: TsDataType;
  readonly fill: FillV3;
  readonly dimensionNames: readonly (string | null)[];
  readonly chunkKeyEncoding: ChunkKeyEncodingV3;
  readonly chunkShape: readonly number[];
  readonly codecs: ChainV3;
  readonly attributes: JsonObjectValue;
  readonly dimensionUnits?: DimensionUnits;
  readonly extensions: JsonObjectValue;
}

/** A `DimensionIndexedVector`: its length sets the rank, or must match it. */
function dimensionVector(j: JsonValue, member: string, rank: { value?: number }): readonly JsonValue[] {
  const items = requireArray(j, member);
  if (rank.value !== undefined && rank.value !== items.length)
    throw new SpecError(`Array has length ${items.length} but should have length ${rank.value}`, { member });
  if (items.length > 32) throw new SpecError(`Rank ${items.length} is outside valid range [0, 32]`, { member });
  rank.value = items.length;
  return items;
}

const indexVector = (j: JsonValue, member: string, rank: { value?: number }, min: number): number[] =>
  dimensionVector(j, member, rank).map((x, i) => requireInteger(x, `${member}[${i}]`, min, K_INF_INDEX));

function constant(j: JsonValue, value: string, member: string): void {
  if (j !== value) throw new SpecError(`Expected ${JSON.stringify(value)}, but received: ${dumpJson(j)}`, { member });
}

function parseChunkKeyEncoding(j: JsonValue, member: string): ChunkKeyEncodingV3 {
  const m = new Members(j, member);
  const name = m.take("name");
  if (name !== "default" && name !== "v2")
    throw new SpecError(`Expected one of "default", "v2", but received: ${dumpJson(name ?? null)}`, {
      member: m.at("name"),
    });
  const configuration = m.take("configuration");
  m.done();
  const c = new Members(configuration ?? {}, m.at("configuration"));
  const sep = c.take("separator");
  c.done();
  if (sep !== undefined && sep !== "." && sep !== "/")
    throw new SpecError(`Expected one of ".", "/", but received: ${dumpJson(sep)}`, { member: c.at("separator") });
  return { kind: name, separator: sep ?? (name === "default" ? "/" : ".") };
}

/** The members of `zarr.json` in TensorStore's order; `stored`: a stored document, every required member there. */
function parseMembers(m: Members, stored: boolean): MetadataV3Members {
  const get = (name: string): JsonValue | undefined => {
    const v = m.take(name);
    if (v === undefined && stored) throw new SpecError("Expected value, but member is missing", { member: m.at(name) });
    return v;
  };
  const out: MetadataV3Members = { attributes: {}, extensions: {} };
  const rank: { value?: number } = {};
  const format = get("zarr_format");
  if (format !== undefined) requireInteger(format, m.at("zarr_format"), 3, 3);
  const nodeType = get("node_type");
  if (nodeType !== undefined) constant(nodeType, "array", m.at("node_type"));
  const dtype = get("data_type");
  if (dtype !== undefined) out.dtype = parseZarr3DataType(dtype, m.at("data_type"));
  const fill = get("fill_value");
  if (fill !== undefined) {
    if (out.dtype === undefined)
      throw new SpecError('must be specified in conjunction with "data_type"', { member: m.at("fill_value") });
    out.fill = parseFillV3(fill, out.dtype, m.at("fill_value"));
  }
  const shape = get("shape");
  if (shape !== undefined) out.shape = indexVector(shape, m.at("shape"), rank, 0);
  const names = m.take("dimension_names");
  if (names !== undefined)
    out.dimensionNames = dimensionVector(names, m.at("dimension_names"), rank).map((x, i) => {
      if (x === null || typeof x === "string") return x;
      throw new SpecError(`Expected string, but received: ${dumpJson(x)}`, {
        member: `${m.at("dimension_names")}[${i}]`,
      });
    });
  const encoding = get("chunk_key_encoding");
  if (encoding !== undefined) out.chunkKeyEncoding = parseChunkKeyEncoding(encoding, m.at("chunk_key_encoding"));
  const grid = get("chunk_grid");
  if (grid !== undefined) {
    const g = new Members(grid, m.at("chunk_grid"));
    const name = g.take("name");
    if (name === undefined) throw new SpecError('Expected "regular", but member is missing', { member: g.at("name") });
    constant(name, "regular", g.at("name"));
    const configuration = g.take("configuration");
    g.done();
    const c = new Members(configuration, g.at("configuration"));
    const chunkShape = c.take("chunk_shape");
    if (chunkShape === undefined)
      throw new SpecError("Expected array, but member is missing", { member: c.at("chunk_shape") });
    out.chunkShape = indexVector(chunkShape, c.at("chunk_shape"), rank, 1);
    c.done();
  }
  const codecs = get("codecs");
  if (codecs !== undefined) out.codecs = parseChainV3(codecs, m.at("codecs"), !stored);
  const transformers = m.take("storage_transformers");
  if (transformers !== undefined && requireArray(transformers, m.at("storage_transformers")).length > 0)
    throw new SpecError("No storage transformers supported", { member: m.at("storage_transformers") });
  const attributes = m.take("attributes");
  if (attributes !== undefined) {
    if (!isObject(attributes))
      throw new SpecError(`Expected object, but received: ${dumpJson(attributes)}`, { member: m.at("attributes") });
    const { dimension_units: units, ...rest } = attributes;
    if (units !== undefined) {
      const at = `${m.at("attributes")}.dimension_units`;
      dimensionVector(units, at, rank);
      out.dimensionUnits = parseStoredUnits(units, at);
    }
    out.attributes = rest;
  }
  out.rank = rank.value;
  // What is left: extensions TensorStore may ignore only if they say so.
  const json = m.json;
  for (const key of Object.keys(json)) {
    if (m.taken(key)) continue;
    m.take(key);
    const value = json[key]!;
    if (!(isObject(value) && value.must_understand === false))
      throw new SpecError(
        `Unsupported metadata field ${JSON.stringify(key)} is not marked {"must_understand": false}`,
        {
          member: m.at(key),
        },
      );
    out.extensions = { ...out.extensions, [key]: value };
  }
  return out;
}

/** The spec's `metadata` member. */
export function parseMetadataConstraintsV3(j: JsonValue, member: string): MetadataConstraintsV3 {
  const m = new Members(j, member);
  const out = parseMembers(m, false);
  m.done();
  return out;
}

/** A stored `zarr.json` (parsed JSON), as TensorStore reads it; `key` names it in errors. */
export function parseMetadataV3(j: JsonValue, key: string): MetadataV3 {
  try {
    const m = new Members(j, "");
    const p = parseMembers(m, true);
    m.done();
    const meta: MetadataV3 = {
      rank: p.rank!,
      shape: p.shape!,
      dtype: p.dtype!,
      fill: p.fill!,
      dimensionNames: p.dimensionNames ?? new Array<null>(p.rank!).fill(null),
      chunkKeyEncoding: p.chunkKeyEncoding!,
      chunkShape: p.chunkShape!,
      codecs: p.codecs!,
      attributes: p.attributes,
      ...(p.dimensionUnits === undefined ? {} : { dimensionUnits: p.dimensionUnits }),
      extensions: p.extensions,
    };
    return meta;
  } catch (error) {
    if (error instanceof SpecError)
      throw new SpecError(`Error reading ${JSON.stringify(key)}: ${error.message}`, { key, cause: error });
    throw error;
  }
}

/** A chunk key encoding as TensorStore writes it (the default separator left out). */
export function chunkKeyEncodingJson(e: ChunkKeyEncodingV3): JsonValue {
  const defaultSeparator = e.kind === "default" ? "/" : ".";
  return e.separator === defaultSeparator
    ? { name: e.kind }
    : { name: e.kind, configuration: { separator: e.separator } };
}

/** The `zarr.json` of an array as TensorStore builds it. */
export function metadataV3Json(meta: MetadataV3): JsonObjectValue {
  const attributes: Record<string, JsonValue> = { ...meta.attributes };
  if (meta.dimensionUnits !== undefined)
    attributes.dimension_units = meta.dimensionUnits.map((u) => (u === undefined ? null : unitToString(u)));
  return {
    ...meta.extensions,
    zarr_format: 3,
    node_type: "array",
    data_type: meta.dtype,
    fill_value: meta.fill.json,
    shape: [...meta.shape],
    ...(meta.dimensionNames.some((n) => n !== null) ? { dimension_names: [...meta.dimensionNames] } : {}),
    chunk_key_encoding: chunkKeyEncodingJson(meta.chunkKeyEncoding),
    chunk_grid: { name: "regular", configuration: { chunk_shape: [...meta.chunkShape] } },
    codecs: chainJsonV3(meta.codecs),
    ...(Object.keys(attributes).length === 0 ? {} : { attributes }),
  };
}

/** The `zarr.json` text TensorStore writes: compact, keys sorted. */
export const encodeMetadataV3 = (meta: MetadataV3): string => dumpJson(metadataV3Json(meta));
