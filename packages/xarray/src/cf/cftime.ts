// Dates in the CF calendars, as cftime 1.6's `datetime` holds them, and its `num2date`: counts of
// a unit since a reference date, to microseconds, with the same rounding.
import { CFError } from "../errors.js";
import { type Calendar, dateOfDay, dayNumber, hasYearZero, invalidDate } from "./calendar.js";
import { longDoubleProduct } from "./long-double.js";

const MICROS_PER_DAY = 86_400_000_000n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A date and time in one of the CF calendars, to the microsecond, as cftime's `datetime` (what
 * xarray gives for times it cannot hold as datetime64[ns]: every non-standard calendar, and
 * standard-calendar dates outside the years 1678 to 2261). `toString()` prints it as cftime does
 * (`2001-02-28 06:00:00`, microseconds only when not zero). Years follow the calendar's numbering:
 * the `standard` and `julian` calendars have no year zero (-1 precedes 1), the others do.
 */
export class CFDatetime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly microsecond: number;
  readonly calendar: Calendar;

  constructor(
    year: number,
    month: number,
    day: number,
    hour = 0,
    minute = 0,
    second = 0,
    microsecond = 0,
    calendar: Calendar = "standard",
  ) {
    const reason = invalidDate(calendar, year, month, day, hour, minute, second, microsecond);
    if (reason !== undefined)
      throw new CFError(
        `${isoText(year, month, day, hour, minute, second, microsecond, "T")} (${calendar}): ${reason}`,
        {
          attribute: "calendar",
        },
      );
    this.year = year;
    this.month = month;
    this.day = day;
    this.hour = hour;
    this.minute = minute;
    this.second = second;
    this.microsecond = microsecond;
    this.calendar = calendar;
  }

  /** The date `micros` microseconds after the calendar's day 0 (see {@link CFDatetime.ordinal}). */
  static fromOrdinal(micros: bigint, calendar: Calendar): CFDatetime {
    let days = micros / MICROS_PER_DAY;
    let rest = micros % MICROS_PER_DAY;
    if (rest < 0n) {
      rest += MICROS_PER_DAY;
      days -= 1n;
    }
    const [year, month, day] = dateOfDay(Number(days), calendar);
    const time = Number(rest);
    const seconds = Math.floor(time / 1e6);
    return new CFDatetime(
      year,
      month,
      day,
      Math.floor(seconds / 3600),
      Math.floor(seconds / 60) % 60,
      seconds % 60,
      time % 1e6,
      calendar,
    );
  }

  /**
   * Microseconds since the calendar's own day 0: dates of one calendar compare and subtract by it.
   * (For the standard, Julian and proleptic Gregorian calendars day 0 is the Julian day 0.)
   */
  get ordinal(): bigint {
    const days = BigInt(dayNumber(this.year, this.month, this.day, this.calendar));
    const time = ((this.hour * 60 + this.minute) * 60 + this.second) * 1e6 + this.microsecond;
    return days * MICROS_PER_DAY + BigInt(time);
  }

  /** Whether the calendar numbers a year zero (see the class). */
  get hasYearZero(): boolean {
    return hasYearZero(this.calendar);
  }

  /** `2001-02-28T06:00:00` (with `.ffffff` when there are microseconds), as cftime's `isoformat`. */
  isoformat(separator = "T"): string {
    return isoText(this.year, this.month, this.day, this.hour, this.minute, this.second, this.microsecond, separator);
  }

  /** cftime's `str()`: the ISO form with a space. */
  toString(): string {
    return this.isoformat(" ");
  }

  /** -1, 0 or 1 as this date is before, equal to or after `other` (of the same calendar). */
  compare(other: CFDatetime): number {
    if (other.calendar !== this.calendar)
      throw new CFError(`cannot compare dates of the ${this.calendar} and ${other.calendar} calendars`, {
        attribute: "calendar",
      });
    const a = this.ordinal;
    const b = other.ordinal;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** This date plus `micros` microseconds, in its calendar. */
  addMicroseconds(micros: bigint): CFDatetime {
    return CFDatetime.fromOrdinal(this.ordinal + micros, this.calendar);
  }
}

const pad = (value: number, width: number): string => String(Math.abs(value)).padStart(width, "0");

function isoText(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  microsecond: number,
  separator: string,
): string {
  const y = year < 0 ? `-${pad(year, 4)}` : pad(year, 4);
  const s = microsecond > 0 ? `${pad(second, 2)}.${pad(microsecond, 6)}` : pad(second, 2);
  return `${y}-${pad(month, 2)}-${pad(day, 2)}${separator}${pad(hour, 2)}:${pad(minute, 2)}:${s}`;
}

/** cftime's unit names and their length in microseconds (months: only in 360_day; common_years: only in noleap). */
const UNIT_MICROS: Readonly<Record<string, bigint>> = (() => {
  const table: Record<string, bigint> = {};
  const add = (names: string[], micros: bigint): void => {
    for (const name of names) table[name] = micros;
  };
  add(["microseconds", "microsecond", "microsec", "microsecs"], 1n);
  add(["milliseconds", "millisecond", "millisec", "millisecs", "msec", "msecs", "ms"], 1000n);
  add(["second", "seconds", "sec", "secs", "s"], 1_000_000n);
  add(["minute", "minutes", "min", "mins"], 60_000_000n);
  add(["hour", "hours", "hr", "hrs", "h"], 3_600_000_000n);
  add(["day", "days", "d"], MICROS_PER_DAY);
  add(["month", "months"], 30n * MICROS_PER_DAY);
  add(["common_year", "common_years"], 365n * MICROS_PER_DAY);
  return table;
})();

const SUBSECOND_UNITS = new Set([
  "microseconds",
  "microsecond",
  "microsec",
  "microsecs",
  "milliseconds",
  "millisecond",
  "millisec",
  "millisecs",
  "msec",
  "msecs",
  "ms",
]);

// cftime's ISO8601_REGEX (matched at the start only, as Python's re.match) and TIMEZONE_REGEX.
const ISO8601 =
  /^(?<year>[+-]?[0-9]+)(-(?<month>[0-9]{1,2})(-(?<day>[0-9]{1,2})(((?<separator1>.)(?<hour>[0-9]{1,2}):(?<minute>[0-9]{1,2})(:(?<second>[0-9]{1,2})(\.(?<fraction>[0-9]+))?)?)?((?<separator2>.?)(?<timezone>Z|(([-+])([0-9]{2})((:([0-9]{2}))|([0-9]{2}))?)))?)?)?)?/;
const TIMEZONE = /^(?<prefix>[+-])(?<hours>[0-9]{2})(?::(?<minutes1>[0-9]{2})|(?<minutes2>[0-9]{2}))?/;

/** What cftime makes of units "<unit> since <date>": microseconds per unit and the reference date. */
export interface CftimeUnits {
  readonly unit: string;
  readonly micros: bigint;
  readonly base: CFDatetime;
}

/**
 * cftime's `_dateparse` and unit checks: the unit (one of cftime's names, any case), the word
 * "since", and an ISO 8601 date (its time zone offset subtracted), all in `calendar`.
 */
export function cftimeUnits(units: string, calendar: Calendar, variable?: string): CftimeUnits {
  const fail = (why: string): never => {
    throw new CFError(`${variable ?? "times"}: cannot decode units ${JSON.stringify(units)} (${calendar}): ${why}`, {
      variable,
      attribute: "units",
    });
  };
  // Python's units.split(None, 2): the unit, "since", and the rest.
  const split = /^\s*(\S+)\s+(\S+)(?:\s+([\s\S]*))?$/.exec(units);
  if (split === null || split[3] === undefined) return fail('expected "<unit> since <date>"');
  const unit = split[1]!.toLowerCase();
  if (split[2]!.toLowerCase() !== "since") fail('expected "<unit> since <date>"');
  const remainder = split[3].trim();
  const micros = UNIT_MICROS[unit];
  if (micros === undefined) fail(`unknown unit ${JSON.stringify(unit)}`);
  if ((unit === "month" || unit === "months") && calendar !== "360_day")
    fail("'months since' units are only allowed for the 360_day calendar");
  if ((unit === "common_year" || unit === "common_years") && calendar !== "noleap")
    fail("'common_years since' units are only allowed for the 365_day and noleap calendars");
  const match = ISO8601.exec(remainder);
  const groups = match?.groups;
  if (groups === undefined || groups.month === undefined || groups.day === undefined)
    return fail(`cannot parse the date ${JSON.stringify(remainder)}`);
  const fraction = groups.fraction === undefined ? 0 : Math.trunc(Number.parseFloat(`0.${groups.fraction}`) * 1e6);
  const fields = [groups.year, groups.month, groups.day, groups.hour, groups.minute, groups.second].map((v) =>
    v === undefined ? 0 : Number.parseInt(v, 10),
  ) as [number, number, number, number, number, number];
  const reason = invalidDate(calendar, ...fields, fraction);
  if (reason !== undefined) fail(`the reference date is not a date of the calendar: ${reason}`);
  let base = new CFDatetime(...fields, fraction, calendar);
  const offset = timezoneMinutes(groups.timezone);
  if (offset !== 0) base = base.addMicroseconds(-BigInt(offset) * 60_000_000n);
  return { unit, micros: micros!, base };
}

function timezoneMinutes(text: string | undefined): number {
  if (text === undefined || text === "Z") return 0;
  const groups = TIMEZONE.exec(text)!.groups!;
  const hours = Number(groups.hours);
  const minutes = Number(groups.minutes1 ?? groups.minutes2 ?? 0);
  return groups.prefix === "-" ? -(hours * 60 + minutes) : hours * 60 + minutes;
}

/**
 * cftime's `num2date` for one count: microseconds from the reference date. A float is scaled in
 * long double (x87, 64-bit significand), rounded half to even, then, for units of a second or
 * more, nudged to the whole second when one microsecond off (`cast_to_int`); an integer is scaled
 * exactly. `null` for NaN (cftime fails on NaN: `null` is this library's answer).
 */
export function cftimeMicros(count: number | bigint, units: CftimeUnits, variable?: string): bigint | null {
  if (typeof count === "bigint") {
    const micros = count * units.micros;
    if (micros < INT64_MIN || micros > INT64_MAX) throw overflow(variable);
    return micros;
  }
  if (Number.isNaN(count)) return null;
  if (!Number.isFinite(count)) throw overflow(variable);
  const scaled = longDoubleProduct(count, units.micros);
  if (scaled.compare(INT64_MIN) < 0 || scaled.compare(INT64_MAX) > 0) throw overflow(variable);
  let micros = scaled.rint();
  if (!SUBSECOND_UNITS.has(units.unit)) {
    const rest = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
    if (rest === 1n) micros = scaled.floor();
    else if (rest === 999_999n) micros = scaled.ceil();
  }
  return micros;
}

const overflow = (variable: string | undefined): CFError =>
  new CFError(`${variable ?? "times"}: time values outside the range of 64-bit signed integers of microseconds`, {
    variable,
    attribute: "units",
  });
