// xarray's decode_cf_variable (xarray/conventions.py) as a plan: what a variable's attributes
// become, what its encoding keeps, and the steps that turn stored values into decoded ones.
import type { JsonValue } from "@z/meta";
import { CFError } from "../errors.js";
import { kindOf } from "../dtype.js";
import type { Held } from "../values.js";
import { applyMask, castFillToInt, encodedFillValues, promotedDtype, reinterpretSign, type PyValue } from "./mask.js";
import { applyScaleOffset, packingScalar, unpackedDtype } from "./scale.js";
import { decodeBytes, stackCharacters, toBooleans } from "./strings.js";
import { decodeDatetimes, decodeTimedeltas, isDatetimeUnits, isTimedeltaUnits } from "./times.js";

/**
 * Which of xarray's CF decoding steps to apply; each is on by default, as in `xr.open_zarr`.
 * `decodeCF: false` turns every one off, as xarray's `decode_cf=False` (booleans still decode).
 */
export interface DecodeOptions {
  /** Everything below at once (default true). */
  decodeCF?: boolean;
  /** xarray's `mask_and_scale`: masking, unpacking and `_Unsigned` (default true). */
  maskAndScale?: boolean;
  /** Only masking (`_FillValue`, `missing_value`, the Zarr fill value); default `maskAndScale`. */
  mask?: boolean;
  /** Only unpacking (`scale_factor`, `add_offset`) and `_Unsigned`; default `maskAndScale`. */
  scale?: boolean;
  /** "<unit> since <date>" counts to times (default true). */
  decodeTimes?: boolean;
  /** Counts of a time unit to timedelta64[ns] (default `decodeTimes`). */
  decodeTimedelta?: boolean;
  /**
   * xarray's `use_cftime`: undefined gives datetime64[ns] for the standard calendars when the
   * dates fit, `CFDatetime`s otherwise; true always `CFDatetime`s; false never (an error instead).
   */
  useCftime?: boolean;
  /** xarray's `concat_characters`: `|S1` character arrays to strings, and `_Encoding` (default true). */
  concatCharacters?: boolean;
  /**
   * Variables named by `coordinates` attributes become coordinates (default true); `"all"` also
   * those named by `bounds`, `grid_mapping` and the other CF attributes xarray's `"all"` reads.
   */
  decodeCoords?: boolean | "all";
  /** Variables with the attribute `dtype: "bool"` to booleans (default true; xarray always does). */
  decodeBooleans?: boolean;
}

/** The decoding options with their defaults filled in. */
export interface ResolvedDecodeOptions {
  readonly mask: boolean;
  readonly scale: boolean;
  readonly decodeTimes: boolean;
  readonly decodeTimedelta: boolean;
  readonly useCftime: boolean | undefined;
  readonly concatCharacters: boolean;
  readonly decodeCoords: boolean | "all";
  readonly decodeBooleans: boolean;
}

export function resolveDecodeOptions(options: DecodeOptions = {}): ResolvedDecodeOptions {
  const cf = options.decodeCF ?? true;
  const maskAndScale = options.maskAndScale ?? cf;
  const decodeTimes = options.decodeTimes ?? cf;
  return {
    mask: options.mask ?? maskAndScale,
    scale: options.scale ?? maskAndScale,
    decodeTimes,
    decodeTimedelta: options.decodeTimedelta ?? decodeTimes,
    useCftime: options.useCftime,
    concatCharacters: options.concatCharacters ?? cf,
    decodeCoords: options.decodeCoords ?? cf,
    decodeBooleans: options.decodeBooleans ?? true,
  };
}

/** One step of decoding. `datetime` marks the step whose result dtype depends on the values. */
export interface Step {
  readonly name: "characters" | "encoding" | "unsigned" | "mask" | "scale" | "timedelta" | "datetime" | "bool";
  apply(held: Held): Held;
}

/** What decoding makes of a variable before any value is read. */
export interface Plan {
  /** Dimensions after decoding (a stacked character dimension gone). */
  readonly dims: string[];
  /** The attributes xarray shows (CF attributes moved to `encoding`). */
  readonly attrs: Record<string, JsonValue>;
  /** What xarray keeps in `encoding`: the moved CF attributes, and `dtype`. */
  readonly encoding: Record<string, unknown>;
  /** The decoded dtype; for times, "datetime64[ns]" until a sample says otherwise. */
  dtype: string;
  readonly steps: Step[];
  /** Whether the last stored dimension is joined into strings. */
  readonly stacked: boolean;
}

/** What the store says about a variable, as xarray's zarr backend presents it to decode_cf. */
export interface StoredVariable {
  readonly name: string;
  readonly dims: readonly string[];
  readonly shape: readonly number[];
  /** The values' dtype name (see `valuesDtype`). */
  readonly dtype: string;
  /** NumPy's `str()` of the stored dtype (`>i2` for big-endian), for `encoding.dtype`. */
  readonly storedDtypeName: string;
  /** Attributes without `_ARRAY_DIMENSIONS` and `_NC*`, with `_FillValue` from the Zarr fill value. */
  readonly attrs: Record<string, unknown>;
  /** Backend encoding: chunks, compressor, filters. */
  readonly encoding: Record<string, unknown>;
}

/** `pop_to`: moves `key` from `source` to `dest` unless its value is null; returns the value. */
function popTo(source: Record<string, unknown>, dest: Record<string, unknown>, key: string): unknown {
  const value = source[key];
  delete source[key];
  if (value !== null && value !== undefined) dest[key] = value;
  return value;
}

/** Plans the decoding of one variable (`stackChars`: it is a character array on a stackable dimension). */
export function planVariable(stored: StoredVariable, options: ResolvedDecodeOptions, stackChars: boolean): Plan {
  const name = stored.name;
  const attrs: Record<string, unknown> = { ...stored.attrs };
  const encoding: Record<string, unknown> = { ...stored.encoding };
  const dims = [...stored.dims];
  const steps: Step[] = [];
  let dtype = stored.dtype;
  const kind = kindOf(dtype);
  // Datetime-like variables pass through unmodified (GH 6453).
  if (kind === "M" || kind === "m") {
    return { dims, attrs: attrs as Record<string, JsonValue>, encoding, dtype, steps, stacked: false };
  }
  let stacked = false;
  if (options.concatCharacters) {
    if (stackChars && dtype === "|S1" && dims.length > 0) {
      encoding.char_dim_name = dims.pop();
      stacked = true;
      steps.push({ name: "characters", apply: stackCharacters });
      dtype = `|S${Math.max(1, stored.shape[stored.shape.length - 1]!)}`;
    }
    if ("_Encoding" in attrs) {
      const stringEncoding = popTo(attrs, encoding, "_Encoding");
      if (typeof stringEncoding !== "string")
        throw new CFError(`${name}: _Encoding must be a string`, { variable: name, attribute: "_Encoding" });
      steps.push({ name: "encoding", apply: (held) => decodeBytes(held, stringEncoding, name) });
      dtype = "object";
    }
  }
  if (options.scale && "_Unsigned" in attrs) {
    const unsigned = popTo(attrs, encoding, "_Unsigned");
    const k = kindOf(dtype);
    if ((k === "i" && unsigned === "true") || (k === "u" && unsigned === "false")) {
      const target = `${k === "i" ? "u" : ""}int${dtype.replace(/^u?int/, "")}`;
      steps.push({ name: "unsigned", apply: (held) => reinterpretSign(held, unsigned)! });
      if ("_FillValue" in attrs) attrs._FillValue = castFillToInt(attrs._FillValue, target);
      dtype = target;
    }
  }
  if (options.mask) {
    const missing = popTo(attrs, encoding, "missing_value");
    const fill = popTo(attrs, encoding, "_FillValue");
    const fills: PyValue[] = encodedFillValues(missing, fill);
    if (fills.length > 0) {
      steps.push({ name: "mask", apply: (held) => applyMask(held, fills) });
      dtype = promotedDtype(dtype);
    }
  }
  if (options.scale && ("scale_factor" in attrs || "add_offset" in attrs)) {
    const scale = packingScalar(popTo(attrs, encoding, "scale_factor"), name, "scale_factor");
    const offset = packingScalar(popTo(attrs, encoding, "add_offset"), name, "add_offset");
    const target = unpackedDtype(dtype, "add_offset" in encoding);
    const k = kindOf(dtype);
    if (!(k === "i" || k === "u" || k === "f" || k === "b"))
      throw new CFError(`${name}: ${dtype} values cannot be unpacked with scale_factor/add_offset`, {
        variable: name,
        attribute: "scale_factor",
      });
    steps.push({ name: "scale", apply: (held) => applyScaleOffset(held, scale, offset, target) });
    dtype = target;
  }
  if (options.decodeTimedelta && isTimedeltaUnits(attrs.units)) {
    const units = popTo(attrs, encoding, "units") as string;
    steps.push({ name: "timedelta", apply: (held) => decodeTimedeltas(held, units, name) });
    dtype = "timedelta64[ns]";
  }
  if (options.decodeTimes && isDatetimeUnits(attrs.units)) {
    const units = popTo(attrs, encoding, "units") as string;
    const calendar = popTo(attrs, encoding, "calendar");
    if (calendar !== null && calendar !== undefined && typeof calendar !== "string")
      throw new CFError(`${name}: calendar must be a string`, { variable: name, attribute: "calendar" });
    const timeEncoding = { units, calendar: calendar ?? "standard", useCftime: options.useCftime, variable: name };
    steps.push({ name: "datetime", apply: (held) => decodeDatetimes(held, timeEncoding) });
    dtype = options.useCftime === true ? "object" : "datetime64[ns]";
  }
  // decode_endianness: big-endian values nothing else converted are read as native ones.
  const converted = steps.some((s) => s.name !== "characters" && s.name !== "encoding");
  if (!("dtype" in encoding)) encoding.dtype = converted ? stored.storedDtypeName : nativeName(stored.storedDtypeName);
  if (options.decodeBooleans && attrs.dtype === "bool") {
    delete attrs.dtype;
    steps.push({ name: "bool", apply: toBooleans });
    dtype = "bool";
  }
  return { dims, attrs: attrs as Record<string, JsonValue>, encoding, dtype, steps, stacked };
}

/** `>i2` as NumPy names the native dtype of the same kind and size (`int16`). */
function nativeName(name: string): string {
  const match = /^>([iufc])(\d+)$/.exec(name);
  if (match === null) return name;
  const bits = Number(match[2]) * 8;
  return `${{ i: "int", u: "uint", f: "float", c: "complex" }[match[1] as "i" | "u" | "f" | "c"]}${bits}`;
}

/** Runs a plan's steps over values read from the store. */
export function runSteps(plan: Plan, held: Held): Held {
  let current = held;
  for (const step of plan.steps) current = step.apply(current);
  return current;
}
