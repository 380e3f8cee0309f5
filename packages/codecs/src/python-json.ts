/*
 * Python's `json` module as numcodecs' JSON codec uses it (internal to the package): `dumps` with
 * its options, byte for byte, and `loads` (`JSONDecoder.decode`) with `strict`. Values are mapped as
 * `python-values.ts` describes.
 */
import { formatPythonFloat, JsonFloat } from "@z/meta";
import { pyFloat, pyInt } from "./python-values.js";

export interface DumpOptions {
  readonly skipkeys: boolean;
  readonly ensureAscii: boolean;
  readonly checkCircular: boolean;
  readonly allowNan: boolean;
  readonly sortKeys: boolean;
  /** Python's `indent`: null for one line, a number of spaces, or the indent string. */
  readonly indent: number | string | null;
  readonly itemSeparator: string;
  readonly keySeparator: string;
}

/** A value `dumps` cannot write (Python's TypeError / ValueError). */
export class PythonJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PythonJsonError";
  }
}

function hex4(code: number): string {
  return code.toString(16).padStart(4, "0");
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  34: '\\"',
  92: "\\\\",
  8: "\\b",
  12: "\\f",
  10: "\\n",
  13: "\\r",
  9: "\\t",
};

/** Python's `json.encoder.py_encode_basestring(_ascii)`. */
function quote(text: string, ensureAscii: boolean): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0x7f || !ensureAscii)) continue;
    out += text.slice(start, i) + (SHORT_ESCAPES[c] ?? `\\u${hex4(c)}`);
    start = i + 1;
  }
  return `${out + text.slice(start)}"`;
}

/** Python's code point order of `str`s (JS compares UTF-16 units, which differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `json.dumps(value, ...)` as Python writes it. */
export function pythonJsonDumps(value: unknown, options: DumpOptions): string {
  const indentUnit =
    options.indent === null
      ? null
      : typeof options.indent === "number"
        ? " ".repeat(Math.max(options.indent, 0))
        : options.indent;
  const open = new Set<object>();
  const out: string[] = [];
  const floatText = (x: number): string => {
    if (!Number.isFinite(x) && !options.allowNan) {
      throw new PythonJsonError(`Out of range float values are not JSON compliant: ${formatPythonFloat(x)}`);
    }
    return formatPythonFloat(x);
  };
  const keyText = (key: unknown): string | undefined => {
    if (typeof key === "string") return key;
    if (typeof key === "number") return Number.isInteger(key) ? BigInt(key).toString() : floatText(key);
    if (key instanceof JsonFloat) return floatText(key.value);
    if (typeof key === "bigint") return key.toString();
    if (typeof key === "boolean") return key ? "true" : "false";
    if (key === null || key === undefined) return "null";
    if (options.skipkeys) return undefined;
    throw new PythonJsonError(`keys must be str, int, float, bool or None, not ${typeName(key)}`);
  };
  const write = (v: unknown, depth: number): void => {
    if (v === null || v === undefined) return void out.push("null");
    switch (typeof v) {
      case "string":
        return void out.push(quote(v, options.ensureAscii));
      case "boolean":
        return void out.push(v ? "true" : "false");
      case "bigint":
        return void out.push(v.toString());
      case "number":
        return void out.push(Number.isInteger(v) ? BigInt(v).toString() : floatText(v));
      case "object":
        break;
      default:
        throw new PythonJsonError(`Object of type ${typeName(v)} is not JSON serializable`);
    }
    if (v instanceof JsonFloat) return void out.push(floatText(v.value));
    let entries: [string, unknown][] | undefined;
    let items: readonly unknown[] | undefined;
    if (Array.isArray(v)) items = v as readonly unknown[];
    else if (v instanceof Map) {
      entries = [];
      for (const [k, x] of v as Map<unknown, unknown>) {
        const text = keyText(k);
        if (text !== undefined) entries.push([text, x]);
      }
    } else if (isPlainObject(v)) entries = Object.entries(v);
    else throw new PythonJsonError(`Object of type ${typeName(v)} is not JSON serializable`);
    if (open.has(v)) throw new PythonJsonError("Circular reference detected");
    if (depth > 990) throw new PythonJsonError("maximum recursion depth exceeded while encoding a JSON object");
    open.add(v);
    const [start, end] = items ? ["[", "]"] : ["{", "}"];
    const count = items ? items.length : entries!.length;
    if (count === 0) {
      out.push(start + end);
    } else {
      const inner = indentUnit === null ? null : `\n${indentUnit.repeat(depth + 1)}`;
      out.push(start);
      if (inner !== null) out.push(inner);
      const separator = options.itemSeparator + (inner ?? "");
      if (items) {
        items.forEach((item, i) => {
          if (i > 0) out.push(separator);
          write(item, depth + 1);
        });
      } else {
        const sorted = options.sortKeys ? [...entries!].sort(([a], [b]) => compareCodePoints(a, b)) : entries!;
        sorted.forEach(([k, x], i) => {
          if (i > 0) out.push(separator);
          out.push(quote(k, options.ensureAscii), options.keySeparator);
          write(x, depth + 1);
        });
      }
      if (inner !== null) out.push(`\n${indentUnit!.repeat(depth)}`);
      out.push(end);
    }
    open.delete(v);
  };
  write(value, 0);
  return out.join("");
}

function typeName(value: unknown): string {
  if (value instanceof Uint8Array) return "bytes";
  if (typeof value === "object" && value !== null) return (value as object).constructor?.name ?? "object";
  return typeof value;
}

// ---------------------------------------------------------------------------------------------
// Decoding

/** Text Python's `JSONDecoder.decode` refuses, with its message and where. */
export class PythonJsonDecodeError extends Error {
  constructor(message: string, position: number) {
    super(`${message}: char ${position}`);
    this.name = "PythonJsonDecodeError";
  }
}

const NUMBER = /(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const MAX_DEPTH = 1000;

/** `json.JSONDecoder(strict=strict).decode(text)`. */
export function pythonJsonLoads(text: string, strict: boolean): unknown {
  let pos = 0;
  const fail = (message: string, at = pos): never => {
    throw new PythonJsonDecodeError(message, at);
  };
  const skip = () => {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      pos++;
    }
  };
  const parseString = (): string => {
    const begin = pos - 1;
    let out = "";
    let start = pos;
    for (;;) {
      if (pos >= text.length) fail("Unterminated string starting at", begin);
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        out += text.slice(start, pos);
        pos++;
        return out;
      }
      if (c === 0x5c) {
        out += text.slice(start, pos);
        const e = text[pos + 1];
        if (e === undefined) fail("Unterminated string starting at", begin);
        if (e === "u") {
          const digits = text.slice(pos + 2, pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(digits)) fail("Invalid \\uXXXX escape", pos + 1);
          out += String.fromCharCode(parseInt(digits, 16));
          pos += 6;
        } else {
          const simple = (
            { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" } as Record<string, string>
          )[e!];
          if (simple === undefined) fail(`Invalid \\escape: ${JSON.stringify(`\\${e}`)}`, pos);
          out += simple;
          pos += 2;
        }
        start = pos;
        continue;
      }
      if (c < 0x20 && strict) fail("Invalid control character at", pos);
      pos++;
    }
  };
  const parseValue = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail("maximum recursion depth exceeded");
    const c = text[pos];
    switch (c) {
      case '"':
        pos++;
        return parseString();
      case "{": {
        pos++;
        const object: Record<string, unknown> = {};
        skip();
        if (text[pos] === "}") {
          pos++;
          return object;
        }
        for (;;) {
          if (text[pos] !== '"') fail("Expecting property name enclosed in double quotes");
          pos++;
          const key = parseString();
          skip();
          if (text[pos] !== ":") fail("Expecting ':' delimiter");
          pos++;
          skip();
          const value = parseValue(depth + 1);
          Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
          skip();
          if (text[pos] === "}") {
            pos++;
            return object;
          }
          if (text[pos] !== ",") fail("Expecting ',' delimiter");
          pos++;
          skip();
        }
      }
      case "[": {
        pos++;
        const list: unknown[] = [];
        skip();
        if (text[pos] === "]") {
          pos++;
          return list;
        }
        for (;;) {
          list.push(parseValue(depth + 1));
          skip();
          if (text[pos] === "]") {
            pos++;
            return list;
          }
          if (text[pos] !== ",") fail("Expecting ',' delimiter");
          pos++;
          skip();
        }
      }
    }
    if (text.startsWith("null", pos)) return ((pos += 4), null);
    if (text.startsWith("true", pos)) return ((pos += 4), true);
    if (text.startsWith("false", pos)) return ((pos += 5), false);
    if (text.startsWith("NaN", pos)) return ((pos += 3), NaN);
    if (text.startsWith("Infinity", pos)) return ((pos += 8), Infinity);
    if (text.startsWith("-Infinity", pos)) return ((pos += 9), -Infinity);
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (!match) return fail("Expecting value");
    pos += match[0].length;
    if (match[2] === undefined && match[3] === undefined) return pyInt(BigInt(match[1]!));
    return pyFloat(Number(match[0]));
  };
  skip();
  const value = parseValue(0);
  skip();
  if (pos !== text.length) fail("Extra data");
  return value;
}
