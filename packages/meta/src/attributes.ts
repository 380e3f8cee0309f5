import { MetadataError } from "./errors.js";
import { encodeJson, stringifyJson, type ParseJsonOptions } from "./json.js";
import { parseJson } from "./json-parse.js";
import type { JsonObject } from "./json-value.js";
import { describeJson, isJsonObject } from "./metadata-document.js";

/**
 * Reads `.zattrs`, which must hold a JSON object. Pass `{ keepFloats: true }` to keep `1.0` apart
 * from `1` when the attributes are to be written back.
 */
export function parseAttributes(input: Uint8Array | string, key = ".zattrs", options?: ParseJsonOptions): JsonObject {
  const doc = parseJson(input, key, options);
  if (!isJsonObject(doc)) {
    throw new MetadataError(`"${key}" must hold a JSON object of attributes, found ${describeJson(doc)}`, { key });
  }
  return doc;
}

/** `.zattrs` text as zarr-python writes it (sorted keys, indent 4, NaN and Infinity bare). */
export function serializeAttributes(attrs: JsonObject): string {
  return stringifyJson(attrs);
}

export function encodeAttributes(attrs: JsonObject): Uint8Array {
  return encodeJson(attrs);
}
