// xarray's encode_cf_variable and encode_zarr_variable (xarray/conventions.py,
// xarray/backends/zarr.py): decoded values back to what is stored, with the CF attributes that
// say how: times as counts with units and calendar, timedeltas, packing, fill values, booleans,
// strings.
import { float16Bits, float16FromBits, roundToFloat16 } from "@z/meta";
import { CFError } from "../errors.js";
import { itemsizeOf, kindOf, numericArray } from "../dtype.js";
import { ByteString, latin1Bytes, numberAt, type Held } from "../values.js";
import { type Calendar, isStandardCalendar, requireCalendar } from "./calendar.js";
import { CFDatetime, cftimeUnits } from "./cftime.js";
import { isNull } from "./mask.js";
import { unpackedDtype } from "./scale.js";
import { NAT, civilFromDays, pandasTimestamp, rint } from "./times.js";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const FLOAT32_MAX = 3.4028234663852886e38;

/** A variable on its way to the store: values, attributes and what encoding is left to apply. */
export interface Encoding {
  held: Held;
  /** `>` when the encoding's `dtype` asks for big-endian storage. */
  byteOrder?: ">" | undefined;
  attrs: Record<string, unknown>;
  encoding: Record<string, unknown>;
  readonly name: string;
}

/** `safe_setitem`: sets an attribute that must not be there already. */
function safeSet(state: Encoding, key: string, value: unknown): void {
  if (key in state.attrs)
    throw new CFError(
      `${state.name}: cannot write attribute ${key}: it is in attrs already, and encoding describes how the values are stored (remove it from attrs)`,
      { variable: state.name, attribute: key },
    );
  state.attrs[key] = value;
}

/** `pop_to(encoding, attrs, key)`. */
function popToAttrs(state: Encoding, key: string): unknown {
  const value = state.encoding[key];
  delete state.encoding[key];
  if (value !== null && value !== undefined) safeSet(state, key, value);
  return value;
}

const NS_PER: Readonly<Record<string, bigint>> = {
  days: 86_400_000_000_000n,
  hours: 3_600_000_000_000n,
  minutes: 60_000_000_000n,
  seconds: 1_000_000_000n,
  milliseconds: 1_000_000n,
  microseconds: 1_000n,
  nanoseconds: 1n,
};
/** `_NETCDF_TIME_UNITS_NUMPY`, coarsest first; cftime's stop at microseconds. */
const UNITS_NUMPY = ["days", "hours", "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"];
const UNITS_CFTIME = UNITS_NUMPY.slice(0, -1);

/** `_infer_time_units_from_diff`: the coarsest unit dividing every difference ("seconds" if none). */
function unitDividing(differences: readonly bigint[], units: readonly string[]): string {
  for (const unit of units) if (differences.every((d) => d % NS_PER[unit]! === 0n)) return unit;
  return "seconds";
}

/** `str(pd.Timestamp(ns))`: `2000-01-01 00:00:00`, with `.ffffff` or `.fffffffff` when needed. */
function timestampText(ns: bigint): string {
  const seconds = ns >= 0n ? ns / 1_000_000_000n : -((-ns + 999_999_999n) / 1_000_000_000n);
  const fraction = ns - seconds * 1_000_000_000n;
  const days = Math.floor(Number(seconds) / 86400);
  const inDay = Number(seconds) - days * 86400;
  const [y, m, d] = civilFromDays(days);
  const p = (v: number, n = 2): string => String(v).padStart(n, "0");
  const time = `${p(Math.floor(inDay / 3600))}:${p(Math.floor(inDay / 60) % 60)}:${p(inDay % 60)}`;
  const frac =
    fraction === 0n
      ? ""
      : fraction % 1000n === 0n
        ? `.${p(Number(fraction / 1000n), 6)}`
        : `.${p(Number(fraction), 9)}`;
  return `${p(y, 4)}-${p(m)}-${p(d)} ${time}${frac}`;
}

/** `format_cftime_datetime`: `YYYY-MM-DD HH:MM:SS.ffffff`. */
function cftimeText(date: CFDatetime): string {
  const p = (v: number, n = 2): string => String(v).padStart(n, "0");
  return `${p(date.year, 4)}-${p(date.month)}-${p(date.day)} ${p(date.hour)}:${p(date.minute)}:${p(date.second)}.${p(date.microsecond, 6)}`;
}

/** `_cleanup_netcdf_time_units`: the reference date as `format_timestamp` writes it, where pandas reads it. */
function cleanUnits(units: string): string {
  const match = /^(.+) since (.+)/.exec(units);
  if (match === null) return units;
  const ns = pandasTimestamp(match[2]!.trim());
  if (ns === undefined) return units;
  const [date, time] = timestampText(ns).split(" ") as [string, string];
  return `${match[1]!.trim()} since ${time === "00:00:00" ? date : `${date}T${time}`}`;
}

/** Python's `int / int`: the quotient of two integers correctly rounded to a float64. */
export function ratio(a: bigint, b: bigint): number {
  if (b < 0n) return ratio(-a, -b);
  const negative = a < 0n;
  const n = negative ? -a : a;
  const whole = n / b;
  // Enough bits of the quotient (and a sticky bit) that one rounding to 53 bits is correct.
  const shift = Math.max(0, 64 - whole.toString(2).length);
  const scaled = (n << BigInt(shift)) / b;
  const sticky = (n << BigInt(shift)) % b !== 0n ? 1n : 0n;
  const value = Number((scaled << 1n) | sticky) / 2 ** (shift + 1);
  return negative ? -value : value;
}

/**
 * CFDatetimeCoder.encode: datetime64[ns] values or `CFDatetime`s as counts of a unit since a date
 * (the encoding's `units` and `calendar`, or inferred as xarray infers them), integers when every
 * time is a whole number of units.
 */
export function encodeDatetimes(state: Encoding): void {
  const { held } = state;
  const isNumpy = held.dtype === "datetime64[ns]";
  const dates = held.data as BigInt64Array | (CFDatetime | null)[];
  let units = state.encoding.units as string | undefined;
  let calendar = state.encoding.calendar as string | undefined;
  delete state.encoding.units;
  delete state.encoding.calendar;
  if (units === undefined || units === null) units = inferDatetimeUnits(dates, isNumpy);
  else units = cleanUnits(units);
  if (calendar === undefined || calendar === null) {
    const first = isNumpy ? undefined : (dates as (CFDatetime | null)[]).find((d) => d !== null);
    calendar = isNumpy ? "proleptic_gregorian" : (first?.calendar ?? "proleptic_gregorian");
  }
  let counts: (number | bigint)[] | undefined;
  if (isNumpy && isStandardCalendar(calendar)) counts = pandasCounts(dates as BigInt64Array, units);
  counts ??= cftimeCounts(state.name, dates, units, requireCalendar(calendar, state.name), isNumpy);
  state.held = castToIntIfSafe(counts, held.shape);
  safeSet(state, "units", units);
  safeSet(state, "calendar", calendar);
}

function inferDatetimeUnits(dates: BigInt64Array | (CFDatetime | null)[], isNumpy: boolean): string {
  if (isNumpy) {
    const present = [...(dates as BigInt64Array)].filter((d) => d !== NAT);
    const reference = present[0] ?? 0n;
    const unit = unitDividing(uniqueDifferences(present), UNITS_NUMPY);
    return `${unit} since ${timestampText(reference)}`;
  }
  const present = (dates as (CFDatetime | null)[]).filter((d): d is CFDatetime => d !== null);
  if (present.length === 0) return "days since 1970-01-01";
  const micros = present.map((d) => d.ordinal * 1000n);
  return `${unitDividing(uniqueDifferences(micros), UNITS_CFTIME)} since ${cftimeText(present[0]!)}`;
}

const uniqueDifferences = (values: readonly bigint[]): bigint[] => {
  const out = new Set<bigint>();
  for (let i = 1; i < values.length; i++) out.add(values[i]! - values[i - 1]!);
  return [...out];
};

/** The pandas path of `encode_cf_datetime`: undefined where xarray goes to cftime. */
function pandasCounts(dates: BigInt64Array, units: string): (number | bigint)[] | undefined {
  const match = /^(.+) since (.+)/.exec(units);
  if (match === null) return undefined;
  let unit = match[1]!.trim().toLowerCase();
  if (!unit.endsWith("s")) unit += "s";
  const perUnit = NS_PER[unit];
  const ref = pandasTimestamp(match[2]!.trim());
  if (perUnit === undefined || ref === undefined) return undefined;
  const deltas: (bigint | null)[] = [];
  for (const d of dates) {
    if (d === NAT) {
      deltas.push(null);
      continue;
    }
    const delta = d - ref;
    // pandas subtracts with an overflow check (OverflowError: xarray goes to cftime).
    if (delta < INT64_MIN + 1n || delta > INT64_MAX) return undefined;
    deltas.push(delta);
  }
  if (deltas.every((d) => d !== null && d % perUnit === 0n))
    return deltas.map((d) => {
      const q = d! / perUnit;
      return d! < 0n && q * perUnit !== d! ? q - 1n : q;
    });
  return deltas.map((d) => (d === null ? NaN : Number(d) / Number(perUnit)));
}

/** `_encode_datetime_with_cftime`: `cftime.date2num` per date (NaT/missing as NaN). */
function cftimeCounts(
  name: string,
  dates: BigInt64Array | (CFDatetime | null)[],
  units: string,
  calendar: Calendar,
  isNumpy: boolean,
): (number | bigint)[] {
  const parsed = cftimeUnits(units, calendar, name);
  const base = parsed.base.ordinal;
  const out: (number | bigint)[] = [];
  for (const value of dates) {
    let date: CFDatetime | null;
    if (isNumpy) {
      if (value === NAT) date = null;
      else {
        // datetime64[ns] through Python datetimes (microseconds, truncated), fields taken as the calendar's.
        const micros = (value as bigint) / 1000n - ((value as bigint) % 1000n < 0n ? 1n : 0n);
        const days = Number(micros >= 0n ? micros / 86_400_000_000n : -((-micros + 86_399_999_999n) / 86_400_000_000n));
        const rest = Number(micros - BigInt(days) * 86_400_000_000n);
        const [y, m, d] = civilFromDays(days);
        const s = Math.floor(rest / 1e6);
        date = new CFDatetime(y, m, d, Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60, rest % 1e6, calendar);
      }
    } else {
      date = value as CFDatetime | null;
      if (date !== null && date.calendar !== calendar) {
        date = new CFDatetime(
          date.year,
          date.month,
          date.day,
          date.hour,
          date.minute,
          date.second,
          date.microsecond,
          calendar,
        );
      }
    }
    if (date === null) {
      out.push(NaN);
      continue;
    }
    const delta = date.ordinal - base;
    out.push(delta % parsed.micros === 0n ? delta / parsed.micros : ratio(delta, parsed.micros));
  }
  return out;
}

/** `cast_to_int_if_safe`: int64 when every count is a whole number, float64 otherwise. */
function castToIntIfSafe(counts: readonly (number | bigint)[], shape: number[]): Held {
  const whole = counts.every((c) => typeof c === "bigint" || (Number.isFinite(c) && Number.isInteger(c)));
  if (whole) return { dtype: "int64", shape, data: BigInt64Array.from(counts, (c) => BigInt(c)) };
  return { dtype: "float64", shape, data: Float64Array.from(counts, (c) => Number(c)) };
}

/** CFTimedeltaCoder.encode: timedelta64[ns] as counts of `units` (inferred as xarray does). */
export function encodeTimedeltas(state: Encoding): void {
  const values = state.held.data as BigInt64Array;
  let units = state.encoding.units as string | undefined;
  delete state.encoding.units;
  if (units === undefined || units === null) {
    const present = new Set([...values].filter((v) => v !== NAT));
    units = unitDividing([...present], UNITS_NUMPY);
  }
  const perUnit = NS_PER[units];
  if (perUnit === undefined)
    throw new CFError(`${state.name}: timedelta units must be one of ${UNITS_NUMPY.join(", ")}, got ${units}`, {
      variable: state.name,
      attribute: "units",
    });
  const counts = [...values].map((v) => (v === NAT ? NaN : (1.0 * Number(v)) / Number(perUnit)));
  state.held = castToIntIfSafe(counts, state.held.shape);
  safeSet(state, "units", units);
}

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

/** `maybe_default_fill_value`: floats get a NaN `_FillValue` unless one is given (or `null`). */
export function defaultFillValue(state: Encoding): void {
  if ("_FillValue" in state.attrs || "_FillValue" in state.encoding) return;
  if (kindOf(state.held.dtype) === "f") state.attrs._FillValue = NaN;
}

/** `maybe_encode_bools`: booleans as int8 with the attribute `dtype: "bool"`. */
export function encodeBools(state: Encoding): void {
  if (state.held.dtype !== "bool" || "dtype" in state.encoding || "dtype" in state.attrs) return;
  state.attrs.dtype = "bool";
  state.held = { dtype: "int8", shape: state.held.shape, data: Int8Array.from(state.held.data as Uint8Array) };
}

/**
 * `ensure_dtype_not_object` and the zarr backend's string handling: object arrays of strings are
 * stored as vlen UTF-8 (missing ones as ""), of bytes as fixed-width `|S`; `<U` stays `<U`; strings
 * with `_Encoding` (or encoding dtype `S1`) are stored as their bytes in it.
 */
export function encodeStrings(state: Encoding): void {
  const held = state.held;
  const kind = kindOf(held.dtype);
  const asChars = state.encoding.dtype === "S1" || state.encoding.dtype === "|S1";
  const stringEncoding = state.encoding._Encoding ?? (asChars ? "utf-8" : undefined);
  if ((kind === "U" || kind === "O") && stringEncoding !== undefined) {
    delete state.encoding._Encoding;
    if (typeof stringEncoding !== "string" || !/^utf-?8$/i.test(stringEncoding))
      throw new CFError(`${state.name}: only _Encoding utf-8 is written`, {
        variable: state.name,
        attribute: "_Encoding",
      });
    safeSet(state, "_Encoding", "utf-8");
    const encoder = new TextEncoder();
    const strings = (held.data as unknown[]).map((v) => encoder.encode(v === null ? "" : String(v)));
    state.held = fixedBytes(strings, held.shape);
    return;
  }
  if (kind !== "O") return;
  const values = held.data as unknown[];
  const present = values.filter((v) => !(v === null || (typeof v === "number" && Number.isNaN(v))));
  if (present.length === 0 && values.length > 0) {
    state.held = { dtype: "float64", shape: held.shape, data: new Float64Array(values.length).fill(NaN) };
    return;
  }
  const first = present[0];
  if (typeof first === "string" || values.length === 0) {
    state.held = { dtype: "object", shape: held.shape, data: values.map((v) => (typeof v === "string" ? v : "")) };
  } else if (first instanceof ByteString) {
    const bytes = values.map((v) => (v instanceof ByteString ? latin1Bytes(v.text)! : new Uint8Array(0)));
    state.held = fixedBytes(bytes, held.shape);
  } else if (typeof first === "boolean" || typeof first === "number") {
    state.held = {
      dtype: "float64",
      shape: held.shape,
      data: Float64Array.from(values, (v) => (v === null ? NaN : Number(v))),
    };
  } else {
    throw new CFError(
      `${state.name}: cannot store object values like ${String(first)} (xarray stores strings, bytes and numbers)`,
      {
        variable: state.name,
      },
    );
  }
}

/** Bytes as `|S<n>` raw data, `n` the longest (at least 1). */
function fixedBytes(values: Uint8Array[], shape: number[]): Held {
  const width = Math.max(1, ...values.map((v) => v.length));
  const data = new Uint8Array(values.length * width);
  values.forEach((v, i) => data.set(v, i * width));
  return { dtype: `|S${width}`, shape, data };
}

/** UTF-32 strings as `<U<n>` raw data (`n` the longest in code points, at least 1). */
export function utf32Data(strings: readonly string[], width?: number): { data: Uint8Array; width: number } {
  const points = strings.map((s) => [...s].map((c) => c.codePointAt(0)!));
  const n = width ?? Math.max(1, ...points.map((p) => p.length));
  const data = new Uint8Array(strings.length * n * 4);
  const view = new DataView(data.buffer);
  points.forEach((p, i) => p.forEach((c, j) => view.setUint32((i * n + j) * 4, c, true)));
  return { data, width: n };
}
