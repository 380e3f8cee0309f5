/*
 * Fill values as TensorStore's zarr2 driver reads, converts, compares and writes them
 * (tensorstore/driver/zarr/metadata.cc `ParseFillValue`/`EncodeFillValue`, the json -> T
 * conversions of data_type.cc, and the broadcasting of tensorstore/array.h). A fill value is held
 * per field, as an array of the field's TensorStore data type: a scalar for plain dtypes, the
 * subarray (or the characters of `|S<n>`) otherwise.
 */
import {
  decodeExtension,
  encodeExtension,
  float16Bits,
  float16FromBits,
  JsonFloat,
  roundToExtension,
  roundToFloat16,
  type ExtensionName,
  type JsonValue,
} from "@z/meta";
import { tsDtypeKind, tsDtypeSize, type TsDataType, type ZarrDType, type ZarrField } from "./dtype.js";
import { SpecError } from "./errors.js";
import { doubleValue, dumpJson, integerValue, isNumber, numberOf, simpleAtod } from "./json.js";

/** One element: a boolean, a number (ints up to 32 bits, floats, char/byte), a bigint (64-bit ints), or [re, im]. */
export type Scalar = boolean | number | bigint | readonly [number, number] | JsonValue;

/** An array of values of one data type, in C order (`"json"`: not yet converted, as TensorStore keeps a schema's fill value before the dtype is known). */
export interface Values {
  readonly dtype: TsDataType;
  readonly shape: readonly number[];
  readonly data: readonly Scalar[];
}

const product = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

// --- conversions ----------------------------------------------------------------------------------

/** The range of an integer data type. */
function intRange(dtype: TsDataType): [bigint, bigint] {
  switch (dtype) {
    case "int2":
      return [-2n, 1n];
    case "int4":
      return [-8n, 7n];
    default: {
      const bits = BigInt(8 * tsDtypeSize(dtype));
      return dtype.startsWith("u") ? [0n, (1n << bits) - 1n] : [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n];
    }
  }
}

/** An integer of `dtype` as held here: a bigint for the 64-bit ones. */
const intOf = (dtype: TsDataType, value: bigint): number | bigint =>
  dtype === "int64" || dtype === "uint64" ? value : Number(value);

/** A double cast to a float data type (`static_cast<T>(double)`). */
export function roundFloat(dtype: TsDataType, x: number): number {
  switch (dtype) {
    case "float64":
    case "complex128":
      return x;
    case "float32":
    case "complex64":
      return Math.fround(x);
    case "float16":
      return roundToFloat16(x);
    default:
      return roundToExtension(dtype as ExtensionName, x);
  }
}

/** TensorStore's json -> T conversion (a schema's fill value): loose integers and floats, strings of them too. */
export function convertJson(j: JsonValue, dtype: TsDataType, member: string): Scalar {
  switch (tsDtypeKind(dtype)) {
    case "bool":
      if (typeof j === "boolean") return j;
      if (j === "true" || j === "false") return j === "true";
      throw new SpecError(`Expected boolean, but received: ${dumpJson(j)}`, { member });
    case "int": {
      const [min, max] = intRange(dtype);
      const v = integerValue(j, false);
      if (v !== undefined && v >= min && v <= max) return intOf(dtype, v);
      throw new SpecError(`Expected integer in the range [${min}, ${max}], but received: ${dumpJson(j)}`, { member });
    }
    case "float": {
      const v = doubleValue(j, false);
      if (v !== undefined) return roundFloat(dtype, v);
      throw new SpecError(`Expected 64-bit floating-point number, but received: ${dumpJson(j)}`, { member });
    }
    default:
      throw new SpecError(`Cannot convert json -> ${dtype}`, { member });
  }
}

/** Whether a value of `from` converts to `to` (TensorStore's numeric conversions). */
function convertScalar(value: Scalar, from: TsDataType, to: TsDataType): Scalar {
  if (from === to) return value;
  const fk = tsDtypeKind(from);
  const tk = tsDtypeKind(to);
  const real = (): number =>
    fk === "complex"
      ? (value as readonly [number, number])[0]
      : fk === "bool"
        ? Number(value as boolean)
        : Number(value as number | bigint);
  switch (tk) {
    case "bool":
      return fk === "complex" ? real() !== 0 : value !== 0 && value !== 0n && value !== false;
    case "float":
      return roundFloat(to, real());
    case "complex":
      return fk === "complex"
        ? [
            roundFloat(to, (value as readonly [number, number])[0]),
            roundFloat(to, (value as readonly [number, number])[1]),
          ]
        : [roundFloat(to, real()), 0];
    case "int": {
      const [min, max] = intRange(to);
      const span = max - min + 1n;
      const big = typeof value === "bigint" ? value : BigInt(Math.trunc(Number.isFinite(real()) ? real() : 0));
      const wrapped = (((big - min) % span) + span) % span;
      return intOf(to, wrapped + min);
    }
    default:
      return value;
  }
}

/** `values` converted to `dtype` (TensorStore's `MakeCopy(..., dtype)`), json values by the json rules. */
export function convertValues(values: Values, dtype: TsDataType, member: string): Values {
  if (values.dtype === dtype) return values;
  if (tsDtypeKind(dtype) === "other" || tsDtypeKind(dtype) === "byte")
    throw new SpecError(`Cannot convert ${values.dtype} -> ${dtype}`, { member });
  const data = values.data.map((v) =>
    values.dtype === "json" ? convertJson(v as JsonValue, dtype, member) : convertScalar(v, values.dtype, dtype),
  );
  return { dtype, shape: values.shape, data };
}

// --- arrays -----------------------------------------------------------------------------------------

/**
 * A nested JSON array as TensorStore's `JsonParseNestedArray` reads it (arrays nest dimensions; a
 * non-array is rank 0), each element converted to `dtype`, or kept as JSON when the dtype is not
 * yet known.
 */
export function parseNestedArray(j: JsonValue, dtype: TsDataType | undefined, member: string): Values {
  const shape: number[] = [];
  for (let x: JsonValue = j; Array.isArray(x); x = (x as JsonValue[])[0]!) {
    shape.push(x.length);
    if (x.length === 0) break;
  }
  const data: Scalar[] = [];
  const walk = (x: JsonValue, depth: number, where: number[]): void => {
    if (depth === shape.length) {
      if (Array.isArray(x))
        throw new SpecError(`Expected rank-${shape.length} array, but received: ${dumpJson(j)}`, { member });
      data.push(dtype === undefined ? x : convertElement(x, dtype, member, where));
      return;
    }
    if (!Array.isArray(x) || x.length !== shape[depth])
      throw new SpecError(`Array has inconsistent shape: ${dumpJson(j)}`, { member });
    for (const [i, y] of x.entries()) walk(y, depth + 1, [...where, i]);
  };
  walk(j, 0, []);
  return { dtype: dtype ?? "json", shape, data };
}

function convertElement(x: JsonValue, dtype: TsDataType, member: string, where: readonly number[]): Scalar {
  try {
    return convertJson(x, dtype, member);
  } catch (error) {
    if (!(error instanceof SpecError)) throw error;
    const message = error.message.slice(error.message.indexOf(": ") + 2);
    throw new SpecError(`Error parsing array element at position {${where.join(", ")}}: ${message}`, { member });
  }
}

/** TensorStore's `UnbroadcastArray` for a parsed array: its leading dimensions of size 1 dropped. */
export function unbroadcast(values: Values): Values {
  let lead = 0;
  while (lead < values.shape.length && values.shape[lead] === 1) lead++;
  return lead === 0 ? values : { ...values, shape: values.shape.slice(lead) };
}

/** TensorStore's `ValidateShapeBroadcast`: every dimension not of size 1 matches the target's, right-aligned. */
export function broadcastError(shape: readonly number[], target: readonly number[]): string | undefined {
  const fits = shape.every((s, i) => {
    const t = target.length - shape.length + i;
    return s === 1 || (t >= 0 && target[t] === s);
  });
  return fits
    ? undefined
    : `Cannot broadcast array of shape {${shape.join(", ")}} to target shape {${target.join(", ")}}`;
}

/** `values` broadcast to `shape` (materialized, C order). */
export function broadcast(values: Values, shape: readonly number[], member: string): Values {
  const error = broadcastError(values.shape, shape);
  if (error !== undefined) throw new SpecError(error, { member });
  const n = product(shape);
  const offset = shape.length - values.shape.length;
  const strides = values.shape.map((_, d) => product(values.shape.slice(d + 1)));
  const data: Scalar[] = new Array(n);
  const index = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    let src = 0;
    for (let d = Math.max(0, offset); d < shape.length; d++) {
      const sd = d - offset;
      if (values.shape[sd] !== 1) src += index[d]! * strides[sd]!;
    }
    data[i] = values.data[src]!;
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++index[d]! < shape[d]!) break;
      index[d] = 0;
    }
  }
  return { dtype: values.dtype, shape: [...shape], data };
}

/** Whether two arrays hold the same elements (NaNs equal to NaNs; -0 and 0 apart, as identical comparison does). */
export function identical(a: Values, b: Values): boolean {
  if (a.dtype !== b.dtype || a.shape.length !== b.shape.length || a.shape.some((s, i) => s !== b.shape[i]))
    return false;
  const same = (x: unknown, y: unknown): boolean =>
    Array.isArray(x) && Array.isArray(y) ? same(x[0], y[0]) && same(x[1], y[1]) : Object.is(x, y) || x === y;
  return a.data.every((x, i) => same(x, b.data[i]));
}

/** An array as TensorStore prints one in messages (`{1, 2}`, `7`). */
export function formatValues(values: Values): string {
  const item = (v: Scalar): string =>
    Array.isArray(v) ? `(${v[0]},${v[1]})` : typeof v === "object" && v !== null ? dumpJson(v as JsonValue) : String(v);
  const rec = (depth: number, offset: number): string => {
    if (depth === values.shape.length) return item(values.data[offset]!);
    const stride = product(values.shape.slice(depth + 1));
    const parts: string[] = [];
    for (let i = 0; i < values.shape[depth]!; i++) parts.push(rec(depth + 1, offset + i * stride));
    return `{${parts.join(", ")}}`;
  };
  return rec(0, 0);
}

// --- .zarray fill_value -------------------------------------------------------------------------

/** The per-field fill values of a zarr dtype (undefined where there is none: `fill_value: null`). */
export type FieldFills = readonly (Values | undefined)[];

type Indicator = "f" | "i" | "u" | "b" | "c" | "other";

/** TensorStore's `GetTypeIndicator`. */
function indicator(field: ZarrField): Indicator {
  const e = field.encoded;
  if (e.startsWith("float8") || e === "bfloat16" || e === "float4_e2m1fn") return "f";
  if (e === "int4" || e === "int2") return "i";
  const c = e[1];
  return c === "f" || c === "i" || c === "u" || c === "b" || c === "c" ? c : "other";
}

/** TensorStore's `DecodeFloat<T>`: a number, or "NaN", "Infinity", "-Infinity", or a finite number as a string. */
function decodeFloat(j: JsonValue, dtype: TsDataType, member: string): number {
  if (typeof j === "string") {
    if (j === "NaN") return Number.NaN;
    if (j === "Infinity") return Infinity;
    if (j === "-Infinity") return -Infinity;
    const v = simpleAtod(j);
    if (v !== undefined && Number.isFinite(v)) return roundFloat(dtype, v);
  } else if (isNumber(j)) {
    return roundFloat(dtype, Number(numberOf(j)));
  }
  throw new SpecError(`Invalid floating-point value: ${dumpJson(j)}`, { member });
}

/** TensorStore's `ParseFillValue`: `.zarray`'s `fill_value` for `dtype`. */
export function parseFillValue(j: JsonValue, dtype: ZarrDType, member: string): FieldFills {
  if (j === null) return dtype.fields.map(() => undefined);
  if (!dtype.hasFields) {
    const field = dtype.fields[0]!;
    const scalar = (v: Scalar): FieldFills => [{ dtype: field.dtype, shape: [], data: [v] }];
    switch (indicator(field)) {
      case "f":
        return scalar(decodeFloat(j, field.dtype, member));
      case "i":
      case "u": {
        const bits = BigInt(8 * tsDtypeSize(field.dtype));
        const signed = indicator(field) === "i";
        const [min, max] = signed ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
        const v = isNumber(j) ? integerValue(j, true) : undefined;
        if (v === undefined || v < min || v > max)
          throw new SpecError(`Expected integer in the range [${min}, ${max}], but received: ${dumpJson(j)}`, {
            member,
          });
        return scalar(convertScalar(v, "int64", field.dtype));
      }
      case "b":
        if (typeof j !== "boolean") throw new SpecError(`Expected boolean, but received: ${dumpJson(j)}`, { member });
        return scalar(j);
      case "c":
        if (Array.isArray(j)) {
          if (j.length !== 2) throw new SpecError(`Array has length ${j.length} but should have length 2`, { member });
          const part = field.dtype === "complex64" ? "float32" : "float64";
          return scalar([decodeFloat(j[0]!, part, member), decodeFloat(j[1]!, part, member)]);
        }
        break;
      default:
        break;
    }
  }
  const bytes = typeof j === "string" ? decodeBase64(j) : undefined;
  if (bytes === undefined || bytes.length !== dtype.bytesPerOuterElement)
    throw new SpecError(`Expected ${dtype.bytesPerOuterElement} base64-encoded bytes, but received: ${dumpJson(j)}`, {
      member,
    });
  return dtype.fields.map((f) => ({
    dtype: f.dtype,
    shape: f.fieldShape,
    data: decodeElements(bytes.subarray(f.byteOffset, f.byteOffset + f.numBytes), f),
  }));
}

/** A float as TensorStore's `EncodeFloat` writes it. */
const encodeFloat = (x: number): JsonValue =>
  Number.isNaN(x) ? "NaN" : x === Infinity ? "Infinity" : x === -Infinity ? "-Infinity" : new JsonFloat(x);

/** TensorStore's `EncodeFillValue`: the `fill_value` member `.zarray` gets. */
export function encodeFillValue(dtype: ZarrDType, fills: FieldFills): JsonValue {
  if (!dtype.hasFields) {
    const field = dtype.fields[0]!;
    const fill = fills[0];
    if (fill === undefined) return null;
    const value = broadcast(fill, field.fieldShape, "fill_value").data[0]!;
    switch (indicator(field)) {
      case "f":
        return encodeFloat(value as number);
      case "c": {
        const [re, im] = value as readonly [number, number];
        return [encodeFloat(re), encodeFloat(im)];
      }
      case "i":
      case "u":
      case "b":
        return value as number | bigint | boolean;
      default:
        break;
    }
  }
  const buffer = new Uint8Array(dtype.bytesPerOuterElement);
  for (const [i, field] of dtype.fields.entries()) {
    const fill = fills[i];
    if (fill === undefined) return null;
    buffer.set(encodeElements(broadcast(fill, field.fieldShape, "fill_value").data, field), field.byteOffset);
  }
  return encodeBase64(buffer);
}

// --- element bytes ----------------------------------------------------------------------------------

const view = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The elements a field's bytes hold (in the field's byte order). */
export function decodeElements(bytes: Uint8Array, field: ZarrField): Scalar[] {
  const size = tsDtypeSize(field.dtype);
  const n = size === 0 ? 0 : bytes.length / size;
  const little = field.endian !== ">";
  const v = view(bytes);
  const out: Scalar[] = [];
  for (let i = 0; i < n; i++) {
    const o = i * size;
    switch (field.dtype) {
      case "bool":
        out.push(bytes[o] !== 0);
        break;
      case "char":
      case "byte":
      case "uint8":
        out.push(bytes[o]!);
        break;
      case "int8":
        out.push(v.getInt8(o));
        break;
      case "int16":
        out.push(v.getInt16(o, little));
        break;
      case "uint16":
        out.push(v.getUint16(o, little));
        break;
      case "int32":
        out.push(v.getInt32(o, little));
        break;
      case "uint32":
        out.push(v.getUint32(o, little));
        break;
      case "int64":
        out.push(v.getBigInt64(o, little));
        break;
      case "uint64":
        out.push(v.getBigUint64(o, little));
        break;
      case "float16":
        out.push(float16FromBits(v.getUint16(o, little)));
        break;
      case "float32":
        out.push(v.getFloat32(o, little));
        break;
      case "float64":
        out.push(v.getFloat64(o, little));
        break;
      case "complex64":
        out.push([v.getFloat32(o, little), v.getFloat32(o + 4, little)]);
        break;
      case "complex128":
        out.push([v.getFloat64(o, little), v.getFloat64(o + 8, little)]);
        break;
      default: {
        // The extension types, stored little-endian.
        const decoded = decodeExtension(field.dtype as ExtensionName, bytes.subarray(o, o + size));
        out.push(decoded[0]!);
      }
    }
  }
  return out;
}

/** The bytes of `values` as elements of `field` (in its byte order). */
export function encodeElements(values: readonly Scalar[], field: ZarrField): Uint8Array {
  const size = tsDtypeSize(field.dtype);
  const bytes = new Uint8Array(values.length * size);
  const little = field.endian !== ">";
  const v = view(bytes);
  values.forEach((x, i) => {
    const o = i * size;
    switch (field.dtype) {
      case "bool":
        bytes[o] = x ? 1 : 0;
        break;
      case "char":
      case "byte":
      case "uint8":
      case "int8":
        v.setUint8(o, Number(x) & 0xff);
        break;
      case "int16":
      case "uint16":
        v.setUint16(o, Number(x) & 0xffff, little);
        break;
      case "int32":
      case "uint32":
        v.setUint32(o, Number(x) >>> 0, little);
        break;
      case "int64":
      case "uint64":
        v.setBigUint64(o, BigInt.asUintN(64, x as bigint), little);
        break;
      case "float16":
        v.setUint16(o, Number.isNaN(x) ? 0x7e00 : float16Bits(x as number), little);
        break;
      case "float32":
        v.setFloat32(o, x as number, little);
        break;
      case "float64":
        v.setFloat64(o, x as number, little);
        break;
      case "complex64":
        v.setFloat32(o, (x as readonly [number, number])[0], little);
        v.setFloat32(o + 4, (x as readonly [number, number])[1], little);
        break;
      case "complex128":
        v.setFloat64(o, (x as readonly [number, number])[0], little);
        v.setFloat64(o + 8, (x as readonly [number, number])[1], little);
        break;
      default:
        bytes.set(encodeExtension(field.dtype as ExtensionName, [x as number]), o);
    }
  });
  return bytes;
}

// --- base64 -----------------------------------------------------------------------------------------

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function encodeBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const left = bytes.length - i;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
    out += left > 1 ? ALPHABET[(n >> 6) & 63]! : "=";
    out += left > 2 ? ALPHABET[n & 63]! : "=";
  }
  return out;
}

/** absl's `Base64Unescape`: the standard alphabet, padding optional but exact when present. */
export function decodeBase64(text: string): Uint8Array | undefined {
  let body = text;
  const padded = /=+$/.exec(body);
  if (padded !== null) {
    body = body.slice(0, padded.index);
    if (text.length % 4 !== 0 || padded[0].length > 2) return undefined;
  }
  if (body.length % 4 === 1) return undefined;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const c of body) {
    const d = ALPHABET.indexOf(c);
    if (d < 0) return undefined;
    acc = (acc << 6) | d;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  return Uint8Array.from(out);
}
