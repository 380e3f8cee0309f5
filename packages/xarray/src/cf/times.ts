// xarray's CFDatetimeCoder and CFTimedeltaCoder decoding (xarray/coding/times.py) with pandas 1.5
// and cftime 1.6: counts of a unit since a date to datetime64[ns] where pandas can, through cftime
// otherwise, and counts of a unit to timedelta64[ns].
import { civilFromDays, daysFromCivil } from "@z/meta";
import { CFError } from "../errors.js";
import { kindOf } from "../dtype.js";
import { numberAt, type Held } from "../values.js";
import { type Calendar, isStandardCalendar, requireCalendar } from "./calendar.js";
import { CFDatetime, cftimeMicros, cftimeUnits } from "./cftime.js";
import { type Encoding, safeSet } from "./encoding.js";

/** NumPy's NaT: the smallest int64. */
export const NAT = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** pandas' Timestamp range is int64 nanoseconds without NaT. */
const TIMESTAMP_MIN = NAT + 1n;

/** The time units xarray decodes as timedeltas (units without "since"). */
export const TIME_UNITS = new Set([
  "days",
  "hours",
  "minutes",
  "seconds",
  "milliseconds",
  "microseconds",
  "nanoseconds",
]);

/** pandas' `precision_from_unit`: the decimal digits of a unit's length in nanoseconds, less one. */
const UNIT_DIGITS: Readonly<Record<string, number>> = {
  nanoseconds: 0,
  microseconds: 3,
  milliseconds: 6,
  seconds: 9,
  minutes: 9,
  hours: 9,
  days: 9,
};

const NS_PER_UNIT: Readonly<Record<string, bigint>> = {
  nanoseconds: 1n,
  microseconds: 1_000n,
  milliseconds: 1_000_000n,
  seconds: 1_000_000_000n,
  minutes: 60_000_000_000n,
  hours: 3_600_000_000_000n,
  days: 86_400_000_000_000n,
};

/** `_netcdf_to_numpy_timeunit`: a unit name (singular or plural, any case) as its plural, or undefined. */
function numpyUnit(unit: string): string | undefined {
  let lower = unit.toLowerCase();
  if (!lower.endsWith("s")) lower += "s";
  return NS_PER_UNIT[lower] === undefined ? undefined : lower;
}

/** What xarray's `decode_cf_datetime` needs beyond the counts. */
export interface TimeEncoding {
  readonly units: string;
  /** The `calendar` attribute as given (`standard` when there is none). */
  readonly calendar: string;
  /** xarray's `use_cftime`: undefined tries datetime64[ns] first, true always gives CFDatetime, false never. */
  readonly useCftime?: boolean | undefined;
  readonly variable?: string | undefined;
}

/** Whether units are xarray's datetime units: a string containing "since". */
export const isDatetimeUnits = (units: unknown): units is string =>
  typeof units === "string" && units.includes("since");

/** Whether units are xarray's timedelta units: exactly one of {@link TIME_UNITS}. */
export const isTimedeltaUnits = (units: unknown): units is string => typeof units === "string" && TIME_UNITS.has(units);

/**
 * `decode_cf_datetime`: datetime64[ns] (a `BigInt64Array`) for the standard calendars when every
 * date fits, `CFDatetime`s otherwise.
 */
export function decodeDatetimes(held: Held, encoding: TimeEncoding): Held {
  const { units, useCftime, variable } = encoding;
  const calendar = encoding.calendar;
  if (useCftime !== true) {
    const viaPandas = pandasDatetimes(held, units, calendar, variable);
    if (viaPandas !== undefined) return viaPandas;
    if (useCftime === false)
      throw new CFError(
        `${variable ?? "times"}: ${JSON.stringify(units)} (${calendar}) does not decode to datetime64[ns]`,
        {
          variable,
          attribute: "units",
        },
      );
    return cftimeDatetimes(held, units, calendar, variable, true, false);
  }
  return cftimeDatetimes(held, units, calendar, variable, false, true);
}

/** The counts as JS numbers or (for integers) exact bigints, NaN for missing. */
function counts(held: Held, variable: string | undefined): (number | bigint)[] {
  const length = held.shape.reduce((a, b) => a * b, 1);
  const kind = kindOf(held.dtype);
  const out = new Array<number | bigint>(length);
  if (kind === "i" || kind === "u") {
    const data = held.data as ArrayLike<number | bigint>;
    for (let i = 0; i < length; i++) out[i] = BigInt(data[i]!);
  } else if (kind === "f" || kind === "b") {
    for (let i = 0; i < length; i++) out[i] = numberAt(held, i);
  } else {
    throw new CFError(`${variable ?? "times"}: times must be numbers, not ${held.dtype}`, {
      variable,
      attribute: "units",
    });
  }
  return out;
}

/** `_unpack_netcdf_time_units`: the unit and the reference date of "<unit> since <date>". */
function unpackUnits(units: string, variable: string | undefined): [string, string] {
  const match = /^(.+) since (.+)/.exec(units);
  if (match === null)
    throw new CFError(`${variable ?? "times"}: invalid time units ${JSON.stringify(units)}`, {
      variable,
      attribute: "units",
    });
  return [match[1]!.trim(), ensurePaddedYear(match[2]!.trim(), variable)];
}

/** `_ensure_padded_year`: a reference date without four digits gets its first number padded to four. */
function ensurePaddedYear(date: string, variable: string | undefined): string {
  if (/\d{4}/.test(date)) return date;
  const match = /^(\d+)([\s\S]*)$/.exec(date);
  if (match === null)
    throw new CFError(`${variable ?? "times"}: invalid reference date for time units: ${date}`, {
      variable,
      attribute: "units",
    });
  return `${String(Number(match[1])).padStart(4, "0")}${match[2]}`;
}

// What pd.Timestamp parses here: ISO dates (month and day of one or two digits), an optional time
// after "T" or a space, and an optional zone (Z, UTC, GMT, +HH, +HHMM, +HH:MM).
const TIMESTAMP =
  /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2})(?:[T ](\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:\.(\d+))?)?)?)?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The reference date as pandas' Timestamp (int64 nanoseconds since 1970, UTC), or undefined where
 * pandas refuses it (a form it does not parse, or a date outside 1677-09-21 to 2262-04-11).
 */
export function pandasTimestamp(text: string): bigint | undefined {
  const match = TIMESTAMP.exec(text.trim());
  if (match === null) return undefined;
  const [, y, mo = "1", d = "1", h = "0", mi = "0", s = "0", frac = "", zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const days = daysFromCivil(year, month, day);
  if (month < 1 || month > 12 || day < 1 || civilFromDays(days)[2] !== day) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const nanos = BigInt(frac.padEnd(9, "0").slice(0, 9));
  const seconds = BigInt(days) * 86400n + BigInt(Number(h) * 3600 + Number(mi) * 60 + Number(s));
  const value = seconds * 1_000_000_000n + nanos - BigInt(zoneMinutes(zone)) * 60_000_000_000n;
  return value < TIMESTAMP_MIN || value > INT64_MAX ? undefined : value;
}

function zoneMinutes(zone: string | undefined): number {
  if (zone === undefined || /^(z|utc|gmt)$/i.test(zone)) return 0;
  const digits = zone.slice(1).replace(":", "");
  const minutes = Number(digits.slice(0, 2)) * 60 + (digits.length > 2 ? Number(digits.slice(2)) : 0);
  return zone.startsWith("-") ? -minutes : minutes;
}

// Gregorian day counts are @z/meta's (the CLI prints datetimes with them too).
export { civilFromDays, daysFromCivil };

/** NumPy's float64 to int64 cast on x86-64: truncation, and the smallest int64 for NaN or out of range. */
function truncToInt64(value: number): bigint {
  if (Number.isNaN(value) || value >= 2 ** 63 || value < -(2 ** 63)) return NAT;
  return BigInt(Math.trunc(value));
}

/**
 * `_decode_datetime_with_pandas`: undefined where xarray falls back to cftime (a non-standard
 * calendar, a unit or date pandas does not take, dates outside datetime64[ns]).
 */
function pandasDatetimes(held: Held, units: string, calendar: string, variable: string | undefined): Held | undefined {
  if (!isStandardCalendar(calendar)) return undefined;
  const [delta, refText] = unpackUnits(units, variable);
  const unit = numpyUnit(delta);
  if (unit === undefined) return undefined;
  const ref = pandasTimestamp(refText);
  if (ref === undefined) return undefined;
  const perUnit = NS_PER_UNIT[unit]!;
  const values = counts(held, variable);
  const inRange = (ns: bigint): boolean => ns >= TIMESTAMP_MIN && ns <= INT64_MAX;
  // The bounds check on the smallest and largest count (skipped when a NaN makes both NaN).
  if (values.length > 0 && !values.some((v) => typeof v === "number" && Number.isNaN(v))) {
    for (const v of [minOf(values), maxOf(values)]) {
      const ns = typeof v === "bigint" ? v * perUnit : v * Number(perUnit);
      if (typeof ns === "number" ? Math.abs(ns) >= 2 ** 63 : !inRange(ns)) return undefined;
      if (!inRange(ref + (typeof ns === "number" ? BigInt(Math.trunc(ns)) : ns))) return undefined;
    }
  }
  const out = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const ns = typeof v === "bigint" ? BigInt.asIntN(64, v * perUnit) : truncToInt64(v * Number(perUnit));
    if (ns === NAT) {
      out[i] = NAT;
      continue;
    }
    const sum = ns + ref;
    // pandas adds with an overflow check, and an overflow sends xarray to cftime.
    if (!inRange(sum)) return undefined;
    out[i] = sum;
  }
  return { dtype: "datetime64[ns]", shape: held.shape, data: out };
}

const minOf = (values: (number | bigint)[]): number | bigint => values.reduce((a, b) => (b < a ? b : a));
const maxOf = (values: (number | bigint)[]): number | bigint => values.reduce((a, b) => (b > a ? b : a));

/**
 * `_decode_datetime_with_cftime` (counts as float64, as xarray passes them, unless `exact`), then
 * for the standard calendars datetime64[ns] when the years of the earliest and latest count are
 * within 1678 to 2261 (`fallback`), as xarray does after pandas failed.
 */
function cftimeDatetimes(
  held: Held,
  units: string,
  calendarName: string,
  variable: string | undefined,
  fallback: boolean,
  exact: boolean,
): Held {
  const calendar: Calendar = requireCalendar(calendarName, variable);
  const parsed = cftimeUnits(units, calendar, variable);
  const values = counts(held, variable).map((v) => (exact ? v : Number(v)));
  const dates = values.map((v) => {
    const micros = cftimeMicros(v, parsed, variable);
    return micros === null ? null : parsed.base.addMicroseconds(micros);
  });
  if (fallback && isStandardCalendar(calendarName) && dates.length > 0) {
    let low: CFDatetime | undefined;
    let high: CFDatetime | undefined;
    let lowValue = Infinity;
    let highValue = -Infinity;
    values.forEach((v, i) => {
      const x = Number(v);
      if (Number.isNaN(x)) return;
      if (x < lowValue) (lowValue = x), (low = dates[i]!);
      if (x > highValue) (highValue = x), (high = dates[i]!);
    });
    if (low !== undefined && high !== undefined && low.year >= 1678 && high.year < 2262) {
      const out = new BigInt64Array(dates.length);
      dates.forEach((date, i) => {
        out[i] = date === null ? NAT : timestampOfFields(date);
      });
      return { dtype: "datetime64[ns]", shape: held.shape, data: out };
    }
  }
  return { dtype: "object", shape: held.shape, data: dates };
}

/** `pd.Timestamp(year, month, day, hour, minute, second, microsecond)` in nanoseconds. */
function timestampOfFields(date: CFDatetime): bigint {
  const days = daysFromCivil(date.year, date.month, date.day);
  const seconds = BigInt(days) * 86400n + BigInt(date.hour * 3600 + date.minute * 60 + date.second);
  return seconds * 1_000_000_000n + BigInt(date.microsecond) * 1000n;
}

/**
 * `decode_cf_timedelta` (`pd.to_timedelta(values, unit)`): integers exactly (an overflow is an
 * error), floats as pandas splits them into whole units and a fraction rounded to the unit's
 * digits, NaN as NaT.
 */
export function decodeTimedeltas(held: Held, units: string, variable?: string): Held {
  const perUnit = NS_PER_UNIT[units]!;
  const digits = UNIT_DIGITS[units]!;
  const scale = 10 ** digits;
  const values = counts(held, variable);
  const out = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (typeof v === "bigint") {
      const ns = v * perUnit;
      if (ns <= NAT || ns > INT64_MAX)
        throw new CFError(`${variable ?? "timedeltas"}: ${v} ${units} is outside timedelta64[ns]`, {
          variable,
          attribute: "units",
        });
      out[i] = ns;
      continue;
    }
    if (Number.isNaN(v)) {
      out[i] = NAT;
      continue;
    }
    const base = truncToInt64(v);
    let frac = v - Number(base);
    if (digits > 0) frac = rint(frac * scale) / scale;
    out[i] = BigInt.asIntN(64, base * perUnit + truncToInt64(frac * Number(perUnit)));
  }
  return { dtype: "timedelta64[ns]", shape: held.shape, data: out };
}

/** Round half to even, as NumPy's `rint`. */
export function rint(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// Encoding: datetimes and timedeltas as counts with `units` (and `calendar`), as xarray's CFDatetimeCoder and CFTimedeltaCoder encode them.

const INT64_MIN = -(2n ** 63n);

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
export function timestampText(ns: bigint): string {
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
