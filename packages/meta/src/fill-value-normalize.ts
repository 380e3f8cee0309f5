// The fill value a user passes to `create`, made canonical as zarr-python 2.13's
// `normalize_fill_value` (zarr/util.py) makes it before writing `.zarray`. Where zarr-python lets
// NumPy wrap or truncate (300 in a `|u1` array is stored as 44, 1.5 in an int array as 1) or turn
// anything into bytes or booleans, this refuses with a `MetadataError` instead.

import type { FillValue } from "./array-metadata-model.js";
import type { DataType } from "./dtype-model.js";
import { extensionIntRange, roundToExtension } from "./extension-dtypes.js";
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

// Text of ASCII characters only (U+0000 to U+007F), which numpy's `S` type can hold as it is.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range deliberately starts at U+0000
const ASCII_ONLY = /^[\x00-\x7f]*$/;

const FLOAT_TEXT = /^[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?$/;
const SPECIAL_FLOAT = /^([+-]?)(nan|inf|infinity)$/i;

/**
 * `value` as the canonical `FillValue` of `dtype`. As in zarr-python: `null`/`undefined` mean no
 * fill value; `0` (also `0n`, `false` and `-0`, which Python compares equal to 0) means the zero
 * element of any dtype (`0.0`, `false`, `""`, zero bytes); object dtypes keep any value; `U` takes
 * only strings, kept whole even when longer than the dtype. Otherwise: booleans take booleans or
 * numbers (non-zero is true); integers take integers (also as bigint) in range, and booleans;
 * floats take numbers, bigints, booleans and Python float text ("NaN", "inf", "1.5"), rounded to
 * the dtype's precision; complex dtypes take a number or `[re, im]`; `S` takes bytes or ASCII text,
 * `V` and structured dtypes take bytes (both cut or zero-padded to the item size); `m`/`M` take an
 * integer count of the unit or "NaT".
 */
export function normalizeFillValue(value: unknown, dtype: DataType): FillValue {
  if (value === null || value === undefined) return null;
  if (dtype.kind === "O") return value;
  if (value === 0 || value === 0n || value === false) return zeroFillValue(dtype);
  switch (dtype.kind) {
    case "structured":
    case "V":
      if (value instanceof Uint8Array) return fitBytes(value, dtype.itemsize);
      throw fillValueError(dtype, "a Uint8Array of the element's bytes (or 0 for zeros)", value);
    case "U":
      if (typeof value === "string") return value;
      throw fillValueError(dtype, "a string (or 0 for the empty string)", value);
    case "b":
      if (typeof value === "boolean") return value;
      // NumPy's truth of a number: NaN is true.
      if (typeof value === "number") return value !== 0;
      if (typeof value === "bigint") return value !== 0n;
      throw fillValueError(dtype, "true or false", value);
    case "i":
    case "u": {
      const [min, max] = intRange(dtype);
      const int = toInteger(value);
      if (int === undefined || int < min || int > max)
        throw fillValueError(dtype, `an integer from ${min} to ${max}`, value);
      return intFillValue(int, dtype);
    }
    case "f": {
      const x = toFloat(value);
      if (x === undefined) throw fillValueError(dtype, 'a number (or "NaN", "Infinity", "-Infinity")', value);
      return roundFloat(x, dtype.itemsize);
    }
    case "x": {
      const range = extensionIntRange(dtype.extension!);
      if (range !== undefined) {
        const int = toInteger(value);
        if (int === undefined || int < BigInt(range[0]) || int > BigInt(range[1])) {
          throw fillValueError(dtype, `an integer from ${range[0]} to ${range[1]}`, value);
        }
        return Number(int);
      }
      const x = toFloat(value);
      if (x === undefined) throw fillValueError(dtype, 'a number (or "NaN", "Infinity", "-Infinity")', value);
      return roundToExtension(dtype.extension!, x);
    }
    case "c": {
      const half = dtype.itemsize / 2;
      const real = toFloat(value);
      if (real !== undefined && typeof value !== "string") return [roundFloat(real, half), 0];
      if (Array.isArray(value) && value.length === 2) {
        const [re, im] = value.map((part: unknown) => (typeof part === "string" ? undefined : toFloat(part)));
        // Python compares complex(-0.0, 0.0) equal to 0 too, which makes it the zero element.
        if (re === 0 && im === 0) return [0, 0];
        if (re !== undefined && im !== undefined) return [roundFloat(re, half), roundFloat(im, half)];
      }
      throw fillValueError(dtype, "a number or [real, imaginary]", value);
    }
    case "S":
      if (value instanceof Uint8Array) return fitBytes(value, dtype.itemsize);
      if (typeof value === "string" && ASCII_ONLY.test(value)) {
        return fitBytes(
          Uint8Array.from(value, (char) => char.charCodeAt(0)),
          dtype.itemsize,
        );
      }
      throw fillValueError(dtype, "a Uint8Array or ASCII text", value);
    case "M":
    case "m": {
      if (value === "NaT") return NAT;
      const int = typeof value === "boolean" ? undefined : toInteger(value);
      if (int === undefined || int < INT64_MIN || int > INT64_MAX) {
        throw fillValueError(dtype, `an integer count of the unit from ${INT64_MIN} to ${INT64_MAX}, or "NaT"`, value);
      }
      return int;
    }
  }
}

/** The fill value NumPy's zero element of `dtype` gives (`np.zeros((), dtype)[()]`). */
export function zeroFillValue(dtype: DataType): FillValue {
  switch (dtype.kind) {
    case "b":
      return false;
    case "i":
    case "u":
      return intFillValue(0n, dtype);
    case "f":
      return 0;
    case "c":
      return [0, 0] as const;
    case "U":
      return "";
    case "M":
    case "m":
      return 0n;
    case "O":
    case "x":
      return 0;
    default:
      return new Uint8Array(dtype.itemsize);
  }
}

function toInteger(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  return undefined;
}

/** A number as Python's `float()` would make it of `value`. */
function toFloat(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string") {
    const text = value.trim();
    const special = SPECIAL_FLOAT.exec(text);
    if (special !== null) {
      if (special[2]!.toLowerCase() === "nan") return NaN;
      return special[1] === "-" ? -Infinity : Infinity;
    }
    if (FLOAT_TEXT.test(text)) return Number(text.replaceAll("_", ""));
  }
  return undefined;
}
