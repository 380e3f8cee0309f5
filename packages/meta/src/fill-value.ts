// The `fill_value` of `.zarray` as zarr-python 2.13 reads and writes it (`Metadata2.decode_fill_value`
// and `encode_fill_value` in zarr/meta.py). Where zarr-python lets NumPy coerce anything (an int
// dtype given 1.5 or 300, a bool given "abc"), reading here refuses with a `MetadataError` instead;
// the legacy values older zarr versions wrote are read as zarr-python reads them.

import type { FillValue } from "./array-metadata-model.js";
import { decodePythonBase64, encodeBase64 } from "./base64.js";
import type { DataType, SimpleDataType } from "./dtype-model.js";
import {
  INT64_MAX,
  INT64_MIN,
  NAT,
  fillValueError,
  fitBytes,
  intFillValue,
  intRange,
  isJsonNumber,
  pythonStr,
  roundFloat,
} from "./fill-value-rules.js";
import { extensionIntRange, roundToExtension } from "./extension-dtypes.js";
import { JsonFloat, type JsonValue } from "./json-value.js";

// Text of ASCII characters only (U+0000 to U+007F), which numpy's `S` type can hold as it is.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range deliberately starts at U+0000
const ASCII_ONLY = /^[\x00-\x7f]*$/;

export { fillValueBytes, fillValueToElement } from "./fill-value-bytes.js";

const FLOAT_EXPECTED = 'a number or "NaN", "Infinity" or "-Infinity"';

/**
 * The fill value a `.zarray` holds, as the JS value `FillValue` describes. Floats are rounded to
 * the dtype's precision (`0.1` in an `<f4` array is `Math.fround(0.1)`); `S` fill values are
 * base64, decoded leniently as Python does, and otherwise (legacy) the ASCII text of the value, so
 * the legacy `0` is the byte `"0"`, as NumPy makes it; a legacy number for `U` stays a number.
 */
export function decodeFillValue(json: JsonValue, dtype: DataType, key?: string): FillValue {
  if (json === null) return null;
  switch (dtype.kind) {
    case "structured":
    case "V": {
      const bytes = typeof json === "string" ? decodePythonBase64(json) : undefined;
      if (bytes === undefined) throw fillValueError(dtype, "base64 text of the element's bytes", json, key);
      return fitBytes(bytes, dtype.itemsize);
    }
    case "O":
      // zarr-python hands the JSON value through untouched.
      return json;
    case "b":
      if (typeof json === "boolean") return json;
      if (json === 0 || json === 1 || json === 0n || json === 1n) return Number(json) === 1;
      throw fillValueError(dtype, "true or false (or the legacy 0 or 1)", json, key);
    case "i":
    case "u": {
      const [min, max] = intRange(dtype);
      const value = jsonInteger(json);
      if (value === undefined || value < min || value > max) {
        throw fillValueError(dtype, `an integer from ${min} to ${max}`, json, key);
      }
      return intFillValue(value, dtype);
    }
    case "f":
      return decodeFloat(json, dtype.itemsize, dtype, key);
    case "x":
      return decodeExtensionFill(json, dtype, key);
    case "c": {
      if (!Array.isArray(json) || json.length !== 2) {
        throw fillValueError(dtype, `[real, imaginary], each ${FLOAT_EXPECTED}`, json, key);
      }
      const half = dtype.itemsize / 2;
      const re = decodeFloat(json[0]!, half, dtype, key);
      const im = decodeFloat(json[1]!, half, dtype, key);
      // zarr-python computes `re + 1j * im`, i.e. (re + (0 * im - 0), 0 + (0 + im)): an infinite or
      // NaN imaginary part makes the real part NaN, and -0.0 loses its sign in the imaginary part.
      // Its arrays hold that value, so reading must give it too.
      return [roundFloat(re + (0 * im - 0), half), roundFloat(0 + (0 + im), half)] as const;
    }
    case "S":
      return fitBytes(decodeByteString(json, dtype, key), dtype.itemsize);
    case "U":
      // Legacy numbers stay numbers, as in zarr-python (which writes them back as they were and
      // fills with their text); `fillValueBytes` writes that text.
      if (typeof json === "string" || isJsonNumber(json)) return json;
      throw fillValueError(dtype, "a string", json, key);
    case "M":
    case "m": {
      if (json === "NaT") return NAT;
      const value = json instanceof JsonFloat ? undefined : jsonInteger(json);
      if (value === undefined || value < INT64_MIN || value > INT64_MAX) {
        throw fillValueError(
          dtype,
          `an integer count of the unit from ${INT64_MIN} to ${INT64_MAX} (${INT64_MIN} is NaT)`,
          json,
          key,
        );
      }
      return value;
    }
  }
}

/**
 * The `fill_value` zarr-python writes for `value`: floats as Python floats (`0.0`) or "NaN",
 * "Infinity", "-Infinity"; complex numbers as two of those; integers, booleans and `U` strings as
 * they are; `m`/`M` as the int64 count; `S` as base64 of the bytes without trailing NULs (NumPy's
 * bytes scalars drop them); `V` and structured as base64 of all their bytes.
 */
export function encodeFillValue(value: FillValue, dtype: DataType): JsonValue {
  if (value === null || value === undefined) return null;
  switch (dtype.kind) {
    case "structured":
    case "V":
      if (!(value instanceof Uint8Array)) throw fillValueError(dtype, "a Uint8Array", value);
      return encodeBase64(fitBytes(value, dtype.itemsize));
    case "O":
      return value as JsonValue;
    case "b":
      if (typeof value !== "boolean") throw fillValueError(dtype, "a boolean", value);
      return value;
    case "i":
    case "u":
      if (typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value))) return value;
      throw fillValueError(dtype, "an integer", value);
    case "f":
      if (typeof value !== "number") throw fillValueError(dtype, "a number", value);
      return encodeFloat(value);
    case "x":
      // As TensorStore writes them: floats as floats (or "NaN", "Infinity"), ints as ints.
      if (typeof value !== "number") throw fillValueError(dtype, "a number", value);
      return extensionIntRange(dtype.extension!) === undefined ? encodeFloat(value) : value;
    case "c":
      if (!isPair(value)) throw fillValueError(dtype, "[real, imaginary]", value);
      return [encodeFloat(value[0]), encodeFloat(value[1])];
    case "S": {
      if (!(value instanceof Uint8Array)) throw fillValueError(dtype, "a Uint8Array", value);
      const bytes = fitBytes(value, dtype.itemsize);
      let end = bytes.length;
      while (end > 0 && bytes[end - 1] === 0) end--;
      return encodeBase64(bytes.subarray(0, end));
    }
    case "U":
      if (typeof value !== "string" && !isJsonNumber(value)) throw fillValueError(dtype, "a string", value);
      return value;
    case "M":
    case "m":
      if (typeof value === "bigint") return value;
      if (typeof value === "number" && Number.isSafeInteger(value)) return value;
      throw fillValueError(dtype, "a bigint", value);
  }
}

function decodeFloat(json: JsonValue, itemsize: number, dtype: DataType, key: string | undefined): number {
  if (json === "NaN") return NaN;
  if (json === "Infinity") return Infinity;
  if (json === "-Infinity") return -Infinity;
  if (typeof json === "number") return roundFloat(json, itemsize);
  if (json instanceof JsonFloat) return roundFloat(json.value, itemsize);
  if (typeof json === "bigint") return roundFloat(Number(json), itemsize);
  throw fillValueError(dtype, FLOAT_EXPECTED, json, key);
}

/**
 * A TensorStore extension dtype's fill value, read as TensorStore reads it: floats from a number,
 * "NaN", "Infinity" or "-Infinity", rounded to the format (infinity is NaN in formats without
 * one); int4/int2 from an integer in their range.
 */
function decodeExtensionFill(json: JsonValue, dtype: SimpleDataType, key: string | undefined): number {
  const name = dtype.extension!;
  const range = extensionIntRange(name);
  if (range === undefined) return roundToExtension(name, decodeFloat(json, 8, dtype, key));
  const value = jsonInteger(json);
  if (value === undefined || value < BigInt(range[0]) || value > BigInt(range[1])) {
    throw fillValueError(dtype, `an integer from ${range[0]} to ${range[1]}`, json, key);
  }
  return Number(value);
}

function encodeFloat(x: number): JsonValue {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return new JsonFloat(x);
}

/** An integral JSON number (`2.0` too, as NumPy takes it) as a bigint. */
function jsonInteger(json: JsonValue): bigint | undefined {
  if (typeof json === "bigint") return json;
  const x = json instanceof JsonFloat ? json.value : json;
  return typeof x === "number" && Number.isInteger(x) ? BigInt(x) : undefined;
}

/**
 * zarr-python tries base64 first and, when Python's decoder fails (or the value is not a string),
 * lets NumPy make bytes of the value itself: its ASCII text.
 */
function decodeByteString(json: JsonValue, dtype: SimpleDataType, key: string | undefined): Uint8Array {
  if (typeof json === "string") {
    const decoded = decodePythonBase64(json);
    if (decoded !== undefined) return decoded;
    if (ASCII_ONLY.test(json)) return asciiBytes(json);
    throw fillValueError(dtype, "base64 text", json, key);
  }
  if (typeof json === "boolean") return asciiBytes(json ? "True" : "False");
  if (isJsonNumber(json)) return asciiBytes(pythonStr(json));
  throw fillValueError(dtype, "base64 text", json, key);
}

function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

function isPair(value: unknown): value is readonly [number, number] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === "number" && typeof value[1] === "number";
}
