import { MetadataError } from "./errors.js";
import { JsonFloat, type JsonObject, type JsonValue } from "./json-value.js";
import { parseJson } from "./json-parse.js";
import { formatPythonFloat } from "./python-float.js";

/** A metadata document as stored (bytes or text) or already parsed (e.g. from consolidated metadata). */
export type MetadataInput = Uint8Array | string | JsonValue;

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonFloat);
}

/** The JSON object a metadata document holds; anything else is a `MetadataError` naming `key`. */
export function readMetadataObject(
  input: MetadataInput,
  key: string,
  options: { keepFloats?: boolean } = {},
): JsonObject {
  const doc = typeof input === "string" || input instanceof Uint8Array ? parseJson(input, key, options) : input;
  if (!isJsonObject(doc))
    throw new MetadataError(`"${key}" must hold a JSON object, found ${describeJson(doc)}`, { key });
  return doc;
}

/** The value of a field that must be present (a `null` value counts as present). */
export function requireField(doc: JsonObject, field: string, key: string): JsonValue {
  const value = Object.hasOwn(doc, field) ? doc[field] : undefined;
  if (value === undefined) throw new MetadataError(`"${key}" misses the required field "${field}"`, { key, field });
  return value;
}

/** `zarr_format` must be 2, as in zarr-python, which refuses any other version. */
export function checkZarrFormat(doc: JsonObject, key: string): 2 {
  const value = requireField(doc, "zarr_format", key);
  if (value !== 2) throw fieldError(key, "zarr_format", "2 (this reads Zarr v2 only)", value);
  return 2;
}

/** `at` says where inside the field the bad value sits, e.g. `at index 2`. */
export function fieldError(
  key: string,
  field: string,
  expected: string,
  found: JsonValue,
  options: { at?: string; cause?: unknown } = {},
): MetadataError {
  const at = options.at === undefined ? "" : ` ${options.at}`;
  return new MetadataError(
    `"${key}" has an invalid "${field}": expected ${expected}, found ${describeJson(found)}${at}`,
    {
      key,
      field,
      cause: options.cause,
    },
  );
}

/**
 * A short rendering of a value for error messages, safe for anything a JSON document holds (a
 * `bigint`, a huge or non-finite number, nested lists and objects, strings of any characters):
 * never longer than about 120 characters, never throws.
 */
export function describeJson(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  if (value instanceof JsonFloat) return formatPythonFloat(value.value);
  if (Array.isArray(value)) {
    const items = value as readonly JsonValue[];
    if (items.length === 0) return "an empty list";
    const simple = items.length <= 8 && items.every((item) => typeof item !== "object" || item === null);
    return simple ? `[${items.map(describeJson).join(", ")}]` : `a list of ${items.length} items`;
  }
  if (isJsonObject(value)) return "an object";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}
