// The values of object arrays (dtype |O), as `@z/core` reads and writes them: plain JS values the
// array's object codec (its first filter) decodes and encodes. Here they are printed as Python
// prints them (numpy's repr of an object array shows each element's `repr`) and written to and read
// from the JSON values form:
//
//   vlen-utf8          text
//   vlen-bytes         base64 of the bytes, as for |S (so they never pass for vlen-utf8's text)
//   vlen-array         a list of the item dtype's values, as for arrays of that dtype
//   json2, msgpack2    the value as Python's json.dumps writes it (NaN and infinities bare); bytes,
//                      maps with other keys than strings and extension types have no JSON form
//
// and the fill value of a chunk that is not stored as it reads (zarr-python's default 0, or null).

import { OBJECT_CODEC_IDS, type ZarrArray } from "@z/core";
import {
  formatPythonFloat,
  JsonFloat,
  keyPrefix,
  parseDataType,
  type ArrayMetadataV3,
  type CodecConfig,
  type DataType,
  type JsonValue,
  type TypedArray,
  pythonStrRepr,
} from "@z/meta";
import { fromBase64, toBase64 } from "./base64-text.js";
import { CommandError } from "./command.js";
import { elementFromJson, elementJson, readElements, writeElements } from "./elements.js";
import { bytesToTyped, typedToBytes } from "./nd.js";
import { pyBytesRepr } from "./python-repr.js";
import { arrayRepr } from "./repr/array-repr.js";

/**
 * An array's object codec, for an array whose values are JS values (dtype kind `O`): a v3 array's
 * by its data type (`string` is read through `vlen-utf8`, `bytes` through `vlen-bytes`, as
 * zarr-python 3 writes them), a v2 array's the first of its filters, where zarr-python puts it.
 */
export function objectCodecOfArray(array: ZarrArray): CodecConfig {
  if (array.zarrFormat === 3) {
    const meta = array.metadata as ArrayMetadataV3;
    if (meta.dataType === "string") return { id: "vlen-utf8" };
    if (meta.dataType === "bytes") return { id: "vlen-bytes" };
    const key = `${keyPrefix(array.path)}zarr.json`;
    throw new CommandError(
      `${key}: data type ${JSON.stringify(meta.dataType)} holds values this command cannot write out`,
      {
        key,
      },
    );
  }
  return objectCodecOf(array.filters, `${keyPrefix(array.path)}.zarray`);
}

/** An object array's object codec: the first of its filters, where zarr-python puts it. */
export function objectCodecOf(filters: readonly CodecConfig[] | null, key: string): CodecConfig {
  const first = filters?.[0];
  if (first === undefined || !OBJECT_CODEC_IDS.has(first.id)) {
    throw new CommandError(
      `${key}: an object array needs an object codec (${[...OBJECT_CODEC_IDS].join(", ")}) as its first filter`,
      { key },
    );
  }
  return first;
}

/** vlen-array's item dtype. */
function itemDtype(codec: CodecConfig): DataType {
  return parseDataType(codec.dtype as string);
}

const isTyped = (value: unknown): value is TypedArray => ArrayBuffer.isView(value) && !(value instanceof DataView);

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

// --- repr ----------------------------------------------------------------------------------------

/**
 * numpy's element text in the repr of an object array (`_object_format`): the element's Python
 * `repr`, a list as `list([...])`. vlen-array items are numpy arrays of the item dtype.
 */
export function objectRepr(value: unknown, codec: CodecConfig): string {
  if (codec.id === "vlen-array" && isTyped(value)) {
    const dtype = itemDtype(codec);
    const bytes = typedToBytes(value, dtype);
    return arrayRepr(bytes, [bytes.length / dtype.itemsize], dtype);
  }
  return Array.isArray(value) ? `list(${pyRepr(value)})` : pyRepr(value);
}

/** Python's `repr` of a decoded value (None, bool, int, float, str, bytes, list, dict, msgpack's ExtType). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number")
    return Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? String(value) : pyFloatRepr(value);
  if (value instanceof JsonFloat) return pyFloatRepr(value.value);
  if (typeof value === "string") return pythonStrRepr(value);
  if (value instanceof Uint8Array) return pyBytesRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  if (isPlainObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonStrRepr(k)}: ${pyRepr(v)}`)
      .join(", ")}}`;
  const ext = value as { type?: unknown; data?: unknown };
  if (typeof ext.type === "number" && ext.data instanceof Uint8Array)
    return `ExtType(code=${ext.type}, data=${pyBytesRepr(ext.data)})`;
  return String(value);
}

/** Python's `repr(float)`: `1.0`, `1e-07`, `nan`, `inf`. */
function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  return formatPythonFloat(x);
}

// --- JSON ----------------------------------------------------------------------------------------

/** The JSON text of one element (see the top of this file); `where` names it when it has none. */
export function objectJson(value: unknown, codec: CodecConfig, where: () => string): string {
  if (codec.id === "vlen-bytes" && value instanceof Uint8Array) return JSON.stringify(toBase64(value));
  if (codec.id === "vlen-array" && isTyped(value)) {
    const dtype = itemDtype(codec);
    return `[${readElements(typedToBytes(value, dtype), dtype)
      .map((v) => elementJson(v, dtype))
      .join(", ")}]`;
  }
  return plainJson(value, where);
}

/** JSON on one line as Python's `json.dumps` writes it (separators `, ` and `: `, NaN bare, floats as floats). */
export function plainJson(value: unknown, where: () => string): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number")
    return Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER
      ? String(value)
      : formatPythonFloat(value);
  if (value instanceof JsonFloat) return formatPythonFloat(value.value);
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => plainJson(v, where)).join(", ")}]`;
  if (isPlainObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${plainJson(v, where)}`)
      .join(", ")}}`;
  const what =
    value instanceof Uint8Array
      ? `bytes (${pyBytesRepr(value.subarray(0, 20))}${value.length > 20 ? "…" : ""})`
      : value instanceof Map
        ? "a map with keys that are not text"
        : pyRepr(value);
  throw new CommandError(
    `${where()} holds ${what}, which JSON cannot hold: \`zarr get\` without --json prints it, and \`zarr copy\` copies the array as it is`,
  );
}

/**
 * One element from its JSON form (as `parseJson` of `@z/meta` reads it, floats kept as floats), as
 * the object codec takes it; `where` names it in errors.
 */
export function objectFromJson(json: JsonValue, codec: CodecConfig, where: string): unknown {
  const fail = (expected: string): never => {
    throw new CommandError(
      `${where}: expected ${expected} for an object array with ${codec.id}, found ${JSON.stringify(json, (_, v: unknown) => (typeof v === "bigint" ? Number(v) : v instanceof JsonFloat ? v.value : v))}`,
    );
  };
  // the fill value of chunks that were not stored: the codecs store None and 0 as numcodecs does
  const missing = json === null || json === 0;
  switch (codec.id) {
    case "vlen-utf8":
      return typeof json === "string" || missing ? json : fail("text (or null)");
    case "vlen-bytes": {
      if (missing) return json;
      return fromBase64(json) ?? fail("base64 text of the bytes (or null)");
    }
    case "vlen-array": {
      if (missing) return json;
      if (!Array.isArray(json)) return fail("a list of values (or null)");
      const dtype = itemDtype(codec);
      const bytes = writeElements(
        json.map((item, i) => elementFromJson(item, dtype, `${where}[${i}]`)),
        dtype,
      );
      return bytesToTyped(bytes, dtype);
    }
    default:
      return json;
  }
}
