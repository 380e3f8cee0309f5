// The JSON form of array values: {"dtype": ..., "shape": [...], "values": [...]}, values flat in C
// order (see elements.ts for each dtype's form).

import { dataTypeToJSON, type DataType } from "@z/meta";
import { elementJson, readElements } from "./elements.js";

/** `{"dtype": <as in .zarray>, "shape": [...], "values": [` — the text before the values. */
export function valuesJsonHead(dtype: DataType, shape: readonly number[]): string {
  return `{"dtype": ${compactJson(dataTypeToJSON(dtype))}, "shape": [${shape.join(", ")}], "values": [`;
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

/** A whole values document. */
export function valuesJson(bytes: Uint8Array, dtype: DataType, shape: readonly number[]): string {
  return valuesJsonHead(dtype, shape) + valuesJsonItems(bytes, dtype) + VALUES_JSON_TAIL;
}
