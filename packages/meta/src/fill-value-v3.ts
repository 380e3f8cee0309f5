// The `fill_value` of a Zarr v3 `zarr.json`: read in every form the spec and the registered data
// types allow, written as zarr-python 3 writes it (and, for what zarr-python cannot hold, as
// TensorStore does: a NaN with a payload in hex). Values are `FillValue`s as v2 has them; a float
// NaN whose bits are not the type's "NaN" is held as the element's bytes (`fillValueBytes` then
// gives exactly those bits). Elements are little-endian, as v3 data types are (see dtype-v3.ts).

import type { FillValue } from "./array-metadata-model.js";
import { decodePythonBase64, encodeBase64 } from "./base64.js";
import type { DataType, SimpleDataType } from "./dtype-model.js";
import { dataTypeV3Name, type DataTypeV3, type DataTypeV3JSON } from "./dtype-v3.js";
import { decodeExtension, encodeExtension, extensionIntRange, roundToExtension } from "./extension-dtypes.js";
import { fillValueBytes } from "./fill-value-bytes.js";
import {
  INT64_MAX,
  INT64_MIN,
  NAT,
  fillValueError,
  fitBytes,
  intFillValue,
  intRange,
  roundFloat,
} from "./fill-value-rules.js";
import { float16FromBits } from "./float16.js";
import { JsonFloat, type JsonValue } from "./json-value.js";
import { isJsonObject } from "./metadata-document.js";

const FLOAT_EXPECTED = 'a number, "NaN", "Infinity", "-Infinity" or the bits in hex ("0x...")';
const HEX = /^0x([0-9a-fA-F]+)$/;
const RAW_BITS = /^r[0-9]+$/;

/**
 * The fill value a `zarr.json` holds for its data type. Booleans take `true`/`false`; integers a
 * JSON integer in range (bigints beyond 2^53); floats a number (rounded to the type), "NaN",
 * "Infinity", "-Infinity" or their bits in hex of the type's width (`"0x7fc00001"` for float32);
 * complex types `[re, im]` of those; `r<N>` a list of N/8 byte values; `string` and
 * `fixed_length_utf32` a string; `bytes` base64 or a list of byte values; `null_terminated_bytes`
 * and `raw_bytes` base64; datetimes an int64 or "NaT"; `struct` an object with a value for each
 * field (legacy: base64 of the element). Anything else is a `MetadataError` naming `key` and
 * `fill_value`.
 */
export function decodeFillValueV3(json: JsonValue, type: DataTypeV3, key = "zarr.json"): FillValue {
  const { dtype, dataType } = type;
  const fail = (expected: string): never => {
    throw fillValueError(dtype, expected, json, key);
  };
  if (json === null) fail("a value (a v3 fill value is required)");
  switch (dtype.kind) {
    case "b":
      return typeof json === "boolean" ? json : fail("true or false");
    case "i":
    case "u": {
      const [min, max] = intRange(dtype);
      const value = jsonInteger(json);
      return value === undefined || value < min || value > max
        ? fail(`an integer from ${min} to ${max}`)
        : intFillValue(value, dtype);
    }
    case "f":
    case "x":
      if (dtype.kind === "x" && extensionIntRange(dtype.extension!) !== undefined) {
        const [min, max] = extensionIntRange(dtype.extension!)!;
        const value = jsonInteger(json);
        return value === undefined || value < BigInt(min) || value > BigInt(max)
          ? fail(`an integer from ${min} to ${max}`)
          : Number(value);
      }
      return decodeFloat(json, dtype) ?? fail(`${FLOAT_EXPECTED} of ${2 * dtype.itemsize} digits`);
    case "c": {
      const half: SimpleDataType = { ...dtype, kind: "f", itemsize: dtype.itemsize / 2 };
      const parts = Array.isArray(json) && json.length === 2 ? json.map((part) => decodeFloat(part, half)) : [];
      const [re, im] = parts;
      if (re === undefined || im === undefined) return fail(`[real, imaginary], each ${FLOAT_EXPECTED}`);
      if (typeof re === "number" && typeof im === "number") return [re, im] as const;
      const bytes = new Uint8Array(dtype.itemsize);
      bytes.set(fillValueBytes(re, half));
      bytes.set(fillValueBytes(im, half), half.itemsize);
      return bytes;
    }
    case "M":
    case "m": {
      if (json === "NaT") return NAT;
      const value = json instanceof JsonFloat ? undefined : jsonInteger(json);
      return value === undefined || value < INT64_MIN || value > INT64_MAX
        ? fail(`"NaT" or an integer from ${INT64_MIN} to ${INT64_MAX}`)
        : value;
    }
    case "U":
      return typeof json === "string" ? json : fail("a string");
    case "O":
      if (dataTypeV3Name(dataType) === "string") return typeof json === "string" ? json : fail("a string");
      return byteList(json) ?? base64(json) ?? fail("base64 text or a list of byte values (0 to 255)");
    case "S":
      return fitBytes(base64(json) ?? byteList(json) ?? fail("base64 text"), dtype.itemsize);
    case "V": {
      // r<N>: the spec's list of byte values, or base64 as TensorStore 0.1.85 reads it; raw_bytes: base64.
      const bytes = byteList(json) ?? base64(json);
      return bytes?.length === dtype.itemsize
        ? bytes
        : fail(`a list of ${dtype.itemsize} byte values (0 to 255) or base64 text of ${dtype.itemsize} bytes`);
    }
    case "structured": {
      if (typeof json === "string") {
        const bytes = base64(json);
        return bytes?.length === dtype.itemsize ? bytes : fail(`base64 text of ${dtype.itemsize} bytes`);
      }
      if (!isJsonObject(json)) return fail("an object with a fill value for each field");
      const fieldTypes = structFieldTypes(dataType);
      const names = new Set(dtype.fields.map((f) => f.name));
      const unknown = Object.keys(json).find((name) => !names.has(name));
      if (unknown !== undefined) fail(`only the fields ${[...names].join(", ")} (not "${unknown}")`);
      const out = new Uint8Array(dtype.itemsize);
      dtype.fields.forEach((field, i) => {
        const value = json[field.name];
        if (value === undefined) fail(`a fill value for each field, "${field.name}" included`);
        const decoded = decodeFillValueV3(value!, { dataType: fieldTypes[i]!, dtype: field.dtype }, key);
        out.set(fillValueBytes(decoded, field.dtype), field.offset);
      });
      return out;
    }
  }
}

/**
 * The `fill_value` zarr-python 3 writes for `value`: booleans and integers as they are, floats as
 * Python floats or "NaN"/"Infinity"/"-Infinity" (a NaN held as bytes, with a payload, in hex as
 * TensorStore writes it), complex as two of those, datetimes as the int64 count (NaT is
 * -9223372036854775808), strings as they are, `bytes`, `null_terminated_bytes` (without trailing
 * NULs), `raw_bytes` and the legacy `structured` as base64, `r<N>` as a list of byte values, and
 * `struct` as an object of its fields' fill values.
 */
export function encodeFillValueV3(value: FillValue, type: DataTypeV3): JsonValue {
  const { dtype, dataType } = type;
  if (value === null || value === undefined) throw fillValueError(dtype, "a fill value (v3 requires one)", value);
  switch (dtype.kind) {
    case "b":
      if (typeof value !== "boolean") throw fillValueError(dtype, "a boolean", value);
      return value;
    case "i":
    case "u":
    case "M":
    case "m":
      if (typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value))) return value;
      throw fillValueError(dtype, "an integer", value);
    case "x":
      if (extensionIntRange(dtype.extension!) !== undefined) {
        if (typeof value !== "number") throw fillValueError(dtype, "a number", value);
        return value;
      }
      return encodeFloat(value, dtype);
    case "f":
      return encodeFloat(value, dtype);
    case "c": {
      const half: SimpleDataType = { ...dtype, kind: "f", itemsize: dtype.itemsize / 2 };
      if (value instanceof Uint8Array && value.length === dtype.itemsize) {
        return [
          encodeFloat(valueFromBytes(value.subarray(0, half.itemsize), half), half),
          encodeFloat(valueFromBytes(value.subarray(half.itemsize), half), half),
        ];
      }
      if (!Array.isArray(value) || value.length !== 2) throw fillValueError(dtype, "[real, imaginary]", value);
      return [encodeFloat(value[0], half), encodeFloat(value[1], half)];
    }
    case "U":
      if (typeof value !== "string") throw fillValueError(dtype, "a string", value);
      return value;
    case "O":
      if (dataTypeV3Name(dataType) === "string") {
        if (typeof value !== "string") throw fillValueError(dtype, "a string", value);
        return value;
      }
      if (!(value instanceof Uint8Array)) throw fillValueError(dtype, "a Uint8Array", value);
      return encodeBase64(value);
    case "S": {
      if (!(value instanceof Uint8Array)) throw fillValueError(dtype, "a Uint8Array", value);
      const bytes = fitBytes(value, dtype.itemsize);
      let end = bytes.length;
      while (end > 0 && bytes[end - 1] === 0) end--;
      return encodeBase64(bytes.subarray(0, end));
    }
    case "V":
      if (!(value instanceof Uint8Array)) throw fillValueError(dtype, "a Uint8Array", value);
      return RAW_BITS.test(dataTypeV3Name(dataType))
        ? Array.from(fitBytes(value, dtype.itemsize))
        : encodeBase64(fitBytes(value, dtype.itemsize));
    case "structured": {
      if (!(value instanceof Uint8Array)) throw fillValueError(dtype, "a Uint8Array of the element's bytes", value);
      const bytes = fitBytes(value, dtype.itemsize);
      if (dataTypeV3Name(dataType) === "structured") return encodeBase64(bytes);
      const fieldTypes = structFieldTypes(dataType);
      const out: Record<string, JsonValue> = {};
      dtype.fields.forEach((field, i) => {
        const own = bytes.subarray(field.offset, field.offset + field.dtype.itemsize);
        const type = { dataType: fieldTypes[i]!, dtype: field.dtype };
        out[field.name] = encodeFillValueV3(valueFromBytes(own, field.dtype), type);
      });
      return out;
    }
  }
}

/** The field types of a `struct`'s (or `structured`'s) `data_type`, as written, in order. */
function structFieldTypes(dataType: DataTypeV3JSON): DataTypeV3JSON[] {
  const fields = (typeof dataType === "string" ? [] : (dataType.configuration?.fields ?? [])) as readonly JsonValue[];
  return fields.map((f) => (isJsonObject(f) ? f.data_type : (f as readonly JsonValue[])[1]) as DataTypeV3JSON);
}

/**
 * A float fill (also of an extension float format, or half of a complex one) read from JSON; a NaN
 * in hex whose bits are not the type's "NaN" is the element's bytes. `undefined` when `json` is
 * not a float's form.
 */
function decodeFloat(json: JsonValue, dtype: SimpleDataType): number | Uint8Array | undefined {
  const round = (x: number): number =>
    dtype.kind === "x" ? roundToExtension(dtype.extension!, x) : roundFloat(x, dtype.itemsize);
  if (json === "NaN") return NaN;
  if (json === "Infinity") return round(Infinity);
  if (json === "-Infinity") return round(-Infinity);
  if (typeof json === "number") return round(json);
  if (json instanceof JsonFloat) return round(json.value);
  if (typeof json === "bigint") return round(Number(json));
  if (typeof json !== "string") return undefined;
  const hex = HEX.exec(json)?.[1];
  if (hex === undefined || hex.length !== 2 * dtype.itemsize) return undefined;
  // The spec's hex is the element's bits as an unsigned integer; elements are little-endian.
  const bytes = new Uint8Array(dtype.itemsize);
  for (let i = 0; i < dtype.itemsize; i++)
    bytes[dtype.itemsize - 1 - i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return valueFromBytes(bytes, dtype) as number | Uint8Array;
}

function encodeFloat(value: FillValue, dtype: SimpleDataType): JsonValue {
  if (value instanceof Uint8Array && value.length === dtype.itemsize) {
    let hex = "0x";
    for (let i = value.length - 1; i >= 0; i--) hex += value[i]!.toString(16).padStart(2, "0");
    return hex;
  }
  if (typeof value !== "number") throw fillValueError(dtype, "a number", value);
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  return new JsonFloat(value);
}

/**
 * One little-endian element's value as a `FillValue`: what `decodeFillValueV3` would give for it.
 * A float NaN that is not the type's own "NaN" stays as its bytes.
 */
export function valueFromBytes(bytes: Uint8Array, dtype: DataType): FillValue {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nanOrBytes = (x: number): number | Uint8Array => {
    if (!Number.isNaN(x)) return x;
    return sameBytes(bytes, fillValueBytes(NaN, dtype)) ? NaN : bytes.slice();
  };
  switch (dtype.kind) {
    case "b":
      return bytes[0] !== 0;
    case "i":
    case "u": {
      const signed = dtype.kind === "i";
      if (dtype.itemsize === 1) return signed ? view.getInt8(0) : view.getUint8(0);
      if (dtype.itemsize === 2) return signed ? view.getInt16(0, true) : view.getUint16(0, true);
      if (dtype.itemsize === 4) return signed ? view.getInt32(0, true) : view.getUint32(0, true);
      return signed ? view.getBigInt64(0, true) : view.getBigUint64(0, true);
    }
    case "f":
      if (dtype.itemsize === 2) return nanOrBytes(float16FromBits(view.getUint16(0, true)));
      return nanOrBytes(dtype.itemsize === 4 ? view.getFloat32(0, true) : view.getFloat64(0, true));
    case "x": {
      const value = decodeExtension(dtype.extension!, bytes)[0]!;
      if (!Number.isNaN(value)) return value;
      return sameBytes(bytes, encodeExtension(dtype.extension!, [NaN])) ? NaN : bytes.slice();
    }
    case "c": {
      const half: SimpleDataType = { ...dtype, kind: "f", itemsize: dtype.itemsize / 2 };
      const re = valueFromBytes(bytes.subarray(0, half.itemsize), half);
      const im = valueFromBytes(bytes.subarray(half.itemsize), half);
      return typeof re === "number" && typeof im === "number" ? ([re, im] as const) : bytes.slice();
    }
    case "M":
    case "m":
      return view.getBigInt64(0, true);
    case "U": {
      let text = "";
      for (let i = 0; i + 4 <= bytes.length; i += 4) text += String.fromCodePoint(view.getUint32(i, true));
      // NumPy's str of a U element drops trailing NULs.
      return text.replace(/\0+$/, "");
    }
    default:
      return bytes.slice();
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** An integral JSON number (`2.0` too, as zarr-python takes it) as a bigint. */
function jsonInteger(json: JsonValue): bigint | undefined {
  if (typeof json === "bigint") return json;
  const x = json instanceof JsonFloat ? json.value : json;
  return typeof x === "number" && Number.isInteger(x) ? BigInt(x) : undefined;
}

function base64(json: JsonValue): Uint8Array | undefined {
  return typeof json === "string" ? decodePythonBase64(json) : undefined;
}

function byteList(json: JsonValue): Uint8Array | undefined {
  if (!Array.isArray(json)) return undefined;
  const items = json as readonly JsonValue[];
  return items.every((b) => typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255)
    ? Uint8Array.from(items as readonly number[])
    : undefined;
}
