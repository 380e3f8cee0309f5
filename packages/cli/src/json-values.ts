// The JSON form of array values: {"dtype": ..., "shape": [...], "values": [...]}, values flat in C
// order (see elements.ts for each dtype's form). Object arrays add their object codec,
// {"dtype": "|O", "object_codec": {...}, ...} (see objects.ts for their values' form).

import { dataTypeToJSON, type CodecConfig, type DataType } from "@z/meta";
import { elementJson, readElements } from "./elements.js";
import { objectJson, plainJson } from "./objects.js";

/** `{"dtype": <as in .zarray>, "shape": [...], "values": [` — the text before the values. */
export function valuesJsonHead(dtype: DataType, shape: readonly number[], objectCodec?: CodecConfig): string {
  const codec =
    objectCodec === undefined ? "" : `"object_codec": ${plainJson(objectCodec, () => "the object codec")}, `;
  return `{"dtype": ${compactJson(dataTypeToJSON(dtype))}, ${codec}"shape": [${shape.join(", ")}], "values": [`;
}

/** JSON on one line with Python's default separators (`, ` and `: `), for strings and lists of them. */
export function compactJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compactJson).join(", ")}]`;
  return JSON.stringify(value);
}

export const VALUES_JSON_TAIL = "]}\n";

/** The values of `bytes` (whole elements in the dtype's byte order) as comma-separated JSON. */
export function valuesJsonItems(bytes: Uint8Array, dtype: DataType): string {
  return readElements(bytes, dtype)
    .map((v) => elementJson(v, dtype))
    .join(", ");
}

/**
 * The values of an object array as comma-separated JSON; `first` is the flat index of the first
 * in the selection, for messages about a value JSON cannot hold.
 */
export function objectsJsonItems(values: readonly unknown[], codec: CodecConfig, first = 0): string {
  return values
    .map((v, i) => objectJson(v, codec, () => `value ${first + i} (flat, in C order) of the selection`))
    .join(", ");
}

/** A whole values document. */
export function valuesJson(bytes: Uint8Array, dtype: DataType, shape: readonly number[]): string {
  return valuesJsonHead(dtype, shape) + valuesJsonItems(bytes, dtype) + VALUES_JSON_TAIL;
}

/** A whole values document of an object array. */
export function objectsJson(
  values: readonly unknown[],
  dtype: DataType,
  codec: CodecConfig,
  shape: readonly number[],
): string {
  return valuesJsonHead(dtype, shape, codec) + objectsJsonItems(values, codec) + VALUES_JSON_TAIL;
}
