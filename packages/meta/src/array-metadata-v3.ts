import { parseChunkKeyEncoding } from "./chunk-key-v3.js";
import { parseDataTypeV3 } from "./dtype-v3.js";
import { UnsupportedExtensionError } from "./errors.js";
import { decodeFillValueV3, encodeFillValueV3 } from "./fill-value-v3.js";
import { stringifyJson } from "./json-stringify.js";
import type { JsonObject, JsonValue, NamedConfig } from "./json-value.js";
import { fieldError, requireField, type MetadataInput } from "./metadata-document.js";
import { readAttributes, readExtraFields, readV3Object } from "./metadata-v3-document.js";
import type { ArrayMetadataV3 } from "./metadata-v3-model.js";
import { namedConfigToJson, readNamedConfig } from "./named-config.js";

/** The members an array's `zarr.json` may have, in the order zarr-python 3 writes them. */
const MEMBERS = [
  "shape",
  "data_type",
  "chunk_grid",
  "chunk_key_encoding",
  "fill_value",
  "codecs",
  "attributes",
  "dimension_names",
  "zarr_format",
  "node_type",
  "storage_transformers",
] as const;
const KNOWN: ReadonlySet<string> = new Set(MEMBERS);

/**
 * Reads and checks an array's `zarr.json` (text, bytes, or JSON already parsed, e.g. from
 * consolidated metadata). Every problem is a `MetadataError` naming `key`, the member and what was
 * expected; what z does not implement (a data type, a chunk grid other than `regular`, a chunk key
 * encoding other than `default`/`v2`, a storage transformer or an unknown member that must be
 * understood) is an `UnsupportedExtensionError` naming it. Codecs are checked for form only (a
 * non-empty list of named configurations): which codec is which is the codec layer's business.
 */
export function parseArrayMetadataV3(input: MetadataInput, key = "zarr.json"): ArrayMetadataV3 {
  const { doc } = readV3Object(input, key, "array");
  const shape = readLengths(requireField(doc, "shape", key), key, "shape", 0);
  const { dataType, dtype } = parseDataTypeV3(requireField(doc, "data_type", key), key);
  const { chunkGrid, chunkShape } = readChunkGrid(doc, shape, key);
  const { encoding: chunkKeys, config: chunkKeyEncoding } = parseChunkKeyEncoding(
    requireField(doc, "chunk_key_encoding", key),
    key,
  );
  const fillValue = decodeFillValueV3(requireField(doc, "fill_value", key), { dataType, dtype }, key);
  const codecs = readCodecs(doc, key);
  const attributes = readAttributes(doc, key);
  const dimensionNames = readDimensionNames(doc, shape.length, key);
  const storageTransformers = readStorageTransformers(doc, key);
  const extraFields = readExtraFields(doc, KNOWN, key);
  return {
    zarrFormat: 3,
    nodeType: "array",
    shape,
    dataType,
    dtype,
    chunkGrid,
    chunkShape,
    chunkKeyEncoding,
    chunkKeys,
    fillValue,
    codecs,
    ...(attributes === undefined ? {} : { attributes }),
    ...(dimensionNames === undefined ? {} : { dimensionNames }),
    ...(storageTransformers === undefined ? {} : { storageTransformers }),
    ...(extraFields === undefined ? {} : { extraFields }),
  };
}

/**
 * The JSON object of an array's `zarr.json`, members in zarr-python 3's order (its dataclass's
 * fields: `shape`, `data_type`, `chunk_grid`, `chunk_key_encoding`, `fill_value`, `codecs`,
 * `attributes`, `dimension_names`, `zarr_format`, `node_type`, `storage_transformers`, then the
 * extra members); optional ones only when the metadata has them. Checked as if read back, so that
 * nothing is written that would not be read.
 */
export function arrayMetadataV3ToJson(meta: ArrayMetadataV3): JsonObject {
  const doc: Record<string, JsonValue> = {
    shape: [...meta.shape],
    data_type: typeof meta.dataType === "string" ? meta.dataType : namedConfigToJson(meta.dataType),
    chunk_grid: namedConfigToJson(meta.chunkGrid),
    chunk_key_encoding: namedConfigToJson(meta.chunkKeyEncoding),
    fill_value: encodeFillValueV3(meta.fillValue, meta),
    codecs: meta.codecs.map(namedConfigToJson),
  };
  if (meta.attributes !== undefined) doc.attributes = meta.attributes;
  if (meta.dimensionNames !== undefined) doc.dimension_names = [...meta.dimensionNames];
  doc.zarr_format = 3;
  doc.node_type = "array";
  if (meta.storageTransformers !== undefined)
    doc.storage_transformers = meta.storageTransformers.map(namedConfigToJson);
  for (const [name, value] of Object.entries(meta.extraFields ?? {})) {
    if (KNOWN.has(name)) throw fieldError("zarr.json", name, "an extra member that is not one of the spec's", value);
    doc[name] = value;
  }
  parseArrayMetadataV3(doc);
  return doc;
}

/** `zarr.json` text as zarr-python 3 writes it: `json.dumps(doc, indent=2)`, members in its order. */
export function serializeArrayMetadataV3(meta: ArrayMetadataV3): string {
  return stringifyJson(arrayMetadataV3ToJson(meta), { indent: 2, sortKeys: false });
}

/** Lengths JS counts exactly: from 0 for `shape`, from 1 for chunk shapes. */
function readLengths(value: JsonValue, key: string, field: string, min: 0 | 1): number[] {
  const expected = `a list of ${min === 0 ? "non-negative" : "positive"} integers`;
  if (!Array.isArray(value)) throw fieldError(key, field, expected, value);
  return (value as readonly JsonValue[]).map((item, i) => {
    if (typeof item !== "number" || !Number.isSafeInteger(item) || item < min) {
      throw fieldError(key, field, `${expected} (up to 2^53 - 1)`, item, { at: `at index ${i}` });
    }
    return item;
  });
}

/** `chunk_grid`: the `regular` grid, with a `chunk_shape` of the array's rank. */
function readChunkGrid(
  doc: JsonObject,
  shape: readonly number[],
  key: string,
): { chunkGrid: NamedConfig; chunkShape: number[] } {
  const chunkGrid = readNamedConfig(requireField(doc, "chunk_grid", key), key, "chunk_grid");
  if (chunkGrid.name !== "regular") {
    throw new UnsupportedExtensionError(
      `"${key}" has a chunk grid z does not support: ${JSON.stringify(chunkGrid.name)} (supported: regular)`,
      { key, field: "chunk_grid", extension: chunkGrid.name },
    );
  }
  const configuration = chunkGrid.configuration;
  if (configuration === undefined) {
    throw fieldError(key, "chunk_grid", 'a "configuration" with "chunk_shape"', namedConfigToJson(chunkGrid));
  }
  const extra = Object.keys(configuration).find((k) => k !== "chunk_shape");
  if (extra !== undefined) {
    throw fieldError(key, "chunk_grid.configuration", 'only "chunk_shape"', configuration, {
      at: `(unknown member ${JSON.stringify(extra)})`,
    });
  }
  const field = "chunk_grid.configuration.chunk_shape";
  const chunkShape = readLengths(requireField(configuration, "chunk_shape", key), key, field, 1);
  if (chunkShape.length !== shape.length) {
    const lengths = shape.length === 1 ? "1 length" : `${shape.length} lengths`;
    throw fieldError(key, field, `${lengths}, one per dimension of "shape"`, configuration.chunk_shape!);
  }
  return { chunkGrid, chunkShape };
}

function readCodecs(doc: JsonObject, key: string): NamedConfig[] {
  const value = requireField(doc, "codecs", key);
  const expected = 'a non-empty list of codecs (names or objects with a string "name")';
  if (!Array.isArray(value) || value.length === 0) throw fieldError(key, "codecs", expected, value);
  return (value as readonly JsonValue[]).map((item, i) => readNamedConfig(item, key, `codecs[${i}]`));
}

function readDimensionNames(doc: JsonObject, rank: number, key: string): (string | null)[] | undefined {
  const value = doc.dimension_names;
  // zarr-python reads null as no names, and then writes none.
  if (value === undefined || value === null) return undefined;
  const expected = `a list of ${rank} names (strings, or null for an unnamed dimension), one per dimension of "shape"`;
  if (!Array.isArray(value) || value.length !== rank) throw fieldError(key, "dimension_names", expected, value);
  return (value as readonly JsonValue[]).map((item, i) => {
    if (item !== null && typeof item !== "string") {
      throw fieldError(key, "dimension_names", expected, item, { at: `at index ${i}` });
    }
    return item;
  });
}

/** z implements no storage transformer: only ones marked `must_understand: false` are read (and ignored). */
function readStorageTransformers(doc: JsonObject, key: string): NamedConfig[] | undefined {
  const value = doc.storage_transformers;
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw fieldError(key, "storage_transformers", "a list of storage transformers", value);
  return (value as readonly JsonValue[]).map((item, i) => {
    const transformer = readNamedConfig(item, key, `storage_transformers[${i}]`);
    if (transformer.must_understand !== false) {
      throw new UnsupportedExtensionError(
        `"${key}" has a storage transformer z does not support: ${JSON.stringify(transformer.name)}`,
        { key, field: "storage_transformers", extension: transformer.name },
      );
    }
    return transformer;
  });
}
