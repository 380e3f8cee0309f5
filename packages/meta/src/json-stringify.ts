import { MetadataError } from "./errors.js";
import { JsonFloat, type JsonValue } from "./json-value.js";
import { formatPythonFloat } from "./python-float.js";

/** How `stringifyJson` lays out its text. */
export interface StringifyJsonOptions {
  /** Spaces per level: 4 (zarr-python 2.13's `.zarray`), 2 (zarr-python 3's `zarr.json`). */
  readonly indent?: number;
  /**
   * Whether object keys are sorted by code point (zarr-python 2.13's `sort_keys=True`) or kept in
   * the order they were inserted (zarr-python 3, whose key order is its dataclasses' field order).
   */
  readonly sortKeys?: boolean;
}

/** The layout while writing: the indent unit and whether keys are sorted. */
interface Layout {
  readonly unit: string;
  readonly sort: boolean;
}

/**
 * JSON text byte-identical to what zarr-python writes into `.zarray`, `.zgroup` and `.zattrs`:
 * Python's `json.dumps(value, indent=4, sort_keys=True, ensure_ascii=True, separators=(",", ": "))`.
 * With `{ indent: 2, sortKeys: false }`, what zarr-python 3 writes into `zarr.json`
 * (`json.dumps(value, indent=2)`).
 *
 * A `JsonFloat` is written as a Python float (`1.0`, `1e-07`); a plain number as an integer when
 * it is one and as a float otherwise; a `bigint` as its digits; NaN and ±Infinity as the bare
 * tokens Python writes. Object properties whose value is `undefined` are skipped.
 */
export function stringifyJson(value: JsonValue, options: StringifyJsonOptions = {}): string {
  const out: string[] = [];
  const layout: Layout = { unit: " ".repeat(options.indent ?? 4), sort: options.sortKeys ?? true };
  writeValue(value, "", out, new Set(), "$", layout);
  return out.join("");
}

function writeValue(
  value: unknown,
  indent: string,
  out: string[],
  open: Set<object>,
  where: string,
  layout: Layout,
): void {
  switch (typeof value) {
    case "string":
      out.push(quote(value));
      return;
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "bigint":
      out.push(value.toString());
      return;
    case "number":
      out.push(Number.isInteger(value) ? BigInt(value).toString() : formatPythonFloat(value));
      return;
    case "object":
      if (value === null) {
        out.push("null");
        return;
      }
      if (value instanceof JsonFloat) {
        out.push(formatPythonFloat(value.value));
        return;
      }
      if (open.has(value)) throw notJson(where, "it contains itself");
      open.add(value);
      if (Array.isArray(value)) writeArray(value, indent, out, open, where, layout);
      else if (isPlainObject(value)) writeObject(value, indent, out, open, where, layout);
      else throw notJson(where, `a ${value.constructor?.name ?? "non-plain object"} is not a JSON value`);
      open.delete(value);
      return;
    default:
      throw notJson(where, `a ${typeof value} is not a JSON value`);
  }
}

function writeArray(
  items: readonly unknown[],
  indent: string,
  out: string[],
  open: Set<object>,
  where: string,
  layout: Layout,
): void {
  if (items.length === 0) {
    out.push("[]");
    return;
  }
  const inner = indent + layout.unit;
  out.push("[");
  items.forEach((item, i) => {
    out.push(i === 0 ? "\n" : ",\n", inner);
    writeValue(item, inner, out, open, `${where}[${i}]`, layout);
  });
  out.push("\n", indent, "]");
}

function writeObject(
  obj: object,
  indent: string,
  out: string[],
  open: Set<object>,
  where: string,
  layout: Layout,
): void {
  const entries = Object.entries(obj).filter(([, v]) => v !== undefined);
  if (entries.length === 0) {
    out.push("{}");
    return;
  }
  if (layout.sort) entries.sort(([a], [b]) => compareCodePoints(a, b));
  const inner = indent + layout.unit;
  out.push("{");
  entries.forEach(([k, v], i) => {
    out.push(i === 0 ? "\n" : ",\n", inner, quote(k), ": ");
    writeValue(v, inner, out, open, `${where}.${k}`, layout);
  });
  out.push("\n", indent, "}");
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Python sorts keys by code point; JS's default sort uses UTF-16 units, which differ above U+D7FF. */
export function compareCodePoints(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(j)!;
    if (ca !== cb) return ca - cb;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  return a.length - i - (b.length - j);
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

/**
 * `ensure_ascii=True`: everything outside printable ASCII becomes `\uXXXX` (lowercase hex); astral
 * characters come out as surrogate pairs because JS strings already are UTF-16 units.
 */
function quote(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i);
    out += SHORT_ESCAPES[s[i]!] ?? `\\u${c.toString(16).padStart(4, "0")}`;
    start = i + 1;
  }
  return `${out}${s.slice(start)}"`;
}

function notJson(where: string, why: string): MetadataError {
  return new MetadataError(`Cannot write ${where} as JSON: ${why}`);
}
