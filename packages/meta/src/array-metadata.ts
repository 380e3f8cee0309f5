import type { ArrayMetadata, DimensionSeparator, Order } from "./array-metadata-model.js";
import { dataTypeToJSON, parseDataType } from "./dtype.js";
import type { DataType } from "./dtype-model.js";
import { MetadataError, ZarrError } from "./errors.js";
import { decodeFillValue, encodeFillValue } from "./fill-value.js";
import { stringifyJson } from "./json.js";
import { JsonFloat, type CodecConfig, type JsonObject, type JsonValue } from "./json-value.js";
import {
  checkZarrFormat,
  fieldError,
  isJsonObject,
  readMetadataObject,
  requireField,
  type MetadataInput,
} from "./metadata-document.js";

export type { MetadataInput } from "./metadata-document.js";

const CODEC = 'a codec configuration (an object with a string "id")';
const CODECS = 'a list of codec configurations (objects with a string "id")';

/**
 * Reads and checks a `.zarray` document. Every problem is a `MetadataError` naming `key`, the
 * field and what was expected. Keys the spec does not know are ignored.
 */
export function parseArrayMetadata(input: MetadataInput, key = ".zarray"): ArrayMetadata {
  // Floats stay floats, so codec configs (`"scale": 10.0`) are written back as zarr-python wrote them.
  const doc = readMetadataObject(input, key, { keepFloats: true });
  checkZarrFormat(doc, key);
  const { shape, chunks } = readShapeAndChunks(doc, key);
  const dtype = readDataType(doc, key);
  const compressor = readCompressor(doc, key);
  const fillValue = decodeFillValue(plainNumbers(requireField(doc, "fill_value", key)), dtype, key);
  const order = readOrder(doc, key);
  const filters = readFilters(doc, key, dtype);
  const dimensionSeparator = readDimensionSeparator(doc, key);

  const meta: ArrayMetadata = { zarrFormat: 2, shape, chunks, dtype, compressor, fillValue, order, filters };
  return dimensionSeparator === undefined ? meta : { ...meta, dimensionSeparator };
}

/** `value` with every `JsonFloat` turned back into a plain number (fill values are numbers). */
function plainNumbers(value: JsonValue): JsonValue {
  if (value instanceof JsonFloat) return value.value;
  return Array.isArray(value) ? (value as readonly JsonValue[]).map(plainNumbers) : value;
}

/**
 * `.zarray` text byte-identical to what zarr-python 2.13 writes for the same array. An empty
 * filter list is written as `null`, and `dimension_separator` only when the metadata has one, both
 * as zarr-python does.
 */
export function serializeArrayMetadata(meta: ArrayMetadata): string {
  const doc: Record<string, JsonValue> = {
    zarr_format: 2,
    shape: [...meta.shape],
    chunks: [...meta.chunks],
    dtype: dataTypeToJSON(meta.dtype),
    compressor: meta.compressor,
    fill_value: encodeFillValue(meta.fillValue, meta.dtype),
    order: meta.order,
    filters: meta.filters === null || meta.filters.length === 0 ? null : [...meta.filters],
  };
  if (meta.dimensionSeparator !== undefined) doc.dimension_separator = meta.dimensionSeparator;
  // Checked as if read back, so that nothing zarr-python would refuse gets written.
  const key = ".zarray";
  readShapeAndChunks(doc, key);
  readCompressor(doc, key);
  readOrder(doc, key);
  readFilters(doc, key, meta.dtype);
  readDimensionSeparator(doc, key);
  return stringifyJson(doc);
}

export function encodeArrayMetadata(meta: ArrayMetadata): Uint8Array {
  return new TextEncoder().encode(serializeArrayMetadata(meta));
}

function readShapeAndChunks(doc: JsonObject, key: string): { shape: number[]; chunks: number[] } {
  const shape = readLengths(doc, "shape", key, 0);
  const chunks = readLengths(doc, "chunks", key, 1);
  if (chunks.length !== shape.length) {
    const lengths = shape.length === 1 ? "1 length" : `${shape.length} lengths`;
    throw fieldError(key, "chunks", `${lengths}, one per dimension of "shape"`, doc.chunks!);
  }
  return { shape, chunks };
}

/** `shape` (lengths from 0) and `chunks` (lengths from 1): lists of integers JS can count exactly. */
function readLengths(doc: JsonObject, field: "shape" | "chunks", key: string, min: 0 | 1): number[] {
  const value = requireField(doc, field, key);
  const expected = `a list of ${min === 0 ? "non-negative" : "positive"} integers`;
  if (!Array.isArray(value)) throw fieldError(key, field, expected, value);
  const lengths: number[] = [];
  for (const [i, item] of (value as readonly JsonValue[]).entries()) {
    if (typeof item !== "number" || !Number.isSafeInteger(item) || item < min) {
      throw fieldError(key, field, `${expected} (up to 2^53 - 1)`, item, { at: `at index ${i}` });
    }
    lengths.push(item);
  }
  return lengths;
}

function readDataType(doc: JsonObject, key: string): DataType {
  const value = requireField(doc, "dtype", key);
  try {
    return parseDataType(value, key);
  } catch (e) {
    if (!(e instanceof ZarrError)) throw e;
    // parseDataType's message already says what was expected and found.
    throw new MetadataError(e.message, { key, field: "dtype", cause: e });
  }
}

function readCompressor(doc: JsonObject, key: string): CodecConfig | null {
  const value = requireField(doc, "compressor", key);
  if (value === null) return null;
  if (!isCodecConfig(value)) throw fieldError(key, "compressor", `${CODEC} or null`, value);
  return value;
}

function readFilters(doc: JsonObject, key: string, dtype: DataType): readonly CodecConfig[] | null {
  const value = requireField(doc, "filters", key);
  if (value !== null && !Array.isArray(value)) throw fieldError(key, "filters", `${CODECS} or null`, value);
  const items = (value ?? []) as readonly JsonValue[];
  items.forEach((item, i) => {
    if (!isCodecConfig(item)) throw fieldError(key, "filters", CODECS, item, { at: `at index ${i}` });
  });
  // zarr-python writes no filters as null and treats an empty list the same.
  const filters = items.length === 0 ? null : (items as readonly CodecConfig[]);
  // The object codec that turns objects into bytes travels as the first filter.
  if (dtype.kind === "O" && filters === null) {
    throw fieldError(key, "filters", "an object codec as the first filter, since the dtype is object (|O)", value);
  }
  return filters;
}

function isCodecConfig(value: JsonValue): value is CodecConfig {
  return isJsonObject(value) && typeof value.id === "string";
}

function readOrder(doc: JsonObject, key: string): Order {
  const value = requireField(doc, "order", key);
  if (value !== "C" && value !== "F") throw fieldError(key, "order", '"C" or "F"', value);
  return value;
}

/** Optional; absent and `null` both mean the default `.`, which zarr-python does not write out. */
function readDimensionSeparator(doc: JsonObject, key: string): DimensionSeparator | undefined {
  const value = doc.dimension_separator;
  if (value === undefined || value === null) return undefined;
  if (value !== "." && value !== "/") throw fieldError(key, "dimension_separator", '"." or "/"', value);
  return value;
}
