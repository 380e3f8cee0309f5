/*
 * Reading a TensorStore spec's JSON as TensorStore's JSON binders read it (every member known, extra
 * ones refused by name, integers strict or loose as each member is), and writing JSON as TensorStore
 * writes it (nlohmann::json's `dump()`: keys sorted, no spaces, floats always with a point or an
 * exponent, exponents of at least two digits).
 */
import { JsonFloat, type JsonValue } from "./json-value.js";
import { SpecError, SpecUnsupportedError } from "./spec-errors.js";

/** `a.b` from `a` and `b`; `b` alone at the top. */
export const memberPath = (parent: string, name: string): string => (parent === "" ? name : `${parent}.${name}`);

export type JsonObjectValue = { readonly [key: string]: JsonValue };

export const isObject = (j: JsonValue | undefined): j is JsonObjectValue =>
  typeof j === "object" && j !== null && !Array.isArray(j) && !(j instanceof JsonFloat);

export const isNumber = (j: JsonValue | undefined): j is number | bigint | JsonFloat =>
  typeof j === "number" || typeof j === "bigint" || j instanceof JsonFloat;

/** The number a JSON number holds (a bigint for integers past 2^53). */
export const numberOf = (j: number | bigint | JsonFloat): number | bigint => (j instanceof JsonFloat ? j.value : j);

/** Whether `j` is written as an integer (no fraction, no exponent) rather than as a float. */
export const isIntegerToken = (j: JsonValue | undefined): boolean =>
  typeof j === "bigint" || (typeof j === "number" && Number.isInteger(j));

/** The members of one JSON object of a spec, taken one by one; `done()` refuses whatever was not taken. */
export class Members {
  readonly #json: JsonObjectValue;
  readonly #taken = new Set<string>();
  readonly path: string;

  constructor(json: JsonValue | undefined, path: string) {
    if (!isObject(json))
      throw new SpecError(`Expected object, but received: ${dumpJson(json ?? null)}`, { member: path || undefined });
    this.#json = json;
    this.path = path;
  }

  /** The member `name` (undefined when absent), marked as read. */
  take(name: string): JsonValue | undefined {
    this.#taken.add(name);
    return Object.hasOwn(this.#json, name) ? this.#json[name] : undefined;
  }

  has(name: string): boolean {
    return Object.hasOwn(this.#json, name);
  }

  /** The object itself. */
  get json(): JsonObjectValue {
    return this.#json;
  }

  /** Whether member `name` was taken already. */
  taken(name: string): boolean {
    return this.#taken.has(name);
  }

  /** The dotted path of member `name`. */
  at(name: string): string {
    return memberPath(this.path, name);
  }

  /** Refuses the members nobody took, naming them, as TensorStore does ("Object includes extra members"). */
  done(): void {
    const extra = Object.keys(this.#json).filter((k) => !this.#taken.has(k));
    if (extra.length > 0) {
      throw new SpecError(`Object includes extra members: ${extra.map((k) => JSON.stringify(k)).join(",")}`, {
        member: memberPath(this.path, extra[0]!),
      });
    }
  }
}

/** `Expected <what>, but received: <json>` as TensorStore words it. */
export const expected = (what: string, j: JsonValue, member: string): SpecError =>
  new SpecError(`Expected ${what}, but received: ${dumpJson(j)}`, { member });

/**
 * An integer in [min, max] as TensorStore's `JsonRequireInteger` reads one: a JSON integer, or a
 * float with an integral value; with `strict` false also a string of digits.
 */
export function requireInteger(
  j: JsonValue,
  member: string,
  min: number | bigint,
  max: number | bigint,
  strict = true,
): number {
  const value = integerValue(j, strict);
  if (value !== undefined && value >= BigInt(min) && value <= BigInt(max)) {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
      // TensorStore takes it; this library counts in doubles.
      throw new SpecUnsupportedError(`${value} is beyond the integers this library holds exactly (2^53)`, { member });
    return Number(value);
  }
  throw new SpecError(`Expected integer in the range [${min}, ${max}], but received: ${dumpJson(j)}`, { member });
}

/** A JSON value as a 64-bit integer as `JsonValueAs<int64_t>` reads it, or undefined. */
export function integerValue(j: JsonValue, strict: boolean): bigint | undefined {
  if (typeof j === "bigint") return j;
  if (typeof j === "number" || j instanceof JsonFloat) {
    const x = numberOf(j) as number;
    return Number.isFinite(x) && Math.floor(x) === x && Math.abs(x) <= 2 ** 64 ? BigInt(x) : undefined;
  }
  if (!strict && typeof j === "string" && /^\s*[-+]?[0-9]+\s*$/.test(j)) return BigInt(j.trim());
  return undefined;
}

/** A JSON value as a double as `JsonValueAs<double>` reads it (strings too unless strict), or undefined. */
export function doubleValue(j: JsonValue, strict: boolean): number | undefined {
  if (isNumber(j)) return Number(numberOf(j));
  if (!strict && typeof j === "string") return simpleAtod(j);
  return undefined;
}

/** absl::SimpleAtod: a decimal or hex float, `inf`, `infinity`, `nan` (any case), surrounding spaces allowed. */
export function simpleAtod(text: string): number | undefined {
  const s = text.trim();
  const m = /^([-+]?)(inf|infinity|nan)$/i.exec(s);
  if (m) return /^nan$/i.test(m[2]!) ? Number.NaN : m[1] === "-" ? -Infinity : Infinity;
  if (/^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/.test(s)) return Number(s);
  return undefined;
}

/** A boolean member (strict: no strings). */
export function requireBoolean(j: JsonValue, member: string): boolean {
  if (typeof j === "boolean") return j;
  throw expected("boolean", j, member);
}

export function requireString(j: JsonValue, member: string): string {
  if (typeof j === "string") return j;
  throw expected("string", j, member);
}

export function requireArray(j: JsonValue, member: string): readonly JsonValue[] {
  if (Array.isArray(j)) return j;
  throw expected("array", j, member);
}

// --- writing ------------------------------------------------------------------------------------

/**
 * JSON text as nlohmann::json's `dump()` writes it, which is what TensorStore writes into
 * `.zarray`: object keys in byte order, no whitespace, integers as digits, and floats (`JsonFloat`,
 * or a number that is not an integer) as the shortest digits that read back, with `.0` on integral
 * values and an exponent (`1e+20`, `1e-05`) outside 10^-5 .. 10^15.
 */
export function dumpJson(value: JsonValue | undefined): string {
  if (value === undefined) return "<missing>";
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : dumpFloat(value);
  if (value instanceof JsonFloat) return dumpFloat(value.value);
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(dumpJson).join(",")}]`;
  const keys = Object.keys(value).sort(byteOrder);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${dumpJson((value as JsonObjectValue)[k])}`).join(",")}}`;
}

/** std::map<std::string> order: UTF-8 bytes, which for strings without surrogates is code point order. */
const byteOrder = (a: string, b: string): number => {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};

/** A double as nlohmann::json writes it (`NaN`/infinities, which TensorStore never writes as numbers, as `null`). */
export function dumpFloat(x: number): string {
  if (!Number.isFinite(x)) return "null";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa = "", exponent = "0"] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const k = digits.length;
  // value = 0.<digits> x 10^n
  const n = Number(exponent) + 1;
  if (k <= n && n <= 15) return `${sign}${digits}${"0".repeat(n - k)}.0`;
  if (n > 0 && n <= 15) return `${sign}${digits.slice(0, n)}.${digits.slice(n)}`;
  if (n > -4 && n <= 0) return `${sign}0.${"0".repeat(-n)}${digits}`;
  const e = n - 1;
  const lead = k === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${sign}${lead}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}
