// What the fill value functions share: the value ranges of the dtypes, NumPy's rounding of floats,
// and the wording of errors.

import type { DataType, SimpleDataType } from "./dtype-model.js";
import { dataTypeToJSON } from "./dtype.js";
import { MetadataError } from "./errors.js";
import { roundToFloat16 } from "./float16.js";
import { JsonFloat } from "./json-value.js";
import { formatPythonFloat } from "./python-float.js";

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
/** NumPy's NaT, the smallest int64. */
export const NAT = INT64_MIN;

/** The smallest and largest value of an integer dtype. */
export function intRange(dtype: SimpleDataType): readonly [bigint, bigint] {
  const bits = BigInt(dtype.itemsize * 8);
  return dtype.kind === "u" ? [0n, 2n ** bits - 1n] : [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n];
}

/** An integer as a fill value holds it: `number` up to 4 bytes, `bigint` for 8. */
export function intFillValue(value: bigint, dtype: SimpleDataType): number | bigint {
  return dtype.itemsize === 8 ? value : Number(value);
}

/** `x` rounded to the precision of a float dtype of `itemsize` bytes, as NumPy stores it. */
export function roundFloat(x: number, itemsize: number): number {
  if (itemsize === 2) return roundToFloat16(x);
  if (itemsize === 4) return Math.fround(x);
  return x;
}

/** `bytes` cut or zero-padded to `itemsize`, as NumPy fits bytes into an `S` or `V` element. */
export function fitBytes(bytes: Uint8Array, itemsize: number): Uint8Array {
  const out = new Uint8Array(itemsize);
  out.set(bytes.length > itemsize ? bytes.subarray(0, itemsize) : bytes);
  return out;
}

export function isJsonNumber(value: unknown): value is number | bigint | JsonFloat {
  return typeof value === "number" || typeof value === "bigint" || value instanceof JsonFloat;
}

/**
 * Python's `str()` of a JSON number. Integers beyond 2^53 parse as bigints, so a plain number
 * that is not a safe integer was written as a float (`1e20`), and Python prints it as one.
 */
export function pythonStr(value: number | bigint | JsonFloat): string {
  if (typeof value === "bigint") return value.toString();
  const x = value instanceof JsonFloat ? value.value : value;
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  return Number.isSafeInteger(x) && !(value instanceof JsonFloat) ? String(x) : formatPythonFloat(x);
}

/** A short rendering of any value for error messages. */
export function describeValue(value: unknown): string {
  if (value instanceof JsonFloat) return formatPythonFloat(value.value);
  if (value instanceof Uint8Array) return `${value.length} bytes`;
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) {
    return value.length <= 4 ? `[${value.map(describeValue).join(", ")}]` : `a list of ${value.length} items`;
  }
  if (typeof value === "object" && value !== null) return "an object";
  return String(value);
}

export function dtypeLabel(dtype: DataType): string {
  const json = dataTypeToJSON(dtype);
  return typeof json === "string" ? `"${json}"` : "structured";
}

/** A `MetadataError` for field `fill_value`, naming the key when there is one. */
export function fillValueError(
  dtype: DataType,
  expected: string,
  found: unknown,
  key?: string,
  cause?: unknown,
): MetadataError {
  const where = key === undefined ? "" : ` in "${key}"`;
  return new MetadataError(
    `Invalid fill_value for dtype ${dtypeLabel(dtype)}${where}: expected ${expected}, found ${describeValue(found)}`,
    { ...(key === undefined ? {} : { key }), field: "fill_value", cause },
  );
}
