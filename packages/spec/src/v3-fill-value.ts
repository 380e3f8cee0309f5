/*
 * A zarr3 `fill_value` as TensorStore's zarr3 driver reads and writes it
 * (tensorstore/driver/zarr3/metadata.cc `FillValueJsonBinder`, default_nan.h): booleans and integers
 * as JSON (strictly: no strings), floats as numbers or `"NaN"`, `"Infinity"`, `"-Infinity"`, or the
 * element's bits in hex (`"0x7fc00001"`, keeping a NaN's payload), complex numbers as `[re, im]`.
 * The value is held as a rank-0 array (for comparisons and conversions), beside the JSON TensorStore
 * writes for it (which is where a NaN payload is kept).
 */
import { decodeExtension, float16FromBits, JsonFloat, type ExtensionName, type JsonValue } from "@z/meta";
import type { TsDataType } from "./dtype.js";
import { SpecError } from "./errors.js";
import { roundFloat, type Scalar, type Values } from "./fill-value.js";
import { dumpJson, integerValue, isNumber, numberOf } from "./json.js";
import { zarr3ItemSize } from "./v3-dtype.js";

/** A zarr3 fill value: its value (rank 0) and the JSON TensorStore writes for it. */
export interface FillV3 {
  readonly values: Values;
  readonly json: JsonValue;
}

const kindOf = (dtype: TsDataType): "bool" | "int" | "float" | "complex" =>
  dtype === "bool"
    ? "bool"
    : dtype.startsWith("complex")
      ? "complex"
      : dtype.startsWith("float") || dtype === "bfloat16"
        ? "float"
        : "int";

/** The bits of each float type's default NaN (what `"NaN"` stands for, and what is written back as `"NaN"`). */
const DEFAULT_NAN: Partial<Record<TsDataType, bigint>> = {
  float64: 0x7ff8000000000000n,
  float32: 0x7fc00000n,
  float16: 0x7e00n,
  bfloat16: 0x7fc0n,
  float8_e3m4: 0x78n,
  float8_e4m3fn: 0x7fn,
  float8_e4m3fnuz: 0x80n,
  float8_e4m3b11fnuz: 0x80n,
  float8_e5m2: 0x7en,
  float8_e5m2fnuz: 0x80n,
  float8_e8m0fnu: 0xffn,
};

/** The value of a float type's element with these bits. */
function floatFromBits(dtype: TsDataType, bits: bigint): number {
  const view = new DataView(new ArrayBuffer(8));
  switch (dtype) {
    case "float64":
      view.setBigUint64(0, bits);
      return view.getFloat64(0);
    case "float32":
      view.setUint32(0, Number(bits));
      return view.getFloat32(0);
    case "float16":
      return float16FromBits(Number(bits));
    case "bfloat16":
      view.setUint32(0, Number(bits) << 16);
      return view.getFloat32(0);
    default:
      return decodeExtension(dtype as ExtensionName, Uint8Array.of(Number(bits)))[0]!;
  }
}

/** A float as TensorStore writes it: a number when finite, else `"Infinity"`, `"-Infinity"` or `"NaN"`. */
const floatJson = (x: number): JsonValue =>
  Number.isNaN(x) ? "NaN" : x === Infinity ? "Infinity" : x === -Infinity ? "-Infinity" : new JsonFloat(x);

/** TensorStore's `FloatFillValueJsonBinder` loading one float: the value and the JSON written back. */
function decodeFloat(j: JsonValue, dtype: TsDataType, member: string): { value: number; json: JsonValue } {
  if (typeof j === "string") {
    // A type without infinities holds what converting one gives: NaN, or its largest value.
    if (j === "Infinity" || j === "-Infinity") {
      const value = roundFloat(dtype, j === "Infinity" ? Infinity : -Infinity);
      // float8_e4m3fn's negated NaN keeps its sign: 0xff, not the default 0x7f.
      if (dtype === "float8_e4m3fn" && j === "-Infinity") return { value, json: "0xff" };
      return { value, json: floatJson(value) };
    }
    // float4_e2m1fn has no NaN: TensorStore's quiet NaN of it is the code of -0.
    if (j === "NaN") return dtype === "float4_e2m1fn" ? { value: -0, json: floatJson(-0) } : { value: NaN, json: j };
    const size = zarr3ItemSize(dtype === "complex64" ? "float32" : dtype === "complex128" ? "float64" : dtype);
    if (/^0x[0-9a-fA-F]+$/.test(j) && j.length <= 2 + 2 * size) {
      const bits = BigInt(j);
      const value = floatFromBits(dtype, bits);
      if (!Number.isNaN(value)) return { value, json: floatJson(value) };
      return {
        value,
        json: bits === DEFAULT_NAN[dtype] ? "NaN" : `0x${bits.toString(16).padStart(2 * size, "0")}`,
      };
    }
    throw new SpecError(`Expected "Infinity", "-Infinity", "NaN", or hex string, but received: ${dumpJson(j)}`, {
      member,
    });
  }
  if (isNumber(j)) {
    const value = roundFloat(dtype, Number(numberOf(j)));
    return { value, json: floatJson(value) };
  }
  throw new SpecError(`Expected floating-point number, but received: ${dumpJson(j)}`, { member });
}

/** The range of an integer type. */
function intRange(dtype: TsDataType): [bigint, bigint] {
  if (dtype === "int2") return [-2n, 1n];
  if (dtype === "int4") return [-8n, 7n];
  const bits = BigInt(8 * zarr3ItemSize(dtype));
  return dtype.startsWith("u") ? [0n, (1n << bits) - 1n] : [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n];
}

const scalarOf = (dtype: TsDataType, value: Scalar, json: JsonValue): FillV3 => ({
  values: { dtype, shape: [], data: [value] },
  json,
});

/** TensorStore's `FillValueJsonBinder` loading the `fill_value` of a plain zarr3 data type. */
export function parseFillV3(j: JsonValue, dtype: TsDataType, member: string): FillV3 {
  switch (kindOf(dtype)) {
    case "bool":
      if (typeof j !== "boolean") throw new SpecError(`Expected boolean, but received: ${dumpJson(j)}`, { member });
      return scalarOf(dtype, j, j);
    case "int": {
      const [min, max] = intRange(dtype);
      const v = isNumber(j) ? integerValue(j, true) : undefined;
      if (v === undefined || v < min || v > max)
        throw new SpecError(`Expected integer in the range [${min}, ${max}], but received: ${dumpJson(j)}`, {
          member,
        });
      const value = dtype.endsWith("64") ? v : Number(v);
      return scalarOf(dtype, value, value);
    }
    case "float": {
      const { value, json } = decodeFloat(j, dtype, member);
      return scalarOf(dtype, value, json);
    }
    case "complex": {
      if (!Array.isArray(j)) throw new SpecError(`Expected array, but received: ${dumpJson(j)}`, { member });
      if (j.length !== 2) throw new SpecError(`Array has length ${j.length} but should have length 2`, { member });
      const part = dtype === "complex64" ? "float32" : "float64";
      const re = decodeFloat(j[0]!, part, `${member}[0]`);
      const im = decodeFloat(j[1]!, part, `${member}[1]`);
      return scalarOf(dtype, [re.value, im.value], [re.json, im.json]);
    }
  }
}

/** The fill value of a converted rank-0 array (a schema's fill value), as TensorStore writes it. */
export function fillOfValues(values: Values): FillV3 {
  const value = values.data[0]!;
  const dtype = values.dtype;
  switch (kindOf(dtype)) {
    case "bool":
    case "int":
      return scalarOf(dtype, value, value as boolean | number | bigint);
    case "float": {
      // float4_e2m1fn has no NaN (see decodeFloat).
      const x = dtype === "float4_e2m1fn" && Number.isNaN(value as number) ? -0 : (value as number);
      return scalarOf(dtype, x, floatJson(x));
    }
    case "complex": {
      const [re, im] = value as readonly [number, number];
      return scalarOf(dtype, value, [floatJson(re), floatJson(im)]);
    }
  }
}

/** TensorStore's fill value of a new array without one: zero (false). */
export function zeroFill(dtype: TsDataType): FillV3 {
  switch (kindOf(dtype)) {
    case "bool":
      return fillOfValues({ dtype, shape: [], data: [false] });
    case "int":
      return fillOfValues({ dtype, shape: [], data: [dtype.endsWith("64") ? 0n : 0] });
    case "float":
      return fillOfValues({ dtype, shape: [], data: [0] });
    case "complex":
      return fillOfValues({ dtype, shape: [], data: [[0, 0]] });
  }
}
