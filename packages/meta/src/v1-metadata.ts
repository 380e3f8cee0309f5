import type { ArrayMetadata } from "./array-metadata-model.js";
import { parseArrayMetadata } from "./array-metadata.js";
import type { CodecConfig, JsonObject, JsonValue } from "./json-value.js";
import { fieldError, readMetadataObject, requireField, type MetadataInput } from "./metadata-document.js";

/** The key of a v1 array's metadata (spec v1); its attributes are under `attrs`. */
export const V1_META_KEY = "meta";
export const V1_ATTRS_KEY = "attrs";

/**
 * The first positional argument of each numcodecs class, which is what a bare (non-object)
 * `compression_opts` sets when zarr-python's `migrate_1to2` builds the codec.
 */
const POSITIONAL_OPTION: Record<string, string> = {
  zlib: "level",
  gzip: "level",
  bz2: "level",
  zstd: "level",
  lz4: "acceleration",
  lzma: "format",
  blosc: "cname",
};

/**
 * Reads a spec-v1 `meta` document as the v2 metadata zarr-python's `migrate_1to2` turns it into:
 * `compression` + `compression_opts` become a compressor config, filters are none. The codec
 * config still lacks the defaults a codec would fill; the core completes it through its registry.
 */
export function parseArrayMetadataV1(input: MetadataInput, key = V1_META_KEY): ArrayMetadata {
  return parseArrayMetadata(arrayDocumentV1ToV2(input, key), key);
}

/** The v2 `.zarray` document (as JSON) for a v1 `meta` document. */
export function arrayDocumentV1ToV2(input: MetadataInput, key = V1_META_KEY): JsonObject {
  const doc = readMetadataObject(input, key);
  const format = requireField(doc, "zarr_format", key);
  if (format !== 1) throw fieldError(key, "zarr_format", "1 (a spec v1 array)", format);
  const field = (name: string): JsonValue => requireField(doc, name, key);
  return {
    zarr_format: 2,
    shape: field("shape"),
    chunks: field("chunks"),
    dtype: field("dtype"),
    compressor: compressorConfig(field("compression"), field("compression_opts"), key),
    fill_value: fillValueV1(field("fill_value")),
    order: field("order"),
    filters: null,
  };
}

function compressorConfig(compression: JsonValue, options: JsonValue, key: string): CodecConfig | null {
  if (compression === null || compression === "none") return null;
  if (typeof compression !== "string" || compression === "") {
    throw fieldError(key, "compression", 'a codec name or "none"', compression);
  }
  if (options === null) return { id: compression };
  if (typeof options === "object" && !Array.isArray(options)) return { ...(options as JsonObject), id: compression };
  const name = POSITIONAL_OPTION[compression];
  if (name === undefined)
    throw fieldError(key, "compression_opts", `an object of options for "${compression}"`, options);
  return { id: compression, [name]: options };
}

/** v1 wrote float fill values as bare JSON numbers, NaN and infinities as Python's tokens. */
function fillValueV1(value: JsonValue): JsonValue {
  if (typeof value !== "number" || Number.isFinite(value)) return value;
  return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
}
