// xarray's CFScaleOffsetCoder.decode (xarray/coding/variables.py): `values * scale_factor +
// add_offset`, in float32 or float64 as `_choose_float_dtype` picks, with NumPy's arithmetic.
import { itemsizeOf, kindOf } from "../dtype.js";
import { CFError } from "../errors.js";
import { numberAt, type Held } from "../values.js";
import { numericArray } from "../dtype.js";
import { type Encoding, popToAttrs } from "./encoding.js";

const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * `_choose_float_dtype`: float32 for float16/float32 data and for integers of up to 2 bytes
 * without an offset (float32 holds them exactly); float64 for everything else.
 */
export function unpackedDtype(dtype: string, hasOffset: boolean): "float32" | "float64" {
  const kind = kindOf(dtype);
  const size = itemsizeOf(dtype);
  if (kind === "f" && size <= 4) return "float32";
  if ((kind === "i" || kind === "u") && size <= 2 && !hasOffset) return "float32";
  return "float64";
}

/**
 * A `scale_factor` or `add_offset` attribute as the Python scalar xarray uses: a number, or the
 * one item of a list (`np.asarray(value).item()`); `undefined` for null (no scaling).
 */
export function packingScalar(value: unknown, variable: string, attribute: string): number | bigint | undefined {
  if (value === null || value === undefined) return undefined;
  let scalar = value;
  if (Array.isArray(scalar)) {
    if (scalar.length !== 1)
      throw new CFError(
        `${variable}: ${attribute} must be a number or a list of one number, got ${scalar.length} items`,
        {
          variable,
          attribute,
        },
      );
    scalar = scalar[0];
  }
  if (typeof scalar === "boolean") return scalar ? 1 : 0;
  if (typeof scalar === "number" || typeof scalar === "bigint") return scalar;
  throw new CFError(`${variable}: ${attribute} must be a number, got ${JSON.stringify(String(scalar))}`, {
    variable,
    attribute,
  });
}

/**
 * One operand of a float32 in-place operation as NumPy 1.24 uses it: an integer (a lower kind than
 * float) is cast to float32; a float is too when it fits float32's range, and otherwise the
 * operation runs in float64 and its result is rounded back (value-based casting).
 */
function float32Operand(value: number | bigint): { value: number; wide: boolean } {
  if (typeof value === "bigint") return { value: Math.fround(Number(value)), wide: false };
  if (Number.isFinite(value) && Math.abs(value) > FLOAT32_MAX) return { value, wide: true };
  return { value: Math.fround(value), wide: false };
}

/** `_scale_offset_decoding`: the values times `scale`, plus `offset`, in `dtype`. */
export function applyScaleOffset(
  held: Held,
  scale: number | bigint | undefined,
  offset: number | bigint | undefined,
  dtype: "float32" | "float64",
): Held {
  const length = held.shape.reduce((a, b) => a * b, 1);
  const kind = kindOf(held.dtype);
  if (!(kind === "i" || kind === "u" || kind === "f" || kind === "b"))
    throw new CFError(`${held.dtype} values cannot be scaled`, {});
  if (dtype === "float64") {
    const out = new Float64Array(length);
    const s = scale === undefined ? undefined : Number(scale);
    const o = offset === undefined ? undefined : Number(offset);
    for (let i = 0; i < length; i++) {
      let x = numberAt(held, i);
      if (s !== undefined) x *= s;
      if (o !== undefined) x += o;
      out[i] = x;
    }
    return { dtype, shape: held.shape, data: out };
  }
  const out = new Float32Array(length);
  const s = scale === undefined ? undefined : float32Operand(scale);
  const o = offset === undefined ? undefined : float32Operand(offset);
  for (let i = 0; i < length; i++) {
    // float32 products and sums are exact in float64 before rounding, or close enough that one
    // rounding to float32 gives the correctly rounded float32 result (53 >= 2 * 24 + 2).
    let x = Math.fround(numberAt(held, i));
    if (s !== undefined) x = Math.fround(x * s.value);
    if (o !== undefined) x = Math.fround(x + o.value);
    out[i] = x;
  }
  return { dtype, shape: held.shape, data: out };
}

// Encoding: packing with `scale_factor` and `add_offset` (xarray's CFScaleOffsetCoder).

/** A `scale_factor`/`add_offset` given in encoding, as a number. */
function packingNumber(state: Encoding, key: string): number | undefined {
  const value = state.encoding[key];
  if (value === undefined || value === null) return undefined;
  const scalar = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (typeof scalar !== "number" && typeof scalar !== "bigint")
    throw new CFError(`${state.name}: encoding ${key} must be a number`, { variable: state.name, attribute: key });
  return Number(scalar);
}

/** CFScaleOffsetCoder.encode: `(values - add_offset) / scale_factor` in xarray's float dtype. */
export function encodeScaleOffset(state: Encoding): void {
  if (!("scale_factor" in state.encoding) && !("add_offset" in state.encoding)) return;
  const held = state.held;
  const kind = kindOf(held.dtype);
  if (!(kind === "f" || kind === "i" || kind === "u"))
    throw new CFError(`${state.name}: ${held.dtype} values cannot be packed`, {
      variable: state.name,
      attribute: "scale_factor",
    });
  const dtype = unpackedDtype(held.dtype, "add_offset" in state.encoding);
  const offset = packingNumber(state, "add_offset");
  const scale = packingNumber(state, "scale_factor");
  popToAttrs(state, "add_offset");
  popToAttrs(state, "scale_factor");
  const length = held.shape.reduce((a, b) => a * b, 1);
  const out = numericArray(dtype, length) as Float32Array | Float64Array;
  // float32 in-place arithmetic with a Python float: in float32 unless it is beyond float32's range.
  const f32 = (v: number): number => (Number.isFinite(v) && Math.abs(v) > FLOAT32_MAX ? v : Math.fround(v));
  for (let i = 0; i < length; i++) {
    let x = numberAt(held, i);
    if (dtype === "float32") {
      x = Math.fround(x);
      if (offset !== undefined) x = Math.fround(x - f32(offset));
      if (scale !== undefined) x = Math.fround(x / f32(scale));
    } else {
      if (offset !== undefined) x -= offset;
      if (scale !== undefined) x /= scale;
    }
    out[i] = x;
  }
  state.held = { dtype, shape: held.shape, data: out };
}
