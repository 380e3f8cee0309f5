// numpy's `dragon4_positional` and `dragon4_scientific` in unique mode (numpy/core/arrayprint.py and
// dragon4.c): the shortest digits that read back as the same number of its float type, cut to
// `precision` digits (rounding the exact binary value, ties to even) when longer.

import { roundToFloat16 as roundToHalf } from "@z/meta";

/** Digits `d0 d1 d2 …` and exponent `e`: the number is `d0.d1d2… × 10^e`. Zero is `"0"`, 0. */
interface Decimal {
  readonly digits: string;
  readonly exponent: number;
}

/** The shortest digits that round-trip to `x` in a float of `size` bytes (x > 0, finite). */
export function shortestDigits(x: number, size: 2 | 4 | 8): Decimal {
  if (x === 0) return { digits: "0", exponent: 0 };
  if (size === 8) return parseExponential(x.toExponential());
  const round = size === 4 ? Math.fround : roundToHalf;
  for (let p = 1; p <= 17; p++) {
    const text = x.toExponential(p - 1);
    if (round(Number(text)) === x) return parseExponential(text);
  }
  return parseExponential(x.toExponential());
}

function parseExponential(text: string): Decimal {
  const [mantissa, exp] = text.split("e");
  const digits = mantissa!.replace(".", "").replace(/0+$/, "") || "0";
  return { digits, exponent: Number(exp) };
}

/** The exact decimal value of a finite double x > 0 (every binary fraction has a finite decimal form). */
export function exactDigits(x: number): Decimal {
  if (x === 0) return { digits: "0", exponent: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  let exp2: number;
  if (biased === 0) exp2 = -1074;
  else {
    mantissa |= 1n << 52n;
    exp2 = biased - 1075;
  }
  let digits: string;
  let pointFromEnd: number; // digits after the decimal point
  if (exp2 >= 0) {
    digits = (mantissa << BigInt(exp2)).toString();
    pointFromEnd = 0;
  } else {
    digits = (mantissa * 5n ** BigInt(-exp2)).toString();
    pointFromEnd = -exp2;
  }
  const exponent = digits.length - 1 - pointFromEnd;
  return { digits: digits.replace(/0+$/, "") || "0", exponent };
}

/** `d` rounded to keep `keep` significant digits (ties to even); trailing zeros dropped. */
function roundTo(d: Decimal, keep: number): Decimal {
  if (keep < 0) return { digits: "0", exponent: 0 };
  if (d.digits.length <= keep) return d;
  const head = d.digits.slice(0, keep);
  const rest = d.digits.slice(keep);
  const first = rest.charCodeAt(0) - 48;
  const tail = rest.slice(1);
  const last = keep > 0 ? head.charCodeAt(keep - 1) - 48 : 0;
  const up = first > 5 || (first === 5 && (/[1-9]/.test(tail) || last % 2 === 1));
  if (!up) {
    const digits = head.replace(/0+$/, "");
    return digits === "" ? { digits: "0", exponent: 0 } : { digits, exponent: d.exponent };
  }
  if (keep === 0) return { digits: "1", exponent: d.exponent + 1 };
  const bumped = (BigInt(head) + 1n).toString();
  const exponent = bumped.length > head.length ? d.exponent + 1 : d.exponent;
  return { digits: bumped.replace(/0+$/, "") || "0", exponent };
}

export interface FormatOptions {
  /** Most digits after the point (positional) or after the first digit (scientific); -1: no limit. */
  precision: number;
  /** Pad with zeros to at least this many digits after the point. */
  minDigits: number;
  /** `.`: keep the point, drop trailing zeros; `k`: keep what the digits give. */
  trim: "." | "k";
  /** Write `+` before non-negative numbers. */
  sign: boolean;
  padLeft: number;
  padRight: number;
  /** Digits of the exponent at least (scientific); -1 means 2. */
  expDigits: number;
}

function unique(x: number, size: 2 | 4 | 8): Decimal {
  return shortestDigits(Math.abs(x), size);
}

function signOf(x: number, sign: boolean): string {
  if (x < 0 || Object.is(x, -0)) return "-";
  return sign ? "+" : "";
}

/** numpy's `dragon4_positional(x, unique=True, fractional=True, ...)`. */
export function formatPositional(x: number, size: 2 | 4 | 8, o: FormatOptions): string {
  let d = unique(x, size);
  if (d.digits !== "0" && o.precision >= 0) {
    const fractionDigits = d.digits.length - 1 - d.exponent;
    if (fractionDigits > o.precision) {
      const exact = exactDigits(Math.abs(x));
      d = roundTo(exact, exact.exponent + 1 + o.precision);
    }
  }
  let intPart: string;
  let fracPart: string;
  if (d.digits === "0") {
    intPart = "0";
    fracPart = "";
  } else if (d.exponent >= 0) {
    const all = d.digits.padEnd(d.exponent + 1, "0");
    intPart = all.slice(0, d.exponent + 1);
    fracPart = all.slice(d.exponent + 1);
  } else {
    intPart = "0";
    fracPart = "0".repeat(-d.exponent - 1) + d.digits;
  }
  if (fracPart.length < o.minDigits) fracPart = fracPart.padEnd(o.minDigits, "0");
  const left = signOf(x, o.sign) + intPart;
  const right = fracPart;
  return `${left.padStart(o.padLeft)}.${right.padEnd(o.padRight)}`;
}

/** numpy's `dragon4_scientific(x, unique=True, ...)`. */
export function formatScientific(x: number, size: 2 | 4 | 8, o: FormatOptions): string {
  let d = unique(x, size);
  if (d.digits !== "0" && o.precision >= 0 && d.digits.length - 1 > o.precision) {
    d = roundTo(exactDigits(Math.abs(x)), o.precision + 1);
  }
  let frac = d.digits.slice(1);
  if (frac.length < o.minDigits) frac = frac.padEnd(o.minDigits, "0");
  const exponent = d.digits === "0" ? 0 : d.exponent;
  const expText = String(Math.abs(exponent)).padStart(o.expDigits < 0 ? 2 : Math.max(o.expDigits, 1), "0");
  const left = signOf(x, o.sign) + d.digits[0];
  return `${left.padStart(o.padLeft)}.${frac}e${exponent < 0 ? "-" : "+"}${expText}`;
}
