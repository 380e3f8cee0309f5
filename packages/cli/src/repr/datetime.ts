// numpy's `datetime_as_string` for datetime64 values in their own unit (proleptic Gregorian, UTC).

import { civilFromDays } from "@z/meta";

export { civilFromDays };

const SUBSECOND_DIGITS: Readonly<Record<string, number>> = { ms: 3, us: 6, μs: 6, ns: 9, ps: 12, fs: 15, as: 18 };
const PER_SECOND: Readonly<Record<string, bigint>> = {
  s: 1n,
  ms: 10n ** 3n,
  us: 10n ** 6n,
  μs: 10n ** 6n,
  ns: 10n ** 9n,
  ps: 10n ** 12n,
  fs: 10n ** 15n,
  as: 10n ** 18n,
};

/** `unit` as written in the dtype (`ns`, `10s`, `generic`): base unit and multiplier. */
export function splitUnit(unit: string | undefined): { base: string; multiplier: bigint } {
  const m = /^(\d*)(.*)$/.exec(unit ?? "generic")!;
  return { base: m[2]!, multiplier: m[1] === "" ? 1n : BigInt(m[1]!) };
}

const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));

/** Python's `'%04d' % year`. */
const year4 = (y: number): string => (y < 0 ? `-${String(-y).padStart(3, "0")}` : String(y).padStart(4, "0"));
const two = (n: number | bigint): string => String(n).padStart(2, "0");

/** The ISO text numpy prints for `count` units of a datetime64 dtype (`count` not NaT). */
export function datetimeString(count: bigint, unit: string | undefined): string {
  const { base, multiplier } = splitUnit(unit);
  const n = count * multiplier;
  if (base === "Y") return year4(1970 + Number(n));
  if (base === "M") {
    const years = floorDiv(n, 12n);
    return `${year4(1970 + Number(years))}-${two(Number(n - years * 12n) + 1)}`;
  }
  if (base === "W" || base === "D") {
    const [y, m, d] = civilFromDays(Number(base === "W" ? n * 7n : n));
    return `${year4(y)}-${two(m)}-${two(d)}`;
  }
  const perDay = base === "h" ? 24n : base === "m" ? 1440n : 86400n * (PER_SECOND[base] ?? 1n);
  const days = floorDiv(n, perDay);
  let rest = n - days * perDay;
  const [y, m, d] = civilFromDays(Number(days));
  let text = `${year4(y)}-${two(m)}-${two(d)}T`;
  if (base === "h") return text + two(rest);
  if (base === "m") return `${text}${two(rest / 60n)}:${two(rest % 60n)}`;
  const perSecond = PER_SECOND[base] ?? 1n;
  const seconds = rest / perSecond;
  rest -= seconds * perSecond;
  text += `${two(seconds / 3600n)}:${two((seconds / 60n) % 60n)}:${two(seconds % 60n)}`;
  const digits = SUBSECOND_DIGITS[base];
  return digits === undefined ? text : `${text}.${String(rest).padStart(digits, "0")}`;
}
