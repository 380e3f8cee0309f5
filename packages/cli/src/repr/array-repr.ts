// numpy's `repr(array)` (numpy/core/arrayprint.py, NumPy 1.24 defaults: precision 8, threshold
// 1000, edgeitems 3, linewidth 75, floatmode 'maxprec'), for arrays of every fixed-size dtype, and
// of objects (whose elements' text the caller gives).

import type { DataType, SimpleDataType } from "@z/meta";
import { cStrides, typestr, pythonStrRepr } from "@z/meta";
import { type Complex, NAT, readElements, type Struct, type ElementValue, type Nested } from "../elements.js";
import { numpyDtypeName } from "../dtype-text.js";
import { pyBytesRepr, pyTupleRepr } from "../python-repr.js";
import { datetimeString, splitUnit } from "./datetime.js";
import { formatPositional, formatScientific, type FormatOptions } from "./float-format.js";

export interface ReprOptions {
  /** Arrays with more elements are summarized with `...` (default 1000). */
  threshold?: number;
  /** Items kept at each end of a summarized dimension (default 3). */
  edgeitems?: number;
  /** Line width to wrap at (default 75). */
  linewidth?: number;
  /** The text of an element of an object array (numpy's `_object_format`); default `String`. */
  objectFormat?: (value: unknown) => string;
}

type Formatter = (value: ElementValue) => string;

/** `repr()` of an array whose elements are `bytes` (C order, the dtype's byte order). */
export function arrayRepr(
  bytes: Uint8Array,
  shape: readonly number[],
  dtype: DataType,
  options: ReprOptions = {},
): string {
  const runs = summaryRuns(shape, options);
  const kept = runs === undefined ? bytes : gatherRuns(bytes, shape, runs, dtype.itemsize);
  return keptArrayRepr(kept, shape, dtype, options);
}

/**
 * The parts of each dimension a summarized repr shows (numpy's `_leading_trailing`): `[from, to)`
 * runs, two for dimensions longer than twice `edgeitems`; `undefined` when nothing is left out.
 */
export function summaryRuns(shape: readonly number[], options: ReprOptions = {}): [number, number][][] | undefined {
  const threshold = options.threshold ?? 1000;
  const edge = options.edgeitems ?? 3;
  if (shape.reduce((a, b) => a * b, 1) <= threshold) return undefined;
  return shape.map((n) =>
    n > 2 * edge
      ? [
          [0, edge],
          [n - edge, n],
        ]
      : [[0, n]],
  );
}

/** The elements of `bytes` (C order over `shape`) inside the runs, in C order over the runs' shape. */
function gatherRuns(
  bytes: Uint8Array,
  shape: readonly number[],
  runs: readonly (readonly [number, number])[][],
  itemsize: number,
): Uint8Array {
  const kept = runs.map((r) => r.flatMap(([from, to]) => [...range(from, to)]));
  const steps = cStrides(shape);
  const out = new Uint8Array(kept.reduce((n, k) => n * k.length, 1) * itemsize);
  let o = 0;
  const walk = (d: number, base: number): void => {
    if (d === shape.length) {
      out.set(bytes.subarray(base * itemsize, (base + 1) * itemsize), o);
      o += itemsize;
      return;
    }
    for (const i of kept[d]!) walk(d + 1, base + i * steps[d]!);
  };
  walk(0, 0);
  return out;
}

/**
 * `repr()` of an array given only the elements a summarized repr shows: for arrays over the
 * threshold, `kept` holds the elements inside `summaryRuns(shape)` (C order over their shape);
 * otherwise all of them. Lets callers read just the corners of a large array.
 */
export function keptArrayRepr(
  kept: Uint8Array | readonly unknown[],
  shape: readonly number[],
  dtype: DataType,
  options: ReprOptions = {},
): string {
  const threshold = options.threshold ?? 1000;
  const edge = options.edgeitems ?? 3;
  const linewidth = options.linewidth ?? 75;
  const size = shape.reduce((a, b) => a * b, 1);
  const skipDtype = isImplied(dtype) && size > 0;
  const prefix = "array(";
  const suffix = skipDtype ? ")" : ",";
  let body: string;
  if (size > 0 || (shape.length === 1 && shape[0] === 0)) {
    body =
      size === 0
        ? "[]"
        : array2string(kept, shape, dtype, {
            threshold,
            edge,
            linewidth: linewidth - suffix.length,
            separator: ", ",
            prefix,
            objectFormat: options.objectFormat,
          });
  } else {
    body = `[], shape=${pyTupleRepr(shape)}`;
  }
  const text = prefix + body + suffix;
  if (skipDtype) return text;
  const dtypeText = `dtype=${dtypeShortRepr(dtype)})`;
  const lastLine = width(text.slice(text.lastIndexOf("\n") + 1));
  const spacer = lastLine + dtypeText.length + 1 > linewidth ? `\n${" ".repeat(prefix.length)}` : " ";
  return text + spacer + dtypeText;
}

/** numpy's `dtype_is_implied`: int64, float64, complex128 and bool arrays print without `dtype=`. */
function isImplied(dtype: DataType): boolean {
  if (dtype.kind === "structured") return false;
  return (
    dtype.kind === "b" ||
    (dtype.kind === "i" && dtype.itemsize === 8) ||
    (dtype.kind === "f" && dtype.itemsize === 8) ||
    (dtype.kind === "c" && dtype.itemsize === 16)
  );
}

/** numpy's `dtype_short_repr`. */
export function dtypeShortRepr(dtype: DataType): string {
  if (dtype.kind === "structured") return numpyDtypeName(dtype);
  if (dtype.kind === "S" || dtype.kind === "U" || dtype.kind === "V") return `'${typestr(dtype)}'`;
  const name = numpyDtypeName(dtype);
  return /^[A-Za-z][A-Za-z0-9]*$/.test(name) ? name : `'${name}'`;
}

interface Layout {
  threshold: number;
  edge: number;
  linewidth: number;
  separator: string;
  prefix: string;
  objectFormat: ((value: unknown) => string) | undefined;
}

function array2string(
  kept: Uint8Array | readonly unknown[],
  shape: readonly number[],
  dtype: DataType,
  o: Layout,
): string {
  const runs = summaryRuns(shape, { threshold: o.threshold, edgeitems: o.edge });
  const keptShape = runs === undefined ? shape : runs.map((r) => r.reduce((n, [from, to]) => n + to - from, 0));
  if (dtype.kind === "O") {
    const format = o.objectFormat ?? String;
    return formatArray(kept as readonly ElementValue[], keptShape, shape, (v) => format(v), o, runs !== undefined);
  }
  const values = readElements(kept as Uint8Array, dtype);
  const format = formatterFor(dtype, values, shape.length === 0);
  return formatArray(values, keptShape, shape, format, o, runs !== undefined);
}

function* range(start: number, stop: number): Generator<number> {
  for (let i = start; i < stop; i++) yield i;
}

/** numpy's `_formatArray` (non-legacy), over the kept values of a possibly summarized array. */
function formatArray(
  values: readonly ElementValue[],
  keptShape: readonly number[],
  shape: readonly number[],
  format: Formatter,
  o: Layout,
  summarize: boolean,
): string {
  const keptStrides = cStrides(keptShape);
  const nextLinePrefix = ` ${" ".repeat(o.prefix.length)}`;
  const recurse = (index: number[], hanging: string, width: number): string => {
    const axis = index.length;
    const axesLeft = shape.length - axis;
    if (axesLeft === 0) return format(values[index.reduce((s, i, d) => s + i * keptStrides[d]!, 0)]!);
    const nextHanging = `${hanging} `;
    const nextWidth = width - 1;
    const length = shape[axis]!;
    const keptLength = keptShape[axis]!;
    const showSummary = summarize && 2 * o.edge < length;
    const leading = showSummary ? o.edge : 0;
    const trailing = showSummary ? o.edge : length;
    const at = (i: number): number[] => [...index, i];
    let s = "";
    if (axesLeft === 1) {
      const elemWidth = width - Math.max(o.separator.trimEnd().length, 1);
      let line = hanging;
      for (let i = 0; i < leading; i++) {
        [s, line] = extendLinePretty(s, line, recurse(at(i), nextHanging, nextWidth), elemWidth, hanging);
        line += o.separator;
      }
      if (showSummary) {
        [s, line] = extendLine(s, line, "...", elemWidth, hanging);
        line += o.separator;
      }
      for (let i = trailing; i > 1; i--) {
        [s, line] = extendLinePretty(s, line, recurse(at(keptLength - i), nextHanging, nextWidth), elemWidth, hanging);
        line += o.separator;
      }
      [s, line] = extendLinePretty(s, line, recurse(at(keptLength - 1), nextHanging, nextWidth), elemWidth, hanging);
      s += line;
    } else {
      const lineSep = o.separator.trimEnd() + "\n".repeat(axesLeft - 1);
      for (let i = 0; i < leading; i++) s += hanging + recurse(at(i), nextHanging, nextWidth) + lineSep;
      if (showSummary) s += `${hanging}...${lineSep}`;
      for (let i = trailing; i > 1; i--) s += hanging + recurse(at(keptLength - i), nextHanging, nextWidth) + lineSep;
      s += hanging + recurse(at(keptLength - 1), nextHanging, nextWidth);
    }
    return `[${s.slice(hanging.length)}]`;
  };
  return recurse([], nextLinePrefix, o.linewidth);
}

/** Python's `len` of text: code points, not UTF-16 units. */
function width(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function extendLine(
  s: string,
  line: string,
  word: string,
  lineWidth: number,
  nextLinePrefix: string,
): [string, string] {
  let needsWrap = width(line) + width(word) > lineWidth;
  if (width(line) <= width(nextLinePrefix)) needsWrap = false;
  if (needsWrap) {
    s += `${line.trimEnd()}\n`;
    line = nextLinePrefix;
  }
  return [s, line + word];
}

/** numpy's `_extendLine_pretty`: a word of several lines (the repr of an array in an object array) keeps its shape. */
function extendLinePretty(
  s: string,
  line: string,
  word: string,
  lineWidth: number,
  nextLinePrefix: string,
): [string, string] {
  const words = word.split("\n");
  if (words.length === 1) return extendLine(s, line, word, lineWidth, nextLinePrefix);
  const longest = Math.max(...words.map(width));
  let indent: string;
  if (width(line) + longest > lineWidth && width(line) > width(nextLinePrefix)) {
    s += `${line.trimEnd()}\n`;
    line = nextLinePrefix + words[0];
    indent = nextLinePrefix;
  } else {
    indent = " ".repeat(width(line));
    line += words[0];
  }
  for (const next of words.slice(1)) {
    s += `${line.trimEnd()}\n`;
    line = indent + next;
  }
  return [s, line + " ".repeat(longest - width(words[words.length - 1]!))];
}

// --- element formatters -------------------------------------------------------------------------

function formatterFor(dtype: DataType, values: readonly ElementValue[], is0d: boolean): Formatter {
  if (dtype.kind === "structured") {
    const fields = dtype.fields.map((field, i) => {
      const column = values.map((v) => (v as Struct).values[i]!);
      if (field.shape.length === 0) return formatterFor(field.dtype, column, is0d);
      const inner = formatterFor(
        field.dtype,
        column.flatMap((v) => flatten(v as Nested)),
        false,
      );
      const sub = (v: ElementValue | Nested): string =>
        Array.isArray(v)
          ? `[${(v as Nested).map((item) => (Array.isArray(item) ? sub(item) : inner(item as ElementValue))).join(", ")}]`
          : inner(v as ElementValue);
      return sub as Formatter;
    });
    return (v) => {
      const parts = fields.map((f, i) => f((v as Struct).values[i]!));
      return parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(", ")})`;
    };
  }
  switch (dtype.kind) {
    case "b":
      return (v) => (v ? (is0d ? "True" : " True") : "False");
    case "i":
    case "u": {
      let width = 0;
      if (values.length > 0) {
        let max = values[0] as number | bigint;
        let min = max;
        for (const v of values as (number | bigint)[]) {
          if (v > max) max = v;
          if (v < min) min = v;
        }
        width = Math.max(String(max).length, String(min).length);
      }
      return (v) => String(v).padStart(width);
    }
    case "f":
      return floatingFormat(values as number[], floatSize(dtype), false);
    case "c": {
      const size = floatSize({ ...dtype, itemsize: dtype.itemsize / 2 });
      const real = floatingFormat(
        (values as Complex[]).map((c) => c.re),
        size,
        false,
      );
      const imag = floatingFormat(
        (values as Complex[]).map((c) => c.im),
        size,
        true,
      );
      return (v) => {
        const r = real((v as Complex).re);
        let i = imag((v as Complex).im);
        const end = i.trimEnd().length;
        i = `${i.slice(0, end)}j${i.slice(end)}`;
        return r + i;
      };
    }
    case "M": {
      const { base } = splitUnit(dtype.unit);
      return timelike(
        values as bigint[],
        (n) => `'${datetimeString(n, dtype.unit === "generic" ? base : dtype.unit)}'`,
      );
    }
    case "m":
      return timelike(values as bigint[], (n) => String(n));
    case "S":
      return (v) => pyBytesRepr(v as Uint8Array);
    case "U":
      return (v) => pythonStrRepr(v as string);
    case "V":
      return (v) => `b'${[...(v as Uint8Array)].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("")}'`;
    case "O":
      return (v) => String(v); // object arrays take their own formatter (see array2string)
    case "x":
      // ml_dtypes' floats print as float32 does; int4/int2 as ints.
      if (dtype.extension === "int4" || dtype.extension === "int2") return (v) => String(v);
      return floatingFormat(values as number[], floatSize({ ...dtype, itemsize: 4 }), false);
  }
}

function flatten(v: Nested): ElementValue[] {
  return v.flatMap((item) => (Array.isArray(item) ? flatten(item as Nested) : [item as ElementValue]));
}

function floatSize(dtype: SimpleDataType): 2 | 4 | 8 {
  return dtype.itemsize === 2 ? 2 : dtype.itemsize === 4 ? 4 : 8;
}

/** numpy's `_TimelikeFormat`: right-aligned to the widest of the largest and smallest values, NaT as 'NaT'. */
function timelike(values: readonly bigint[], text: (n: bigint) => string): Formatter {
  const real = values.filter((v) => v !== NAT);
  let width = 0;
  if (real.length > 0) {
    const max = real.reduce((a, b) => (b > a ? b : a));
    const min = real.reduce((a, b) => (b < a ? b : a));
    width = Math.max(text(max).length, text(min).length);
  }
  if (real.length < values.length) width = Math.max(width, 5);
  return (v) => (v === NAT ? "'NaT'".padStart(width) : text(v as bigint).padStart(width));
}

/** numpy's `FloatingFormat` (floatmode 'maxprec', precision 8, suppress_small off). */
function floatingFormat(data: readonly number[], size: 2 | 4 | 8, plusSign: boolean): Formatter {
  const precision = 8;
  const finite = data.filter((x) => Number.isFinite(x));
  const absNonZero = finite.filter((x) => x !== 0).map(Math.abs);
  let expFormat = false;
  if (absNonZero.length > 0) {
    const max = Math.max(...absNonZero);
    const min = Math.min(...absNonZero);
    if (max >= 1e8 || min < 0.0001 || max / min > 1000) expFormat = true;
  }
  const o: FormatOptions = {
    precision,
    minDigits: 0,
    trim: ".",
    sign: plusSign,
    padLeft: 0,
    padRight: 0,
    expDigits: -1,
  };
  if (finite.length === 0) {
    o.padLeft = 0;
    o.padRight = 0;
  } else if (expFormat) {
    const first = { ...o, padLeft: 0, padRight: 0 };
    const strs = finite.map((x) => formatScientific(x, size, first));
    const parts = strs.map((s) => {
      const [mant, exp] = s.split("e");
      const [int, frac] = mant!.split(".");
      return { int: int!, frac: frac!, exp: exp! };
    });
    o.expDigits = Math.max(...parts.map((p) => p.exp.length)) - 1;
    o.trim = "k";
    o.precision = Math.max(...parts.map((p) => p.frac.length));
    o.minDigits = o.precision;
    o.padLeft = Math.max(...parts.map((p) => p.int.length));
    o.padRight = o.expDigits + 2 + o.precision;
  } else {
    const first = { ...o, padLeft: 0, padRight: 0 };
    const strs = finite.map((x) => formatPositional(x, size, first));
    const parts = strs.map((s) => s.split("."));
    o.padLeft = Math.max(...parts.map((p) => p[0]!.length));
    o.padRight = Math.max(...parts.map((p) => p[1]!.length));
    o.minDigits = 0;
  }
  if (finite.length !== data.length) {
    const negInf = plusSign || data.some((x) => x === -Infinity);
    const offset = o.padRight + 1;
    o.padLeft = Math.max(o.padLeft, 3 - offset, 3 + (negInf ? 1 : 0) - offset);
  }
  return (v) => {
    const x = v as number;
    if (!Number.isFinite(x)) {
      const text = Number.isNaN(x) ? (plusSign ? "+nan" : "nan") : x < 0 ? "-inf" : plusSign ? "+inf" : "inf";
      return text.padStart(o.padLeft + o.padRight + 1);
    }
    return expFormat ? formatScientific(x, size, o) : formatPositional(x, size, o);
  };
}
