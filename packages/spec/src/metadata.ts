/*
 * `.zarray` as TensorStore's zarr2 driver reads and writes it (tensorstore/driver/zarr/metadata.cc):
 * the spec's `metadata` member (every member optional, all of them constraints) and the stored
 * document (every member required but `dimension_separator`, extra members kept), and the compact
 * JSON TensorStore writes.
 */
import type { CodecConfig, JsonValue } from "@z/meta";
import { parseCompressor } from "./compressor.js";
import { parseZarrDType, zarrDTypeToJson, type ZarrDType } from "./dtype.js";
import { SpecError } from "./errors.js";
import { encodeFillValue, parseFillValue, type FieldFills } from "./fill-value.js";
import { dumpJson, Members, requireArray, requireInteger, type JsonObjectValue } from "./json.js";
import { K_INF_INDEX } from "./domain.js";

export type Order = "C" | "F";
export type Separator = "." | "/";

/** The spec's `metadata` member: constraints, each optional. */
export interface PartialMetadata {
  zarrFormat?: 2;
  /** Set from `shape` or `chunks`, whichever is given. */
  rank?: number;
  shape?: readonly number[];
  chunks?: readonly number[];
  dtype?: ZarrDType;
  compressor?: CodecConfig | null;
  fillValue?: FieldFills;
  order?: Order;
  dimensionSeparator?: Separator;
}

/** A whole `.zarray`. */
export interface ZarrMetadata {
  readonly zarrFormat: 2;
  readonly rank: number;
  readonly shape: readonly number[];
  readonly chunks: readonly number[];
  readonly dtype: ZarrDType;
  readonly compressor: CodecConfig | null;
  readonly fillValue: FieldFills;
  readonly order: Order;
  readonly dimensionSeparator?: Separator;
  /** Members TensorStore does not know, kept as they were. */
  readonly extra?: JsonObjectValue;
}

function parseOrder(j: JsonValue, member: string): Order {
  if (j === "C" || j === "F") return j;
  throw new SpecError(`Expected one of "C", "F", but received: ${dumpJson(j)}`, { member });
}

export function parseSeparator(j: JsonValue, member: string): Separator {
  if (j === "." || j === "/") return j;
  throw new SpecError(`Expected one of ".", "/", but received: ${dumpJson(j)}`, { member });
}

/** `shape` or `chunks`: integers in [min, kInfIndex], of the rank already known. */
function parseVector(j: JsonValue, member: string, min: number, rank: { value?: number }): number[] {
  const items = requireArray(j, member);
  if (rank.value !== undefined && rank.value !== items.length)
    throw new SpecError(`Array has length ${items.length} but should have length ${rank.value}`, { member });
  if (items.length > 32) throw new SpecError(`Rank ${items.length} is outside valid range [0, 32]`, { member });
  rank.value = items.length;
  return items.map((x, i) => requireInteger(x, `${member}[${i}]`, min, K_INF_INDEX));
}

/** The members `metadata` and `.zarray` share, in TensorStore's order. */
function parseMembers(m: Members, required: boolean): PartialMetadata & { filtersGiven: boolean } {
  const out: PartialMetadata & { filtersGiven: boolean } = { filtersGiven: false };
  const get = (name: string): JsonValue | undefined => {
    const v = m.take(name);
    if (v === undefined && required)
      throw new SpecError("Expected value, but member is missing", { member: m.at(name) });
    return v;
  };
  const format = get("zarr_format");
  if (format !== undefined) {
    requireInteger(format, m.at("zarr_format"), 2, 2);
    out.zarrFormat = 2;
  }
  const rank: { value?: number } = {};
  const shape = get("shape");
  if (shape !== undefined) out.shape = parseVector(shape, m.at("shape"), 0, rank);
  const chunks = get("chunks");
  if (chunks !== undefined) out.chunks = parseVector(chunks, m.at("chunks"), 1, rank);
  out.rank = rank.value;
  const dtype = get("dtype");
  if (dtype !== undefined) out.dtype = parseZarrDType(dtype, m.at("dtype"));
  const compressor = get("compressor");
  if (compressor !== undefined) out.compressor = parseCompressor(compressor, m.at("compressor"));
  const fill = get("fill_value");
  if (fill !== undefined) {
    if (out.dtype === undefined)
      throw new SpecError('must be specified in conjunction with "dtype"', { member: m.at("fill_value") });
    out.fillValue = parseFillValue(fill, out.dtype, m.at("fill_value"));
  }
  const order = get("order");
  if (order !== undefined) out.order = parseOrder(order, m.at("order"));
  const filters = get("filters");
  if (filters !== undefined) {
    out.filtersGiven = true;
    if (filters !== null) {
      if (!Array.isArray(filters))
        throw new SpecError(`Expected null or array, but received: ${dumpJson(filters)}`, { member: m.at("filters") });
      if (filters.length !== 0) throw new SpecError("filters are not supported", { member: m.at("filters") });
    }
  }
  const separator = m.take("dimension_separator");
  if (separator !== undefined) out.dimensionSeparator = parseSeparator(separator, m.at("dimension_separator"));
  return out;
}

/** The spec's `metadata` member. */
export function parsePartialMetadata(j: JsonValue, member: string): PartialMetadata {
  const m = new Members(j, member);
  const { filtersGiven: _, ...out } = parseMembers(m, false);
  m.done();
  return out;
}

/** A stored `.zarray` (parsed JSON), as TensorStore reads it; `key` names it in errors. */
export function parseZarrMetadata(j: JsonValue, key: string): ZarrMetadata {
  try {
    const m = new Members(j, "");
    const p = parseMembers(m, true);
    const known = new Set([
      "zarr_format",
      "shape",
      "chunks",
      "dtype",
      "compressor",
      "fill_value",
      "order",
      "filters",
      "dimension_separator",
    ]);
    const extra = Object.fromEntries(Object.entries(j as JsonObjectValue).filter(([k]) => !known.has(k)));
    const meta: ZarrMetadata = {
      zarrFormat: 2,
      rank: p.rank!,
      shape: p.shape!,
      chunks: p.chunks!,
      dtype: p.dtype!,
      compressor: p.compressor!,
      fillValue: p.fillValue!,
      order: p.order!,
      ...(p.dimensionSeparator === undefined ? {} : { dimensionSeparator: p.dimensionSeparator }),
      ...(Object.keys(extra).length === 0 ? {} : { extra }),
    };
    validateChunkBytes(meta);
    return meta;
  } catch (error) {
    if (error instanceof SpecError)
      throw new SpecError(`Error reading ${JSON.stringify(key)}: ${error.message}`, { key, cause: error });
    throw error;
  }
}

/** TensorStore's `ComputeChunkLayout` checks: a chunk's elements and bytes must fit in 64 bits. */
export function validateChunkBytes(meta: { chunks: readonly number[]; dtype: ZarrDType }): void {
  let elements = 1n;
  for (const c of meta.chunks) elements *= BigInt(c);
  if (elements >= 2n ** 63n - 1n)
    throw new SpecError(`Product of chunk dimensions {${meta.chunks.join(", ")}} is too large`);
  if (elements * BigInt(meta.dtype.bytesPerOuterElement) >= 2n ** 63n)
    throw new SpecError("Total number of bytes per chunk is too large");
}

/** The `.zarray` JSON of metadata, as TensorStore builds it. */
export function zarrMetadataJson(meta: ZarrMetadata): JsonObjectValue {
  return {
    ...(meta.extra ?? {}),
    zarr_format: 2,
    shape: [...meta.shape],
    chunks: [...meta.chunks],
    dtype: zarrDTypeToJson(meta.dtype),
    compressor: meta.compressor as JsonValue,
    fill_value: encodeFillValue(meta.dtype, meta.fillValue),
    order: meta.order,
    filters: null,
    ...(meta.dimensionSeparator === undefined ? {} : { dimension_separator: meta.dimensionSeparator }),
  };
}

/** The `.zarray` text TensorStore writes for metadata: compact, keys sorted. */
export const encodeZarrMetadata = (meta: ZarrMetadata): string => dumpJson(zarrMetadataJson(meta));
