import type { JsonValue } from "./json-value.js";
import { parseJson, type ParseJsonOptions } from "./json-parse.js";
import { stringifyJson } from "./json-stringify.js";

export { parseJson, type ParseJsonOptions } from "./json-parse.js";
export { stringifyJson, type StringifyJsonOptions } from "./json-stringify.js";
export { formatPythonFloat } from "./python-float.js";

const encoder = new TextEncoder();

/** The bytes zarr-python would store for `value` (ASCII, since every other character is escaped). */
export function encodeJson(value: JsonValue): Uint8Array {
  return encoder.encode(stringifyJson(value));
}

/** Parses the bytes stored under `key`; errors name the key. */
export function decodeJson(bytes: Uint8Array, key?: string, options?: ParseJsonOptions): JsonValue {
  return parseJson(bytes, key, options);
}
