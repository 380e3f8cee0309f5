// The `dtype` of a variable's encoding: numbers cast to the type it names (xarray's
// encode_zarr_variable and `astype`), as the last encode step.
import { float16Bits } from "@z/meta";
import { CFError } from "../errors.js";
import { itemsizeOf, kindOf, numericArray } from "../dtype.js";
import { numberAt, type Held } from "../values.js";
import type { Encoding } from "./encoding.js";
import { rint } from "./times.js";

/** The target dtype name of an encoding `dtype` (`int16`, `<i2`, `i2`, `float32`, `|S1`, `str`, ...). */
export function dtypeNamed(value: unknown, name: string): string {
  const text = String(value);
  const simple: Record<string, string> = {
    b: "int",
    i: "int",
    u: "uint",
    f: "float",
    c: "complex",
  };
  const match = /^[<>|=]?([iufcb])(\d+)$/.exec(text);
  if (match !== null) return match[1] === "b" ? "bool" : `${simple[match[1]!]}${Number(match[2]) * 8}`;
  if (/^(u?int(8|16|32|64)|float(16|32|64)|complex(64|128)|bool)$/.test(text)) return text;
  const bytes = /^[|<>]?S(\d+)$/.exec(text);
  if (bytes !== null) return `|S${bytes[1]}`;
  const unicode = /^[<>|]?U(\d+)$/.exec(text);
  if (unicode !== null) return `<U${unicode[1]}`;
  if (text === "str" || text === "object" || text === "|O" || text === "O") return "object";
  if (text === "bool" || text === "|b1") return "bool";
  throw new CFError(`${name}: unknown encoding dtype ${JSON.stringify(text)}`, { variable: name, attribute: "dtype" });
}

/**
 * `maybe_encode_nonstring_dtype`: values cast to the encoding's `dtype`, floats to integers
 * rounded half to even, integers wrapped to a narrower type as NumPy wraps them. A NaN, or a float
 * beyond the target's range, is an error here (NumPy's cast of it is undefined).
 */
export function encodeDtype(state: Encoding): void {
  const value = state.encoding.dtype;
  delete state.encoding.dtype;
  if (value === undefined || value === null) return;
  const target = dtypeNamed(value, state.name);
  if (String(value).startsWith(">")) state.byteOrder = ">";
  if (target === "|S1" || target === "object" || target === state.held.dtype) return;
  // Booleans read from int8 remember int8 as their dtype; cast to it they would lose the
  // dtype: "bool" attribute, as xarray 2023.01 loses it (fixed in later versions): they stay
  // booleans, which maybe_encode_bools stores as int8.
  if (state.held.dtype === "bool" && (target === "int8" || target === "uint8")) return;
  const kind = kindOf(target);
  if (kind === "S" || kind === "U") return;
  state.held = castNumbers(state.held, target, state.name, false);
}

/** Numbers (or booleans) as another numeric dtype, as NumPy's `astype` (after `np.around` for integers). */
export function castNumbers(held: Held, target: string, name: string, wrap: boolean): Held {
  const length = held.shape.reduce((a, b) => a * b, 1);
  const kind = kindOf(target);
  const source = kindOf(held.dtype);
  if (!["b", "i", "u", "f"].includes(source))
    throw new CFError(`${name}: ${held.dtype} values cannot be stored as ${target}`, {
      variable: name,
      attribute: "dtype",
    });
  const out = numericArray(target, length);
  if (kind === "f") {
    for (let i = 0; i < length; i++) {
      const x = numberAt(held, i);
      (out as Float64Array)[i] = target === "float16" ? float16Bits(x) : x;
    }
    return { dtype: target, shape: held.shape, data: out };
  }
  const bits = itemsizeOf(target) * 8;
  const big = out instanceof BigInt64Array || out instanceof BigUint64Array;
  for (let i = 0; i < length; i++) {
    const raw = (held.data as ArrayLike<number | bigint>)[i]!;
    let value: bigint;
    if (typeof raw === "bigint") value = raw;
    else {
      const x = source === "f" ? rint(numberAt(held, i)) : raw;
      if (!Number.isFinite(x))
        throw new CFError(
          `${name}: ${x} cannot be stored as ${target} (give a _FillValue in encoding for missing values)`,
          { variable: name, attribute: "_FillValue" },
        );
      value = BigInt(x);
    }
    const fitted = kind === "u" ? BigInt.asUintN(bits, value) : BigInt.asIntN(bits, value);
    // Integers wrap, as NumPy's astype wraps them (xarray's _Unsigned relies on it); a float beyond
    // the range is undefined in C, and an error here.
    if (fitted !== value && !wrap && source === "f")
      throw new CFError(`${name}: ${value} is beyond the range of ${target}`, { variable: name, attribute: "dtype" });
    if (big) (out as BigInt64Array)[i] = fitted;
    else (out as Int32Array)[i] = Number(fitted);
  }
  return { dtype: target, shape: held.shape, data: out };
}
