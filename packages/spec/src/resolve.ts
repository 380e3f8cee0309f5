/*
 * How TensorStore's zarr2 driver turns a spec into metadata and checks metadata against a spec
 * (tensorstore/driver/zarr/spec.cc): `GetNewMetadata` chooses the `.zarray` of a new array from the
 * `metadata` constraints and the schema; `ValidateMetadata` and `ValidateMetadataSchema` check an
 * existing array against them.
 */
import type { CodecConfig } from "@z/meta";
import { chooseReadWriteChunkShape, formatVector, type ChunkLayout, withContext, withMember } from "./chunk-layout.js";
import { sameCompressor } from "./compressor.js";
import { type Domain, domainOfShape, formatDomain, isFiniteInterval, mergeDomains } from "./domain.js";
import { chooseBaseDType, fieldIndex, voidField, type ZarrDType, type ZarrField } from "./dtype.js";
import { SpecError } from "./errors.js";
import { broadcast, convertValues, encodeFillValue, formatValues, identical, type FieldFills } from "./fill-value.js";
import { dumpJson } from "./json.js";
import { validateChunkBytes, type Order, type PartialMetadata, type ZarrMetadata } from "./metadata.js";
import { type CodecSpec, mergeCodecs, type Schema } from "./schema.js";

/** The ranks a spec implies: the whole (chunked dimensions then field dimensions), and each part. */
export interface RankInfo {
  fullRank?: number;
  chunkedRank?: number;
  fieldRank?: number;
  field?: ZarrField;
}

/** TensorStore's `ValidateSpecRankAndFieldInfo`. */
export function completeRankInfo(info: RankInfo): RankInfo {
  const out = { ...info };
  if (out.field !== undefined) out.fieldRank = out.field.fieldShape.length;
  if (out.fullRank === undefined && out.chunkedRank !== undefined && out.fieldRank !== undefined) {
    out.fullRank = out.chunkedRank + out.fieldRank;
    if (out.fullRank > 32) throw new SpecError(`Rank ${out.fullRank} is outside valid range [0, 32]`);
  }
  const le = (a?: number, b?: number): boolean => a === undefined || b === undefined || a <= b;
  const sum =
    out.chunkedRank === undefined || out.fieldRank === undefined ? undefined : out.chunkedRank + out.fieldRank;
  if (
    !le(out.chunkedRank, out.fullRank) ||
    !le(out.fieldRank, out.fullRank) ||
    (out.fullRank !== undefined && sum !== undefined && out.fullRank !== sum)
  )
    throw new SpecError(`Rank specified by schema (${out.fullRank ?? -1}) is not compatible with metadata`);
  if (out.chunkedRank === undefined && out.fullRank !== undefined && out.fieldRank !== undefined)
    out.chunkedRank = out.fullRank - out.fieldRank;
  if (out.fieldRank === undefined && out.fullRank !== undefined && out.chunkedRank !== undefined)
    out.fieldRank = out.fullRank - out.chunkedRank;
  return out;
}

/** TensorStore's `GetSpecRankAndFieldInfo` for a spec. */
export function specRankInfo(partial: PartialMetadata, field: string, schema: Schema, openAsVoid = false): RankInfo {
  const info: RankInfo = { fullRank: schema.rank, chunkedRank: partial.rank };
  if (partial.dtype !== undefined)
    info.field = openAsVoid
      ? voidField(partial.dtype)
      : partial.dtype.fields[fieldIndex(partial.dtype, field, "field")];
  return completeRankInfo(info);
}

/** The rank info of stored metadata and one of its fields. */
export function metadataRankInfo(
  meta: ZarrMetadata,
  index: number,
): Required<Pick<RankInfo, "fullRank" | "chunkedRank" | "fieldRank">> & RankInfo {
  const field = meta.dtype.fields[index]!;
  return {
    chunkedRank: meta.rank,
    field,
    fieldRank: field.fieldShape.length,
    fullRank: meta.rank + field.fieldShape.length,
  };
}

/** TensorStore's `GetDomainFromMetadata`. */
export function domainFromMetadata(
  info: RankInfo,
  shape: readonly number[] | undefined,
  schema: Schema,
): Domain | undefined {
  const full = info.fullRank;
  if (
    full === undefined ||
    (schema.domain === undefined &&
      ((info.chunkedRank !== 0 && shape === undefined) || (info.fieldRank !== 0 && info.field === undefined)))
  )
    return schema.domain;
  const sizes = new Array<number>(full).fill(Infinity);
  const implicit = new Array<boolean>(full).fill(true);
  if (shape !== undefined) sizes.splice(0, shape.length, ...shape);
  if (info.field !== undefined) {
    const fr = info.fieldRank!;
    for (let i = 0; i < fr; i++) {
      implicit[full - fr + i] = false;
      sizes[full - fr + i] = info.field.fieldShape[i]!;
    }
  }
  const own = domainOfShape(sizes, (i) => implicit[i]!);
  const merged = mergeDomains(own, schema.domain)!;
  return {
    dims: merged.dims.map((d, i) => ({ ...d, implicitLower: false, implicitUpper: implicit[i]! })),
    labels: merged.labels,
  };
}

/** TensorStore's `GetChunkInnerOrder`: C or F order over the chunked dimensions, field dimensions innermost. */
export function chunkInnerOrder(chunkedRank: number, order: Order, fullRank: number): number[] {
  const perm = Array.from({ length: fullRank }, (_, i) => i);
  if (order === "F") {
    const head = perm.slice(0, chunkedRank).reverse();
    return [...head, ...perm.slice(chunkedRank)];
  }
  return perm;
}

/** TensorStore's `SetChunkLayoutFromMetadata`: what `chunks` and `order` say about the chunk layout. */
export function setChunkLayoutFromMetadata(
  info: RankInfo,
  chunks: readonly number[] | undefined,
  order: Order | undefined,
  layout: ChunkLayout,
): void {
  const full = info.fullRank;
  if (full === undefined) return;
  layout.setRank(full);
  withContext("Error setting grid_origin", () =>
    layout.setGridOrigin({ values: new Array(full).fill(0), hard: new Array(full).fill(true) }),
  );
  const shape = new Array<number>(full).fill(0);
  if (chunks !== undefined) shape.splice(0, chunks.length, ...chunks);
  if (info.field !== undefined) shape.splice(info.chunkedRank!, info.field.fieldShape.length, ...info.field.fieldShape);
  layout.setChunkShape(shape);
  if (order !== undefined && info.chunkedRank !== undefined) {
    const inner = chunkInnerOrder(info.chunkedRank, order, full);
    withContext("Error setting inner_order", () => layout.setInnerOrder(inner, true));
  }
}

/** TensorStore's `MetadataMismatchError`. */
const mismatch = (name: string, want: string, got: string): SpecError =>
  new SpecError(`Expected ${JSON.stringify(name)} of ${want} but received: ${got}`, { member: `metadata.${name}` });

/** TensorStore's `ValidateMetadata(metadata, constraints)`: the `metadata` member against a `.zarray`. */
export function validateMetadata(meta: ZarrMetadata, c: PartialMetadata): void {
  const vec = (v: readonly number[]): string => `[${v.join(",")}]`;
  if (c.shape !== undefined && vec(c.shape) !== vec(meta.shape)) throw mismatch("shape", vec(c.shape), vec(meta.shape));
  if (c.chunks !== undefined && vec(c.chunks) !== vec(meta.chunks))
    throw mismatch("chunks", vec(c.chunks), vec(meta.chunks));
  if (c.compressor !== undefined && !sameCompressor(c.compressor, meta.compressor))
    throw mismatch("compressor", dumpJson(c.compressor as never), dumpJson(meta.compressor as never));
  if (c.order !== undefined && c.order !== meta.order)
    throw mismatch("order", JSON.stringify(c.order), JSON.stringify(meta.order));
  if (c.dtype !== undefined) {
    const a = dumpJson(zarrDtypeJson(c.dtype));
    const b = dumpJson(zarrDtypeJson(meta.dtype));
    if (a !== b) throw mismatch("dtype", a, b);
  }
  if (c.fillValue !== undefined) {
    const a = dumpJson(encodeFillValue(meta.dtype, c.fillValue));
    const b = dumpJson(encodeFillValue(meta.dtype, meta.fillValue));
    if (a !== b) throw mismatch("fill_value", a, b);
  }
  if (
    c.dimensionSeparator !== undefined &&
    meta.dimensionSeparator !== undefined &&
    c.dimensionSeparator !== meta.dimensionSeparator
  )
    throw mismatch(
      "dimension_separator",
      JSON.stringify(c.dimensionSeparator),
      JSON.stringify(meta.dimensionSeparator),
    );
}

const zarrDtypeJson = (d: ZarrDType) =>
  d.hasFields
    ? d.fields.map((f) => (f.outerShape.length === 0 ? [f.name, f.encoded] : [f.name, f.encoded, [...f.outerShape]]))
    : d.fields[0]!.encoded;

/** The codec spec stored metadata implies. */
export const codecOfMetadata = (meta: { compressor: CodecConfig | null }): CodecSpec => ({
  driver: "zarr",
  compressor: meta.compressor,
  filters: null,
});

/** TensorStore's `ValidateMetadataSchema`: schema constraints against a `.zarray` and one of its fields. */
export function validateMetadataSchema(meta: ZarrMetadata, index: number, schema: Schema): void {
  const info = metadataRankInfo(meta, index);
  const field = meta.dtype.fields[index]!;
  if (schema.rank !== undefined && schema.rank !== info.fullRank)
    throw new SpecError(`Rank is ${info.fullRank}, but schema specifies rank of ${schema.rank}`, {
      member: "schema.rank",
    });
  if (schema.dtype !== undefined && schema.dtype !== field.dtype)
    throw new SpecError(`dtype from metadata (${field.dtype}) does not match dtype in schema (${schema.dtype})`, {
      member: "schema.dtype",
    });
  if (schema.domain !== undefined)
    withContext(
      "domain from metadata does not match domain in schema",
      () => domainFromMetadata(info, meta.shape, schema),
      "schema.domain",
    );
  if (schema.codec !== undefined)
    withContext(
      "codec from metadata does not match codec in schema",
      () => mergeCodecs(codecOfMetadata(meta), schema.codec),
      "schema.codec",
    );
  if (schema.fillValue !== undefined) {
    const fill = meta.fillValue[index];
    if (fill === undefined)
      throw new SpecError(
        `Invalid fill_value: schema requires fill value of ${formatValues(schema.fillValue)}, but metadata specifies no fill value`,
        { member: "schema.fill_value" },
      );
    const converted = convertValues(
      broadcast(schema.fillValue, field.fieldShape, "schema.fill_value"),
      field.dtype,
      "schema.fill_value",
    );
    const stored = broadcast(fill, field.fieldShape, "fill_value");
    if (!identical(converted, stored))
      throw new SpecError(
        `Invalid fill_value: schema requires fill value of ${formatValues(converted)}, but metadata specifies fill value of ${formatValues(stored)}`,
        { member: "schema.fill_value" },
      );
  }
  const layout = schema.chunkLayout;
  if (layout.rank !== undefined) {
    const copy = layout.clone();
    withMember("schema.chunk_layout", () => setChunkLayoutFromMetadata(info, meta.chunks, meta.order, copy));
    if (copy.hasHardCodecChunkShape())
      throw new SpecError("codec_chunk_shape not supported", { member: "schema.chunk_layout.codec_chunk" });
  }
  if (schema.dimensionUnits?.some((u) => u !== undefined))
    throw new SpecError("Dimension units not supported by zarr driver", { member: "schema.dimension_units" });
}

/** TensorStore's `GetNewMetadata`: the `.zarray` of a new array. */
export function newMetadata(partial: PartialMetadata, fieldName: string, schema: Schema): ZarrMetadata {
  let dtype: ZarrDType;
  let index = 0;
  if (partial.dtype !== undefined) {
    index = fieldIndex(partial.dtype, fieldName, "field");
    dtype = partial.dtype;
  } else {
    if (fieldName !== "")
      throw new SpecError('"dtype" must be specified in "metadata" if "field" is specified', { member: "field" });
    if (schema.dtype === undefined) throw new SpecError('"dtype" must be specified', { member: "dtype" });
    dtype = chooseBaseDType(schema.dtype, "dtype");
  }
  const field = dtype.fields[index]!;
  const info = completeRankInfo({ fullRank: schema.rank, chunkedRank: partial.rank, field });
  const domain = withContext("Invalid domain", () => domainFromMetadata(info, partial.shape, schema), "schema.domain");
  if (domain === undefined || !domain.dims.every(isFiniteInterval))
    throw new SpecError("domain must be specified", { member: "metadata.shape" });
  const chunkedRank = info.chunkedRank!;
  const shape = domain.dims.slice(0, chunkedRank).map((d) => d.max - d.min + 1);

  const layout = schema.chunkLayout.clone();
  setChunkLayoutFromMetadata(info, partial.chunks, partial.order, layout);
  const chunks = chooseReadWriteChunkShape(layout, domain, info.fullRank!).slice(0, chunkedRank);

  const codec = mergeCodecs(
    partial.compressor === undefined
      ? { driver: "zarr", filters: null }
      : { driver: "zarr", compressor: partial.compressor, filters: null },
    schema.codec,
  )!;
  const compressor =
    codec.compressor !== undefined
      ? codec.compressor
      : { id: "blosc", cname: "lz4", clevel: 5, shuffle: -1, blocksize: 0 };

  let order: Order = "C";
  const inner = layout.innerOrder();
  if (inner !== undefined) {
    const same = (o: Order): boolean =>
      chunkInnerOrder(chunkedRank, o, info.fullRank!).every((x, i) => x === inner.values[i]);
    if (same("C")) order = "C";
    else if (same("F")) order = "F";
    else if (inner.hard)
      throw new SpecError(`Invalid "inner_order" constraint: ${formatVector(inner.values)}`, {
        member: "schema.chunk_layout.inner_order",
      });
  }

  let fillValue: FieldFills;
  if (partial.fillValue !== undefined) fillValue = partial.fillValue;
  else if (schema.fillValue !== undefined) {
    fillValue = withContext(
      "Invalid fill_value",
      (): FieldFills => {
        if (dtype.fields.length > 1)
          throw new SpecError(
            `Cannot specify fill_value through schema for structured zarr data type ${dumpJson(zarrDtypeJson(dtype))}`,
          );
        const b = broadcast(schema.fillValue!, field.fieldShape, "schema.fill_value");
        return [convertValues(b, field.dtype, "schema.fill_value")];
      },
      "schema.fill_value",
    );
  } else fillValue = dtype.fields.map(() => undefined);

  const meta: ZarrMetadata = {
    zarrFormat: 2,
    rank: chunkedRank,
    shape,
    chunks,
    dtype,
    compressor,
    fillValue,
    order,
    dimensionSeparator: partial.dimensionSeparator ?? ".",
  };
  validateChunkBytes(meta);
  validateMetadataSchema(meta, index, schema);
  return meta;
}

/** Whether a field's domain is fully given by a spec's metadata (so no stored `.zarray` is needed to know it). */
export const fieldOf = (dtype: ZarrDType, name: string): { index: number; field: ZarrField } => {
  const index = fieldIndex(dtype, name, "field");
  return { index, field: dtype.fields[index]! };
};

/** A domain as a message shows it. */
export const describeDomain = (d: Domain): string => formatDomain(d);
