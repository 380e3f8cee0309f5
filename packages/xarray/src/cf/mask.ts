// xarray's CFMaskCoder.decode (xarray/coding/variables.py): values equal to `_FillValue` or
// `missing_value` become NaN (NaT, or NaN in an object array), in the dtype `maybe_promote` gives.
import { float16Bits, roundToFloat16 } from "@z/meta";
import { intDtype, kindOf, itemsizeOf, numericArray } from "../dtype.js";
import { ByteString, bytesElement, latin1, numberAt, type Held } from "../values.js";
import { float16FromBits } from "@z/meta";
import { CFError } from "../errors.js";
import { castNumbers, dtypeNamed } from "./cast.js";
import { type Encoding, popToAttrs } from "./encoding.js";

const FLOAT32_MAX = 3.4028234663852886e38;
const FLOAT16_MAX = 65504;

/**
 * A fill value as Python holds it: numbers (`bigint` for integers beyond 2^53), booleans, strings,
 * bytes (`ByteString`), `[re, im]` for complex, or another JSON value.
 */
export type PyValue = unknown;

/** pandas' `isnull` for a scalar: None, NaN (and NaT, a bigint -2^63 only for datetime data). */
export const isNull = (value: PyValue): boolean =>
  value === null || value === undefined || (typeof value === "number" && Number.isNaN(value));

/**
 * The fill values of `_FillValue` and `missing_value` that mask: each flattened (a list gives each
 * of its items, as `np.ravel`), nulls and NaN left out.
 */
export function encodedFillValues(...options: PyValue[]): PyValue[] {
  const out: PyValue[] = [];
  for (const option of options) {
    for (const value of Array.isArray(option) ? option : [option]) {
      if (!isNull(value)) out.push(value);
    }
  }
  return out;
}

/** A complex fill value (the Zarr fill value of a complex array). */
export class ComplexValue {
  constructor(
    readonly re: number,
    readonly im: number,
  ) {}
}

/** `dtypes.maybe_promote`: the dtype that can hold the missing value, for data of `dtype`. */
export function promotedDtype(dtype: string): string {
  switch (kindOf(dtype)) {
    case "f":
    case "c":
    case "m":
    case "M":
      return dtype;
    case "i":
    case "u":
      return itemsizeOf(dtype) <= 2 ? "float32" : "float64";
    default:
      return "object";
  }
}

/** Python's `==` between an element of an object array and a fill value. */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  const na = pyNumber(a);
  const nb = pyNumber(b);
  if (na !== undefined && nb !== undefined) return na === nb;
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (a instanceof ByteString || b instanceof ByteString)
    return a instanceof ByteString && b instanceof ByteString && a.text === b.text;
  return a === b;
}

/** A bool, int or float as the number Python compares it by; bigints as exact as JS can hold. */
function pyNumber(value: PyValue): number | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  return undefined;
}

/**
 * The fill value as NumPy compares it with float data of `dtype` (`float16`, `float32` or
 * `float64`): a Python or NumPy scalar is cast to the array's precision when it fits its range
 * (value-based casting), so `1e20` matches the float32 values stored for it. A finite value beyond
 * the range compares in float64 and so matches nothing; a string matches nothing.
 */
function comparableFill(fill: PyValue, dtype: string): number | undefined {
  const value = pyNumber(fill);
  if (value === undefined) return undefined;
  if (dtype === "float64") return value;
  const max = dtype === "float32" ? FLOAT32_MAX : FLOAT16_MAX;
  if (Number.isFinite(value) && Math.abs(value) > max) return undefined;
  return dtype === "float32" ? Math.fround(value) : roundToFloat16(value);
}

/**
 * Masks `fills` (from {@link encodedFillValues}, not empty) in `held`: returns values of the
 * promoted dtype with NaN (NaT; `null` in object arrays) where any fill value matched.
 */
export function applyMask(held: Held, fills: readonly PyValue[]): Held {
  const dtype = promotedDtype(held.dtype);
  const kind = kindOf(held.dtype);
  const length = held.shape.reduce((a, b) => a * b, 1);
  if (dtype === "object") {
    const elements = objectElements(held, length);
    return { dtype, shape: held.shape, data: elements.map((v) => (fills.some((f) => pyEquals(v, f)) ? null : v)) };
  }
  if (kind === "c") {
    const round = dtype === "complex64" ? Math.fround : (x: number) => x;
    const targets = fills.flatMap((f) => {
      if (f instanceof ComplexValue) return [[round(f.re), round(f.im)] as const];
      const value = pyNumber(f);
      return value === undefined ? [] : [[round(value), 0] as const];
    });
    const data = (held.data as Float32Array | Float64Array).slice();
    for (let i = 0; i < length; i++) {
      const re = data[2 * i]!;
      const im = data[2 * i + 1]!;
      if (targets.some(([r, j]) => r === re && j === im)) data[2 * i] = data[2 * i + 1] = NaN;
    }
    return { dtype, shape: held.shape, data };
  }
  const targets = fills.map((f) => comparableFill(f, dtype)).filter((v): v is number => v !== undefined);
  if (dtype === "float16") {
    const bits = (held.data as Uint16Array).slice();
    for (let i = 0; i < length; i++) if (targets.includes(numberAt(held, i))) bits[i] = float16Bits(NaN);
    return { dtype, shape: held.shape, data: bits };
  }
  const out = numericArray(dtype, length) as Float32Array | Float64Array;
  for (let i = 0; i < length; i++) {
    const x = numberAt(held, i);
    out[i] = targets.includes(dtype === "float32" ? Math.fround(x) : x) ? NaN : x;
  }
  return { dtype, shape: held.shape, data: out };
}

/** The elements of `held` as NumPy's `asarray(data, dtype=object)` gives them. */
export function objectElements(held: Held, length: number): PyValue[] {
  switch (kindOf(held.dtype)) {
    case "O":
    case "U":
      return (held.data as unknown[]).slice();
    case "S": {
      const itemsize = itemsizeOf(held.dtype);
      const out = new Array<PyValue>(length);
      for (let i = 0; i < length; i++)
        out[i] = new ByteString(latin1(bytesElement(held.data as Uint8Array, itemsize, i)));
      return out;
    }
    case "b":
      return Array.from(held.data as Uint8Array, (v) => v !== 0);
    default:
      return Array.from({ length }, (_, i) => numberAt(held, i));
  }
}

/**
 * xarray's UnsignedIntegerCoder.decode: `_Unsigned: "true"` reads signed integers as the unsigned
 * ones of their bits (`"false"` the other way), and casts a `_FillValue` attribute the same way.
 */
export function reinterpretSign(held: Held, unsigned: "true" | "false"): Held | undefined {
  const kind = kindOf(held.dtype);
  const size = itemsizeOf(held.dtype);
  if (!((kind === "i" && unsigned === "true") || (kind === "u" && unsigned === "false"))) return undefined;
  const dtype = intDtype(kind === "i" ? "u" : "i", size);
  const source = held.data as Exclude<typeof held.data, unknown[]>;
  const target = numericArray(dtype, 0).constructor as new (
    buffer: ArrayBufferLike,
    offset: number,
    length: number,
  ) => typeof source;
  return { dtype, shape: held.shape, data: new target(source.buffer, source.byteOffset, source.length) };
}

/** A fill value cast to an integer dtype's bits, as NumPy 1.24 casts a Python int (wrapping). */
export function castFillToInt(fill: PyValue, dtype: string): PyValue {
  const value =
    typeof fill === "bigint" ? fill : typeof fill === "number" && Number.isInteger(fill) ? BigInt(fill) : undefined;
  if (value === undefined) return fill;
  const bits = itemsizeOf(dtype) * 8;
  const wrapped = kindOf(dtype) === "u" ? BigInt.asUintN(bits, value) : BigInt.asIntN(bits, value);
  return bits === 64 ? wrapped : Number(wrapped);
}

// Encoding: `_FillValue`/`missing_value` (xarray's CFMaskCoder) and `_Unsigned` (UnsignedIntegerCoder).

/**
 * A fill value as the target dtype holds it (`dtype.type(fv)`): rounded to a float's precision,
 * an integer wrapped to an integer's bits as NumPy 1.24 wraps (`np.int8(255)` is -1).
 */
function castScalar(value: unknown, dtype: string, state: Encoding, key: string): unknown {
  if (isNull(value)) return value;
  const kind = kindOf(dtype);
  const n = typeof value === "boolean" ? Number(value) : value;
  if (typeof n !== "number" && typeof n !== "bigint") return value;
  if (kind === "f") {
    const x = Number(n);
    return dtype === "float32" ? Math.fround(x) : dtype === "float16" ? roundToFloat16(x) : x;
  }
  if (kind === "i" || kind === "u") {
    if (typeof n === "number" && !Number.isInteger(n))
      throw new CFError(`${state.name}: ${key} ${n} is not an integer of ${dtype}`, {
        variable: state.name,
        attribute: key,
      });
    const bits = itemsizeOf(dtype) * 8;
    const wrapped = kind === "u" ? BigInt.asUintN(bits, BigInt(n)) : BigInt.asIntN(bits, BigInt(n));
    return bits === 64 ? wrapped : Number(wrapped);
  }
  return value;
}

/** CFMaskCoder.encode: `_FillValue` (and `missing_value`) into attributes, NaN replaced by it. */
export function encodeMask(state: Encoding): void {
  const target = "dtype" in state.encoding ? dtypeNamed(state.encoding.dtype, state.name) : state.held.dtype;
  const fv = state.encoding._FillValue;
  const mv = state.encoding.missing_value;
  if (fv !== undefined && fv !== null && mv !== undefined && mv !== null && !sameValue(fv, mv))
    throw new CFError(`${state.name}: conflicting _FillValue (${String(fv)}) and missing_value (${String(mv)})`, {
      variable: state.name,
      attribute: "_FillValue",
    });
  if (fv !== undefined && fv !== null) {
    state.encoding._FillValue = castScalar(fv, target, state, "_FillValue");
    const fill = popToAttrs(state, "_FillValue");
    if (!isNull(fill)) fillNaN(state, fill);
  } else if (fv === null) {
    delete state.encoding._FillValue;
    state.attrs._FillValue = null;
  }
  if (mv !== undefined && mv !== null) {
    state.encoding.missing_value = castScalar(mv, target, state, "missing_value");
    const missing = popToAttrs(state, "missing_value");
    if (!isNull(missing) && (fv === undefined || fv === null)) fillNaN(state, missing);
  }
}

const sameValue = (a: unknown, b: unknown): boolean =>
  a === b ||
  (typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b)) ||
  Number(a) === Number(b);

/** `fillna`: NaN (and NaT) replaced by `fill` (floats only hold NaN; other data is unchanged). */
function fillNaN(state: Encoding, fill: unknown): void {
  const held = state.held;
  const kind = kindOf(held.dtype);
  if (held.dtype === "float16") {
    const bits = (held.data as Uint16Array).slice();
    const value = float16Bits(Number(fill));
    for (let i = 0; i < bits.length; i++) if (Number.isNaN(float16FromBits(bits[i]!))) bits[i] = value;
    state.held = { ...held, data: bits };
  } else if (kind === "f") {
    const data = (held.data as Float32Array | Float64Array).slice();
    const value = Number(fill);
    for (let i = 0; i < data.length; i++) if (Number.isNaN(data[i]!)) data[i] = value;
    state.held = { ...held, data };
  } else if (kind === "O") {
    state.held = {
      ...held,
      data: (held.data as unknown[]).map((v) => (v === null || (typeof v === "number" && Number.isNaN(v)) ? fill : v)),
    };
  }
}

/** UnsignedIntegerCoder.encode: `_Unsigned: "true"` stores unsigned values in the signed type of their size. */
export function encodeUnsigned(state: Encoding): void {
  if (state.encoding._Unsigned !== "true") return;
  popToAttrs(state, "_Unsigned");
  const held = state.held;
  const size = itemsizeOf(held.dtype);
  const signed = `int${size * 8}`;
  if ("_FillValue" in state.attrs && !isNull(state.attrs._FillValue))
    state.attrs._FillValue = Number(BigInt.asIntN(size * 8, BigInt(state.attrs._FillValue as number)));
  state.held = castNumbers(held, signed, state.name, true);
}

/** `maybe_default_fill_value`: floats get a NaN `_FillValue` unless one is given (or `null`). */
export function defaultFillValue(state: Encoding): void {
  if ("_FillValue" in state.attrs || "_FillValue" in state.encoding) return;
  if (kindOf(state.held.dtype) === "f") state.attrs._FillValue = NaN;
}
