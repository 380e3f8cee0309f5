// One element of the fill value as stored bytes (to build missing chunks and to tell whether a
// chunk holds nothing but the fill value) and as the JS value that fills a result typed array.

import type { FillValue } from "./array-metadata-model.js";
import { byteSwapInPlace } from "./dtype-arrays.js";
import type { DataType, SimpleDataType } from "./dtype-model.js";
import { DataTypeError } from "./errors.js";
import { fillValueError, fitBytes, isJsonNumber, pythonStr } from "./fill-value-rules.js";
import { decodeExtension, encodeExtension } from "./extension-dtypes.js";
import { float16Bits } from "./float16.js";
import { typestr } from "./typestr.js";

/**
 * The `itemsize` bytes of one element equal to `value`, in the dtype's own byte order; `null`
 * gives zeros (the spec leaves such chunks undefined; zeros are what NumPy's empty chunks hold in
 * practice). `U` strings are cut to the dtype's length, as NumPy stores them. A float, complex or
 * extension float fill given as a `Uint8Array` is the element's bytes themselves: how a Zarr v3
 * fill written in hex (`"0x7fc00001"`) keeps a NaN's payload, which a JS number need not keep.
 */
export function fillValueBytes(value: FillValue, dtype: DataType): Uint8Array {
  if (dtype.kind === "O") throw objectError(dtype);
  const out = new Uint8Array(dtype.itemsize);
  if (value === null || value === undefined) return out;
  if (isRawBits(value, dtype)) {
    out.set(value);
    return out;
  }
  if (dtype.kind === "x") {
    if (typeof value !== "number") throw fillValueError(dtype, "a number", value);
    return encodeExtension(dtype.extension!, [value]);
  }
  if (dtype.kind === "structured" || dtype.kind === "V" || dtype.kind === "S") {
    if (!(value instanceof Uint8Array)) throw fillValueError(dtype, "a Uint8Array", value);
    out.set(fitBytes(value, dtype.itemsize));
    return out;
  }
  const view = new DataView(out.buffer);
  const little = dtype.byteOrder !== ">";
  switch (dtype.kind) {
    case "b":
      if (typeof value !== "boolean") throw fillValueError(dtype, "a boolean", value);
      out[0] = value ? 1 : 0;
      break;
    case "i":
    case "u":
      writeInteger(view, dtype, value, little);
      break;
    case "f":
      if (typeof value !== "number") throw fillValueError(dtype, "a number", value);
      writeFloat(view, 0, dtype.itemsize, value, little);
      break;
    case "c": {
      if (!isPair(value)) throw fillValueError(dtype, "[real, imaginary]", value);
      const half = dtype.itemsize / 2;
      writeFloat(view, 0, half, value[0], little);
      writeFloat(view, half, half, value[1], little);
      break;
    }
    case "U":
      if (typeof value !== "string" && !isJsonNumber(value)) throw fillValueError(dtype, "a string", value);
      // A legacy number fills as NumPy fills it: with its text.
      writeUnicode(view, dtype.itemsize / 4, typeof value === "string" ? value : pythonStr(value), little);
      break;
    case "M":
    case "m":
      if (typeof value !== "bigint" && !(typeof value === "number" && Number.isSafeInteger(value))) {
        throw fillValueError(dtype, "a bigint", value);
      }
      view.setBigInt64(0, BigInt(value), little);
      break;
  }
  return out;
}

/**
 * The value to `fill()` a `typedArrayConstructor(dtype)` array with: 0/1 for booleans, a number
 * or (8-byte kinds) a bigint, the raw bits of an `f2`, `[re, im]` for complex dtypes (to write
 * into each pair of entries), and for byte-backed dtypes the element's bytes in little-endian
 * order; a float fill given by its bytes (a NaN payload) is also its little-endian bytes, which
 * `fill` copies bit for bit. `null` gives the zero element.
 */
export function fillValueToElement(
  value: FillValue,
  dtype: DataType,
): number | bigint | readonly [number, number] | Uint8Array {
  const none = value === null || value === undefined;
  if (isRawBits(value, dtype)) {
    if (dtype.kind === "x") {
      // The in-memory float32 (or int) bits of the stored element.
      const one = decodeExtension(dtype.extension!, value);
      return new Uint8Array(one.buffer, one.byteOffset, one.byteLength);
    }
    const bytes = value.slice();
    byteSwapInPlace(bytes, dtype);
    return bytes;
  }
  switch (dtype.kind) {
    case "O":
      throw objectError(dtype);
    case "x":
      // The in-memory value (a float32 or int8 number), not the stored bits.
      if (none) return 0;
      if (typeof value !== "number") throw fillValueError(dtype, "a number", value);
      return value;
    case "b":
      return value === true ? 1 : 0;
    case "i":
    case "u":
      if (none) return dtype.itemsize === 8 ? 0n : 0;
      if (typeof value !== "number" && typeof value !== "bigint") throw fillValueError(dtype, "an integer", value);
      return dtype.itemsize === 8 ? BigInt(value) : Number(value);
    case "f":
      if (none) return 0;
      if (typeof value !== "number") throw fillValueError(dtype, "a number", value);
      return dtype.itemsize === 2 ? float16Bits(value) : value;
    case "c":
      if (none) return [0, 0] as const;
      if (!isPair(value)) throw fillValueError(dtype, "[real, imaginary]", value);
      return value;
    case "M":
    case "m":
      if (none) return 0n;
      if (typeof value !== "bigint" && typeof value !== "number") throw fillValueError(dtype, "a bigint", value);
      return BigInt(value);
    default: {
      const bytes = fillValueBytes(value, dtype);
      byteSwapInPlace(bytes, dtype);
      return bytes;
    }
  }
}

function writeInteger(view: DataView, dtype: SimpleDataType, value: unknown, little: boolean): void {
  if (typeof value !== "bigint" && !(typeof value === "number" && Number.isInteger(value))) {
    throw fillValueError(dtype, "an integer", value);
  }
  const signed = dtype.kind === "i";
  switch (dtype.itemsize) {
    case 1:
      if (signed) view.setInt8(0, Number(value));
      else view.setUint8(0, Number(value));
      break;
    case 2:
      if (signed) view.setInt16(0, Number(value), little);
      else view.setUint16(0, Number(value), little);
      break;
    case 4:
      if (signed) view.setInt32(0, Number(value), little);
      else view.setUint32(0, Number(value), little);
      break;
    default:
      if (signed) view.setBigInt64(0, BigInt(value), little);
      else view.setBigUint64(0, BigInt(value), little);
  }
}

/**
 * NaN is written as the positive quiet NaN numpy's `np.nan` is: JS engines leave a NaN's sign and
 * payload unspecified (Chromium and Node differ), and a JSON "NaN" carries neither anyway.
 */
function writeFloat(view: DataView, offset: number, size: number, x: number, little: boolean): void {
  if (size === 2) view.setUint16(offset, float16Bits(x), little);
  else if (size === 4) {
    if (Number.isNaN(x)) view.setUint32(offset, 0x7fc00000, little);
    else view.setFloat32(offset, x, little);
  } else if (Number.isNaN(x)) {
    view.setUint32(offset + (little ? 4 : 0), 0x7ff80000, little);
    view.setUint32(offset + (little ? 0 : 4), 0, little);
  } else view.setFloat64(offset, x, little);
}

/** UTF-32 code points, cut to `length` characters and zero-padded. */
function writeUnicode(view: DataView, length: number, text: string, little: boolean): void {
  let i = 0;
  for (const char of text) {
    if (i === length) break;
    view.setUint32(i * 4, char.codePointAt(0)!, little);
    i++;
  }
}

/** A number-kind fill given by the element's own bytes (see `fillValueBytes`). */
function isRawBits(value: unknown, dtype: DataType): value is Uint8Array {
  return (
    value instanceof Uint8Array &&
    (dtype.kind === "f" || dtype.kind === "c" || dtype.kind === "x") &&
    value.length === dtype.itemsize
  );
}

function isPair(value: unknown): value is readonly [number, number] {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === "number" && typeof value[1] === "number";
}

function objectError(dtype: SimpleDataType): DataTypeError {
  return new DataTypeError(
    `Object dtype "${typestr(dtype)}" has no fixed-size bytes: its elements are encoded by an object codec`,
  );
}
