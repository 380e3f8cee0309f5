/*
 * TensorStore's Schema (tensorstore/schema.cc): constraints on rank, data type, domain, chunk
 * layout, codec, fill value and dimension units, read from JSON and merged as TensorStore merges
 * them; and the zarr2 driver's codec spec (`{"driver": "zarr", "compressor": ..., "filters": ...}`).
 */
import type { CodecConfig, JsonValue } from "@z/meta";
import { ChunkLayout, withMember } from "./chunk-layout.js";
import { parseCompressor, sameCompressor } from "./compressor.js";
import { type Domain, domainRank, mergeDomains, parseDomain } from "./domain.js";
import { isTsDataType, type TsDataType } from "./dtype.js";
import { SpecError } from "./errors.js";
import { broadcastError, formatValues, identical, parseNestedArray, unbroadcast, type Values } from "./fill-value.js";
import { dumpJson, Members, requireInteger, requireString } from "./json.js";
import { type DimensionUnits, mergeUnits, parseSchemaUnits } from "./units.js";
import { type ChainV3, chainJsonV3, mergeOptionalChains, parseChainV3 } from "./v3-codecs.js";

/**
 * A codec spec: the zarr driver's compressor and filters, the zarr3 driver's codec chain, or another
 * driver's (which never merges with either).
 */
export interface CodecSpec {
  readonly driver: string;
  /** Undefined: unconstrained; null: no compressor. */
  readonly compressor?: CodecConfig | null;
  /** Undefined or null: unconstrained; otherwise the filters JSON as given (another driver's: its whole JSON). */
  readonly filters?: JsonValue;
  /** The zarr3 driver's `codecs` constraints (undefined: unconstrained). */
  readonly codecs?: ChainV3;
}

const ZARR_CODEC_DRIVERS = ["zarr", "zarr2"];

/** A `codec` member. */
export function parseCodec(j: JsonValue, member: string): CodecSpec {
  const m = new Members(j, member);
  const driverValue = m.take("driver");
  if (driverValue === undefined)
    throw new SpecError("Expected string, but member is missing", { member: m.at("driver") });
  const driver = requireString(driverValue, m.at("driver"));
  if (driver === "zarr3") {
    const codecsJson = m.take("codecs");
    m.done();
    return {
      driver,
      ...(codecsJson === undefined ? {} : { codecs: parseChainV3(codecsJson, m.at("codecs"), true) }),
    };
  }
  if (!ZARR_CODEC_DRIVERS.includes(driver)) {
    // Another driver's codec: TensorStore parses it with that driver's rules, and it never merges
    // with the zarr driver's; it is kept whole for that error.
    return { driver, filters: j };
  }
  const compressorJson = m.take("compressor");
  const compressor = compressorJson === undefined ? undefined : parseCompressor(compressorJson, m.at("compressor"));
  const filtersJson = m.take("filters");
  if (filtersJson !== undefined && filtersJson !== null && !Array.isArray(filtersJson))
    throw new SpecError(`Expected null or array, but received: ${dumpJson(filtersJson)}`, { member: m.at("filters") });
  m.done();
  return { driver: "zarr", compressor, filters: filtersJson ?? null };
}

/** The codec JSON as TensorStore prints it in messages. */
export function codecJson(codec: CodecSpec): JsonValue {
  if (codec.driver === "zarr3")
    return { driver: "zarr3", ...(codec.codecs === undefined ? {} : { codecs: chainJsonV3(codec.codecs, true) }) };
  if (codec.driver !== "zarr") return codec.filters ?? null;
  return {
    driver: "zarr",
    ...(codec.compressor === undefined ? {} : { compressor: codec.compressor as JsonValue }),
    filters: codec.filters ?? null,
  };
}

/** TensorStore's `ZarrCodecSpec::DoMergeFrom` (and `CodecSpec::MergeFrom`'s error). */
export function mergeCodecs(a: CodecSpec | undefined, b: CodecSpec | undefined): CodecSpec | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const fail = (why: string): SpecError =>
    new SpecError(`Cannot merge codec spec ${dumpJson(codecJson(a))} with ${dumpJson(codecJson(b))}${why}`);
  if (a.driver === "zarr3" && b.driver === "zarr3") {
    const codecs = mergeOptionalChains(a.codecs, b.codecs, false);
    return { driver: "zarr3", ...(codecs === undefined ? {} : { codecs }) };
  }
  if (a.driver !== "zarr" || b.driver !== "zarr") throw fail("");
  let filters = a.filters ?? null;
  if (b.filters !== null && b.filters !== undefined) {
    if (filters === null) filters = b.filters;
    else if (dumpJson(filters) !== dumpJson(b.filters)) throw fail(': "filters" does not match');
  }
  let compressor = a.compressor;
  if (b.compressor !== undefined) {
    if (compressor === undefined) compressor = b.compressor;
    else if (!sameCompressor(compressor, b.compressor)) throw fail(': "compressor" does not match');
  }
  return { driver: "zarr", compressor, filters };
}

/** Schema constraints. */
export class Schema {
  rank: number | undefined;
  dtype: TsDataType | undefined;
  domain: Domain | undefined;
  chunkLayout = new ChunkLayout();
  codec: CodecSpec | undefined;
  fillValue: Values | undefined;
  /** Units per dimension (undefined entries: none). */
  dimensionUnits: DimensionUnits | undefined;

  /** TensorStore's `ValidateRank(schema, field_name, rank)`. */
  #validateRank(what: string, rank: number): void {
    if (rank < 0 || rank > 32) throw new SpecError(`Rank ${rank} is outside valid range [0, 32]`);
    if (this.rank !== undefined && this.rank !== rank)
      throw new SpecError(
        `Rank specified by ${what} (${rank}) does not match existing rank specified by schema (${this.rank})`,
      );
    if (this.fillValue !== undefined && this.fillValue.shape.length > rank)
      throw new SpecError(
        `Rank specified by ${what} (${rank}) is incompatible with existing fill_value of shape {${this.fillValue.shape.join(", ")}}`,
      );
    this.rank = rank;
  }

  setRank(rank: number | undefined): void {
    if (rank !== undefined) this.#validateRank("rank", rank);
  }

  setDtype(dtype: TsDataType | undefined): void {
    if (dtype === undefined) return;
    if (this.dtype !== undefined && this.dtype !== dtype)
      throw new SpecError(`Specified dtype (${dtype}) does not match existing value (${this.dtype})`);
    this.dtype = dtype;
  }

  setDomain(domain: Domain | undefined): void {
    if (domain === undefined) return;
    this.#validateRank("domain", domainRank(domain));
    const merged = mergeDomains(this.domain, domain)!;
    if (this.fillValue !== undefined) {
      const error = broadcastError(
        this.fillValue.shape,
        merged.dims.map((d) => d.max - d.min + 1),
      );
      if (error !== undefined) throw new SpecError(`domain is incompatible with fill_value: ${error}`);
    }
    this.domain = merged;
  }

  setCodec(codec: CodecSpec | undefined): void {
    this.codec = mergeCodecs(this.codec, codec);
  }

  /** TensorStore's `Schema::Set(FillValue)`. */
  setFillValue(value: Values | undefined): void {
    if (value === undefined) return;
    if (this.domain !== undefined) {
      const error = broadcastError(
        value.shape,
        this.domain.dims.map((d) => d.max - d.min + 1),
      );
      if (error !== undefined) throw new SpecError(`fill_value is incompatible with domain: ${error}`);
    }
    const u = unbroadcast(value);
    if (this.rank !== undefined && this.rank < u.shape.length)
      throw new SpecError(`Invalid fill_value for rank ${this.rank}: ${formatValues(u)}`);
    if (this.fillValue !== undefined) {
      if (!identical(this.fillValue, u))
        throw new SpecError(
          `Specified fill_value (${formatValues(u)}) does not match existing value in schema (${formatValues(this.fillValue)})`,
        );
      return;
    }
    this.fillValue = u;
  }

  /** After a chunk layout was merged in: its rank must agree with the schema's. */
  validateLayoutRank(): void {
    const rank = this.chunkLayout.rank;
    if (rank !== undefined) this.#validateRank("chunk_layout", rank);
  }

  /** TensorStore's `Schema::Set(DimensionUnits)`. */
  setDimensionUnits(units: DimensionUnits): void {
    if (units.length === 0) return;
    this.#validateRank("dimension_units", units.length);
    this.dimensionUnits = mergeUnits(this.dimensionUnits ?? [], units);
  }

  /** A `schema` member, merged in as TensorStore's Schema JSON binder does. */
  parse(j: JsonValue, member: string): void {
    const m = new Members(j, member);
    const rank = m.take("rank");
    if (rank !== undefined && rank !== -1) {
      const r = requireInteger(rank, m.at("rank"), -1, 32);
      if (r >= 0) withMember(m.at("rank"), () => this.setRank(r));
    }
    const dtype = m.take("dtype");
    if (dtype !== undefined) withMember(m.at("dtype"), () => this.setDtype(parseDataTypeName(dtype, m.at("dtype"))));
    const domain = m.take("domain");
    if (domain !== undefined) {
      const parsed = parseDomain(domain, m.at("domain"));
      withMember(m.at("domain"), () => this.setDomain(parsed));
    }
    const layout = m.take("chunk_layout");
    if (layout !== undefined) {
      ChunkLayout.parse(layout, m.at("chunk_layout"), this.chunkLayout);
      withMember(m.at("chunk_layout"), () => this.validateLayoutRank());
    }
    const codec = m.take("codec");
    if (codec !== undefined) {
      const parsed = parseCodec(codec, m.at("codec"));
      withMember(m.at("codec"), () => this.setCodec(parsed));
    }
    const fill = m.take("fill_value");
    if (fill !== undefined) {
      const parsed = parseNestedArray(fill, this.dtype, m.at("fill_value"));
      withMember(m.at("fill_value"), () => this.setFillValue(parsed));
    }
    const units = m.take("dimension_units");
    if (units !== undefined) {
      const parsed = parseSchemaUnits(units, m.at("dimension_units"));
      withMember(m.at("dimension_units"), () => this.setDimensionUnits(parsed));
    }
    m.done();
  }
}

/** A data type name (`"uint16"`); TensorStore's error for anything else. */
export function parseDataTypeName(j: JsonValue, member: string): TsDataType {
  if (typeof j !== "string") throw new SpecError(`Expected string, but received: ${dumpJson(j)}`, { member });
  if (!isTsDataType(j)) throw new SpecError(`Unsupported data type: ${JSON.stringify(j)}`, { member });
  return j;
}
