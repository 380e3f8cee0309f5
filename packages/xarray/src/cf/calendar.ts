// The calendars of the CF conventions as cftime 1.6 counts them (cftime/_cftime.pyx): day numbers
// for dates and back, leap years, and which calendars have a year zero.
import { CFError } from "../errors.js";

/**
 * A calendar as cftime names it once normalized: `standard` (also `gregorian`: Julian before
 * 1582-10-15, Gregorian from then), `proleptic_gregorian`, `noleap` (`365_day`), `all_leap`
 * (`366_day`), `360_day` and `julian`.
 */
export type Calendar = "standard" | "proleptic_gregorian" | "noleap" | "all_leap" | "360_day" | "julian";

const SYNONYMS: Readonly<Record<string, Calendar>> = {
  standard: "standard",
  gregorian: "standard",
  proleptic_gregorian: "proleptic_gregorian",
  noleap: "noleap",
  "365_day": "noleap",
  all_leap: "all_leap",
  "366_day": "all_leap",
  "360_day": "360_day",
  julian: "julian",
};

/** The calendar a `calendar` attribute names (any case), or `undefined` for one cftime does not know. */
export function calendarNamed(name: string): Calendar | undefined {
  return SYNONYMS[name.toLowerCase()];
}

/** The calendars xarray decodes to datetime64 (NumPy's own is the proleptic Gregorian one). */
export function isStandardCalendar(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === "standard" || lower === "gregorian" || lower === "proleptic_gregorian";
}

/**
 * Whether years are numbered with a year zero (astronomically): not in the Julian and mixed
 * calendars (year -1 precedes year 1, as CF 1.9 says), in every other (cftime's defaults).
 */
export const hasYearZero = (calendar: Calendar): boolean => calendar !== "standard" && calendar !== "julian";

const CUMULATIVE = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
const CUMULATIVE_LEAP = [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366];
const floorDiv = (a: number, b: number): number => Math.floor(a / b);

/** Whether `year` (as the calendar numbers it) is a leap year, as cftime's `_is_leap`. */
export function isLeapYear(year: number, calendar: Calendar): boolean {
  switch (calendar) {
    case "noleap":
    case "360_day":
      return false;
    case "all_leap":
      return true;
    default: {
      const astronomical = !hasYearZero(calendar) && year < 0 ? year + 1 : year;
      const gregorian = calendar === "proleptic_gregorian" || (calendar === "standard" && year > 1581);
      if (!gregorian) return astronomical % 4 === 0;
      return astronomical % 4 === 0 && (astronomical % 100 !== 0 || astronomical % 400 === 0);
    }
  }
}

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number, calendar: Calendar): number {
  if (calendar === "360_day") return 30;
  const table = isLeapYear(year, calendar) ? CUMULATIVE_LEAP : CUMULATIVE;
  return table[month]! - table[month - 1]!;
}

/** Why a date does not exist in a calendar (cftime's `assert_valid_date`), or `undefined`. */
export function invalidDate(
  calendar: Calendar,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  microsecond = 0,
): string | undefined {
  const whole = [year, month, day, hour, minute, second, microsecond].every(Number.isSafeInteger);
  if (!whole) return "its fields must be integers";
  if (year === 0 && !hasYearZero(calendar)) return `the ${calendar} calendar has no year zero`;
  if (month < 1 || month > 12) return "the month must be 1 to 12";
  if (day < 1 || day > daysInMonth(year, month, calendar)) return `day ${day} is not in that month`;
  if (calendar === "standard" && year === 1582 && month === 10 && day > 4 && day < 15)
    return "1582-10-05 to 1582-10-14 are not in the mixed Julian/Gregorian calendar";
  if (hour < 0 || hour > 23) return "the hour must be 0 to 23";
  if (minute < 0 || minute > 59) return "the minute must be 0 to 59";
  if (second < 0 || second > 59) return "the second must be 0 to 59";
  if (microsecond < 0 || microsecond > 999999) return "the microsecond must be 0 to 999999";
  return undefined;
}

// Julian day numbers (days since -4713-01-01 noon in the Julian calendar) of astronomical years.
function julianJdn(year: number, month: number, day: number): number {
  const a = floorDiv(14 - month, 12);
  const y = year + 4800 - a;
  const m = month + 12 * a - 3;
  return day + floorDiv(153 * m + 2, 5) + 365 * y + floorDiv(y, 4) - 32083;
}

function gregorianJdn(year: number, month: number, day: number): number {
  const a = floorDiv(14 - month, 12);
  const y = year + 4800 - a;
  const m = month + 12 * a - 3;
  return day + floorDiv(153 * m + 2, 5) + 365 * y + floorDiv(y, 4) - floorDiv(y, 100) + floorDiv(y, 400) - 32045;
}

function fromJdn(jdn: number, gregorian: boolean): [number, number, number] {
  let c: number;
  let b = 0;
  if (gregorian) {
    const a = jdn + 32044;
    b = floorDiv(4 * a + 3, 146097);
    c = a - floorDiv(146097 * b, 4);
  } else {
    c = jdn + 32082;
  }
  const d = floorDiv(4 * c + 3, 1461);
  const e = c - floorDiv(1461 * d, 4);
  const m = floorDiv(5 * e + 2, 153);
  const day = e - floorDiv(153 * m + 2, 5) + 1;
  const month = m + 3 - 12 * floorDiv(m, 10);
  const year = 100 * b + d - 4800 + floorDiv(m, 10);
  return [year, month, day];
}

/** The first Julian day number of the Gregorian part of the mixed calendar (1582-10-15). */
const GREGORIAN_START = 2299161;

const toAstronomical = (year: number, calendar: Calendar): number =>
  !hasYearZero(calendar) && year < 0 ? year + 1 : year;
const fromAstronomical = (year: number, calendar: Calendar): number =>
  !hasYearZero(calendar) && year <= 0 ? year - 1 : year;

/** A day count for a valid date; consecutive days have consecutive numbers. */
export function dayNumber(year: number, month: number, day: number, calendar: Calendar): number {
  switch (calendar) {
    case "360_day":
      return year * 360 + (month - 1) * 30 + day - 1;
    case "noleap":
      return year * 365 + CUMULATIVE[month - 1]! + day - 1;
    case "all_leap":
      return year * 366 + CUMULATIVE_LEAP[month - 1]! + day - 1;
    case "julian":
      return julianJdn(toAstronomical(year, calendar), month, day);
    case "proleptic_gregorian":
      return gregorianJdn(year, month, day);
    case "standard": {
      const astronomical = toAstronomical(year, calendar);
      const jdn = julianJdn(astronomical, month, day);
      return jdn < GREGORIAN_START ? jdn : gregorianJdn(astronomical, month, day);
    }
  }
}

/** The date of a day number ({@link dayNumber}'s inverse). */
export function dateOfDay(days: number, calendar: Calendar): [number, number, number] {
  switch (calendar) {
    case "360_day": {
      const year = floorDiv(days, 360);
      const rest = days - year * 360;
      return [year, floorDiv(rest, 30) + 1, (rest % 30) + 1];
    }
    case "noleap":
    case "all_leap": {
      const length = calendar === "noleap" ? 365 : 366;
      const table = calendar === "noleap" ? CUMULATIVE : CUMULATIVE_LEAP;
      const year = floorDiv(days, length);
      const rest = days - year * length;
      let month = 1;
      while (table[month]! <= rest) month++;
      return [year, month, rest - table[month - 1]! + 1];
    }
    case "julian":
    case "standard":
    case "proleptic_gregorian": {
      const gregorian = calendar === "proleptic_gregorian" || (calendar === "standard" && days >= GREGORIAN_START);
      const [year, month, day] = fromJdn(days, gregorian);
      return [fromAstronomical(year, calendar), month, day];
    }
  }
}

/** The calendar a `calendar` attribute names, or a `CFError`. */
export function requireCalendar(name: string, variable: string | undefined): Calendar {
  const calendar = calendarNamed(name);
  if (calendar === undefined)
    throw new CFError(
      `${variable ?? "times"}: unknown calendar ${JSON.stringify(name)} (expected one of ${Object.keys(SYNONYMS).join(", ")})`,
      { variable, attribute: "calendar" },
    );
  return calendar;
}
