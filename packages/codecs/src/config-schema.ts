import { JsonFloat, type CodecConfig, type JsonValue } from "@z/meta";
import { describeValue } from "./describe-value.js";
import { CodecConfigError } from "./errors.js";

export { describeValue };

/*
 * A codec declares its JSON config once, as an object of fields in the order numcodecs'
 * `get_config()` writes them:
 *
 *     const zlibConfig = { level: integer({ min: -1, max: 9, default: 1 }) };
 *
 * and gets from it: validation with errors naming the codec and the field (`parseConfig`),
 * defaults, the TypeScript type of the parsed config (`ConfigValues<typeof zlibConfig>`), and the
 * exact `{ id, ...fields }` object that goes back into `.zarray` (`serializeConfig`).
 */

/**
 * One field of a codec config. `T` is the parsed value; `Omittable` is `true` when the key may be
 * left out of a config (the field has a default, or is `optional`).
 */
export interface Field<T = unknown, Omittable extends boolean = boolean> {
  /** `integer`, `number`, `string`, `boolean`, `dtype`, `list`, `object`, `json`, or a custom kind. */
  readonly kind: string;
  /** What the field accepts, for error messages: `an integer from -1 to 9`. */
  readonly expected: string;
  /** Whether the key may be left out of a config. */
  readonly omittable: Omittable;
  /** The value a left-out key takes (`undefined` for an `optional` field, or a field with no default). */
  readonly default: T | undefined;
  /** Checks a JSON value and converts it; throws `FieldMismatch` when it does not fit. */
  parse(value: JsonValue): T;
  /** The JSON written for a value, or `undefined` to leave the key out of the config. */
  serialize(value: T): JsonValue | undefined;
}

/** A codec's config declaration: field name → field, in the order numcodecs writes the keys. */
// biome-ignore lint/suspicious/noExplicitAny: a field of any value type; each codec's schema narrows it
export type ConfigSchema = { readonly [key: string]: Field<any, boolean> };

/** The parsed value of a field. */
export type FieldValue<F> = F extends Field<infer T, boolean> ? T : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
// biome-ignore lint/suspicious/noExplicitAny: matches an omittable field of any value type
type OmittableKeys<S> = { [K in keyof S]: S[K] extends Field<any, true> ? K : never }[keyof S];

/** A parsed config: every field present (defaults filled), with its TypeScript type. */
export type ConfigValues<S extends ConfigSchema> = Simplify<{ readonly [K in keyof S]: FieldValue<S[K]> }>;

/** What a caller may pass: fields with a default, and optional ones, may be left out. */
export type ConfigInput<S extends ConfigSchema> = Simplify<
  { readonly [K in Exclude<keyof S, OmittableKeys<S>>]: FieldValue<S[K]> } & {
    readonly [K in OmittableKeys<S>]?: FieldValue<S[K]>;
  }
>;

/**
 * Thrown by `Field.parse` when a value does not fit; `parseConfig` turns it into a
 * `CodecConfigError` naming the codec and the field. Custom fields throw it too.
 */
export class FieldMismatch extends Error {
  /** Path inside the field's value (list indices, object keys), outermost first. */
  readonly path: (string | number)[];

  constructor(
    readonly expected: string,
    readonly actual: JsonValue | undefined,
    path: readonly (string | number)[] = [],
  ) {
    super(`expected ${expected}, got ${describeValue(actual)}`);
    this.name = "FieldMismatch";
    this.path = [...path];
  }

  /** The same mismatch, seen from the container holding the value at `prefix`. */
  within(...prefix: (string | number)[]): FieldMismatch {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as FieldMismatch;
    Object.assign(copy, this, { path: [...prefix, ...this.path] });
    copy.message = this.message;
    copy.stack = this.stack;
    return copy;
  }
}

/** A key that the config declaration does not have. */
export class UnknownField extends FieldMismatch {
  constructor(known: readonly string[], actual: JsonValue | undefined, path: readonly (string | number)[]) {
    super(known.length === 0 ? "no parameters" : `one of the keys ${known.join(", ")}`, actual, path);
    this.name = "UnknownField";
  }
}

interface FieldSpec<T> {
  kind: string;
  expected: string;
  parse(value: JsonValue): T;
  serialize?(value: T): JsonValue | undefined;
  default?: T | undefined;
  omittable?: boolean;
}

/**
 * Builds a field of your own kind, for configs the built-in kinds do not cover. `parse` throws
 * `FieldMismatch` for values that do not fit.
 */
export function field<T>(spec: FieldSpec<T> & { default: T }): Field<T, true>;
export function field<T>(spec: FieldSpec<T>): Field<T, false>;
export function field<T>(spec: FieldSpec<T>): Field<T, boolean> {
  const omittable = spec.omittable ?? spec.default !== undefined;
  return Object.freeze({
    kind: spec.kind,
    expected: spec.expected,
    omittable,
    default: spec.default,
    parse: spec.parse,
    serialize: spec.serialize ?? ((value: T) => value as JsonValue),
  });
}

function checkDefault<T>(f: Field<T, boolean>, name: string): Field<T, boolean> {
  if (f.default !== undefined && f.default !== null) {
    // A default that its own field rejects is a bug in the declaration: fail where it is made.
    try {
      f.parse(f.serialize(f.default) as JsonValue);
    } catch (error) {
      throw new TypeError(`${name} field: default ${describeValue(f.default as JsonValue)} is not ${f.expected}`, {
        cause: error,
      });
    }
  }
  return f;
}

// ---------------------------------------------------------------------------------------------
// Numbers

interface RangeOptions<T> {
  readonly min?: number;
  readonly max?: number;
  readonly default?: T;
}

function rangeText(noun: string, min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
  if (min !== undefined) return `${noun} >= ${min}`;
  if (max !== undefined) return `${noun} <= ${max}`;
  return noun;
}

function toNumber(value: JsonValue): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (value instanceof JsonFloat) return value.value;
  return undefined;
}

/**
 * An integer in an optional range. Like Python's `int` parameters it refuses floats, even `1.0`
 * (a JSON `1.0` parsed with `keepFloats`), and booleans.
 */
export function integer(options: RangeOptions<number> & { readonly default: number }): Field<number, true>;
export function integer(options?: RangeOptions<number>): Field<number, false>;
export function integer(options: RangeOptions<number> = {}): Field<number, boolean> {
  const { min, max } = options;
  const expected = rangeText("an integer", min, max);
  return checkDefault(
    field<number>({
      kind: "integer",
      expected,
      default: options.default,
      parse(value) {
        const n = typeof value === "number" || typeof value === "bigint" ? Number(value) : undefined;
        if (n === undefined || !Number.isSafeInteger(n)) throw new FieldMismatch(expected, value);
        if ((min !== undefined && n < min) || (max !== undefined && n > max)) throw new FieldMismatch(expected, value);
        return n;
      },
    }),
    "integer",
  );
}

/**
 * A number in an optional range. With `float: true` it is written the way Python writes a float
 * (`10.0`, not `10`), for parameters numcodecs stores as floats.
 */
export function number(
  options: RangeOptions<number> & { readonly float?: boolean; readonly default: number },
): Field<number, true>;
export function number(options?: RangeOptions<number> & { readonly float?: boolean }): Field<number, false>;
export function number(options: RangeOptions<number> & { readonly float?: boolean } = {}): Field<number, boolean> {
  const { min, max } = options;
  const expected = rangeText("a number", min, max);
  return checkDefault(
    field<number>({
      kind: "number",
      expected,
      default: options.default,
      parse(value) {
        const n = toNumber(value);
        if (n === undefined || Number.isNaN(n)) throw new FieldMismatch(expected, value);
        if ((min !== undefined && n < min) || (max !== undefined && n > max)) throw new FieldMismatch(expected, value);
        return n;
      },
      serialize: (value) => (options.float ? new JsonFloat(value) : value),
    }),
    "number",
  );
}

// ---------------------------------------------------------------------------------------------
// Strings, booleans, dtypes

interface StringOptions<T extends string> {
  /** The only values allowed. */
  readonly enum?: readonly T[];
  /** A pattern the whole string must match (ignored when `enum` is given). */
  readonly pattern?: RegExp;
  /** Describes `pattern` in error messages, e.g. `a hex colour`. */
  readonly description?: string;
  readonly default?: T;
}

/** A string, optionally one of `enum` (its type narrows to the union of the values). */
export function string<const T extends string>(
  options: StringOptions<T> & { readonly enum: readonly T[]; readonly default: T },
): Field<T, true>;
export function string<const T extends string>(
  options: StringOptions<T> & { readonly enum: readonly T[] },
): Field<T, false>;
export function string(options: StringOptions<string> & { readonly default: string }): Field<string, true>;
export function string(options?: StringOptions<string>): Field<string, false>;
export function string(options: StringOptions<string> = {}): Field<string, boolean> {
  const { enum: values, pattern } = options;
  const expected = values
    ? `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`
    : (options.description ?? (pattern ? `a string matching ${String(pattern)}` : "a string"));
  return checkDefault(
    field<string>({
      kind: "string",
      expected,
      default: options.default,
      parse(value) {
        if (typeof value !== "string") throw new FieldMismatch(expected, value);
        if (values ? !values.includes(value) : pattern && !wholeMatch(pattern, value)) {
          throw new FieldMismatch(expected, value);
        }
        return value;
      },
    }),
    "string",
  );
}

function wholeMatch(pattern: RegExp, value: string): boolean {
  const match = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, "")).exec(value);
  return match !== null && match.index === 0 && match[0].length === value.length;
}

/** `true` or `false`. */
export function boolean(options: { readonly default: boolean }): Field<boolean, true>;
export function boolean(options?: { readonly default?: boolean }): Field<boolean, false>;
export function boolean(options: { readonly default?: boolean } = {}): Field<boolean, boolean> {
  return field<boolean>({
    kind: "boolean",
    expected: "true or false",
    default: options.default,
    parse(value) {
      if (typeof value !== "boolean") throw new FieldMismatch("true or false", value);
      return value;
    },
  });
}

const DTYPE_NAMES: Readonly<Record<string, string>> = {
  "?": "b1",
  bool: "b1",
  int8: "i1",
  int16: "i2",
  int32: "i4",
  int64: "i8",
  uint8: "u1",
  uint16: "u2",
  uint32: "u4",
  uint64: "u8",
  float16: "f2",
  float32: "f4",
  float64: "f8",
  complex64: "c8",
  complex128: "c16",
  object: "O",
};

const DTYPE_SIZES: Readonly<Record<string, readonly number[] | "any">> = {
  b: [1],
  i: [1, 2, 4, 8],
  u: [1, 2, 4, 8],
  f: [2, 4, 8, 16],
  c: [8, 16, 32],
  m: [8],
  M: [8],
  S: "any",
  U: "any",
  V: "any",
  O: [8],
};

const DTYPE_PATTERN = /^([<>=|]?)([biufcmMSUVO])(\d*)(\[(?:\d*)(?:Y|M|W|D|h|m|s|ms|us|μs|ns|ps|fs|as|generic)\])?$/;

/**
 * Normalises a NumPy type string the way `numpy.dtype(s).str` does, as numcodecs writes dtypes in
 * its configs (`int32` → `<i4`, `u1` → `|u1`, `=f8` → `<f8`); `undefined` if it is not one.
 */
export function normalizeDtype(text: string): string | undefined {
  const named = DTYPE_NAMES[text];
  const match = DTYPE_PATTERN.exec(named ?? text);
  if (!match) return undefined;
  const [, order = "", kind = "", digits = "", unit] = match;
  const sizes = DTYPE_SIZES[kind];
  let size = digits === "" ? undefined : Number(digits);
  if (size === undefined) {
    if (kind === "S" || kind === "U" || kind === "V") size = 0;
    else if (kind === "O" || kind === "m" || kind === "M") size = 8;
    else return undefined;
  }
  if (sizes !== "any" && !sizes?.includes(size)) return undefined;
  if (unit !== undefined && kind !== "m" && kind !== "M") return undefined;
  if (kind === "O") return "|O";
  const single = kind === "S" || kind === "V" || (kind !== "U" && size === 1);
  const byteOrder = single ? "|" : order === ">" ? ">" : "<";
  return `${byteOrder}${kind}${size}${unit ?? ""}`;
}

/** A NumPy dtype string (`<i4`, `int32`, `|u1`, `<M8[ns]`); parsed to numpy's normal form. */
export function dtype(options: { readonly default: string }): Field<string, true>;
export function dtype(options?: { readonly default?: string }): Field<string, false>;
export function dtype(options: { readonly default?: string } = {}): Field<string, boolean> {
  const expected = "a NumPy dtype string such as '<i4' or '|u1'";
  return checkDefault(
    field<string>({
      kind: "dtype",
      expected,
      default: options.default === undefined ? undefined : (normalizeDtype(options.default) ?? options.default),
      parse(value) {
        const normal = typeof value === "string" ? normalizeDtype(value) : undefined;
        if (normal === undefined) throw new FieldMismatch(expected, value);
        return normal;
      },
    }),
    "dtype",
  );
}

/** Any JSON value, passed through unchecked (for parameters with a shape of their own). */
export function json(options: { readonly default: JsonValue }): Field<JsonValue, true>;
export function json(options?: { readonly default?: JsonValue }): Field<JsonValue, false>;
export function json(options: { readonly default?: JsonValue } = {}): Field<JsonValue, boolean> {
  return field<JsonValue>({
    kind: "json",
    expected: "a JSON value",
    default: options.default,
    parse(value) {
      return value;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Wrappers and containers

/** The key may be left out; the parsed value is then `undefined` and the key is not written back. */
export function optional<T>(inner: Field<T, boolean>): Field<T | undefined, true> {
  return field<T | undefined>({
    kind: inner.kind,
    expected: inner.expected,
    omittable: true,
    default: undefined,
    parse: (value) => inner.parse(value),
    serialize: (value) => (value === undefined ? undefined : inner.serialize(value)),
  }) as Field<T | undefined, true>;
}

/**
 * `null` is allowed too (Python `None`), and is written back as `null`. The default is `options.default`
 * if given (often `null`), else the inner field's.
 */
export function nullable<T>(inner: Field<T, boolean>, options: { readonly default: T | null }): Field<T | null, true>;
export function nullable<T, O extends boolean>(inner: Field<T, O>): Field<T | null, O>;
export function nullable<T>(
  inner: Field<T, boolean>,
  options: { readonly default?: T | null } = {},
): Field<T | null, boolean> {
  const expected = `${inner.expected} or null`;
  const own = options.default !== undefined;
  return checkDefault(
    field<T | null>({
      kind: inner.kind,
      expected,
      omittable: own || inner.omittable,
      default: own ? options.default : inner.default,
      parse(value) {
        if (value === null) return null;
        try {
          return inner.parse(value);
        } catch (error) {
          if (error instanceof FieldMismatch && error.path.length === 0) throw new FieldMismatch(expected, value);
          throw error;
        }
      },
      serialize: (value) => (value === null ? null : (inner.serialize(value) ?? null)),
    }),
    "nullable",
  );
}

interface ListOptions<T> {
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly default?: readonly T[];
}

/** A JSON array whose items are all `item` (numcodecs writes tuples as lists too). */
export function list<T>(
  item: Field<T, boolean>,
  options: ListOptions<T> & { readonly default: readonly T[] },
): Field<readonly T[], true>;
export function list<T>(item: Field<T, boolean>, options?: ListOptions<T>): Field<readonly T[], false>;
export function list<T>(item: Field<T, boolean>, options: ListOptions<T> = {}): Field<readonly T[], boolean> {
  const { minLength, maxLength } = options;
  const length =
    minLength !== undefined && minLength === maxLength
      ? ` of ${minLength} items`
      : minLength !== undefined && maxLength !== undefined
        ? ` of ${minLength} to ${maxLength} items`
        : minLength !== undefined
          ? ` of at least ${minLength} items`
          : maxLength !== undefined
            ? ` of at most ${maxLength} items`
            : "";
  const expected = `a list${length} of ${item.expected}`;
  return checkDefault(
    field<readonly T[]>({
      kind: "list",
      expected,
      default: options.default,
      parse(value) {
        if (!Array.isArray(value)) throw new FieldMismatch(expected, value);
        const items = value as readonly JsonValue[];
        if (
          (minLength !== undefined && items.length < minLength) ||
          (maxLength !== undefined && items.length > maxLength)
        ) {
          throw new FieldMismatch(expected, value);
        }
        return Object.freeze(
          items.map((entry, index) => {
            try {
              return item.parse(entry);
            } catch (error) {
              if (error instanceof FieldMismatch) throw error.within(index);
              throw error;
            }
          }),
        );
      },
      serialize: (value) => value.map((entry) => item.serialize(entry) ?? null),
    }),
    "list",
  );
}

/** A nested JSON object with fields of its own (unknown keys are refused, as at the top level). */
export function object<S extends ConfigSchema>(
  shape: S,
  options: { readonly default: ConfigInput<S> },
): Field<ConfigValues<S>, true>;
export function object<S extends ConfigSchema>(shape: S): Field<ConfigValues<S>, false>;
export function object<S extends ConfigSchema>(
  shape: S,
  options: { readonly default?: ConfigInput<S> } = {},
): Field<ConfigValues<S>, boolean> {
  const keys = Object.keys(shape);
  const expected = `an object with keys ${keys.map((k) => JSON.stringify(k)).join(", ")}`;
  const parse = (value: JsonValue): ConfigValues<S> => {
    if (!isPlainObject(value)) throw new FieldMismatch(expected, value);
    return parseFields(shape, value, []);
  };
  return field<ConfigValues<S>>({
    kind: "object",
    expected,
    default: options.default === undefined ? undefined : parse(options.default as JsonValue),
    parse,
    serialize: (value) => serializeFields(shape, value),
  });
}

// ---------------------------------------------------------------------------------------------
// Whole configs

function isPlainObject(value: unknown): value is { readonly [key: string]: JsonValue } {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof JsonFloat) &&
    !ArrayBuffer.isView(value)
  );
}

function parseFields<S extends ConfigSchema>(
  schema: S,
  config: { readonly [key: string]: JsonValue | undefined },
  ignore: readonly string[],
): ConfigValues<S> {
  for (const key of Object.keys(config)) {
    if (!ignore.includes(key) && !Object.hasOwn(schema, key) && config[key] !== undefined) {
      throw new UnknownField(Object.keys(schema), config[key], [key]);
    }
  }
  const values: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(schema)) {
    const value = Object.hasOwn(config, key) ? config[key] : undefined;
    if (value === undefined) {
      if (!f.omittable) throw new FieldMismatch(f.expected, undefined, [key]);
      values[key] = f.default;
      continue;
    }
    try {
      values[key] = f.parse(value);
    } catch (error) {
      if (error instanceof FieldMismatch) throw error.within(key);
      throw error;
    }
  }
  return Object.freeze(values) as ConfigValues<S>;
}

function serializeFields<S extends ConfigSchema>(schema: S, values: ConfigValues<S>): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  for (const [key, f] of Object.entries(schema)) {
    const value = (values as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const serialized = f.serialize(value);
    if (serialized !== undefined) out[key] = serialized;
  }
  return out;
}

/** `a.b[2].c` */
function formatPath(path: readonly (string | number)[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text === "" ? part : `.${part}`;
  }
  return text;
}

/**
 * Checks a config (`{"id": "zlib", "level": 5}`; `id` may be left out) against a codec's declaration
 * and returns its values with defaults filled. Throws `CodecConfigError` naming the codec, the field
 * and what was expected when a field is missing, of the wrong type or out of range, or unknown.
 */
export function parseConfig<S extends ConfigSchema>(
  codecId: string,
  schema: S,
  config: unknown,
  context: { readonly key?: string } = {},
): ConfigValues<S> {
  const where = context.key === undefined ? "" : ` in ${context.key}`;
  const fail = (message: string, extra: { field?: string; expected?: string } = {}): never => {
    throw new CodecConfigError(`invalid config for codec ${JSON.stringify(codecId)}${where}: ${message}`, {
      codecId,
      key: context.key,
      ...extra,
    });
  };
  if (config === undefined) config = {};
  if (!isPlainObject(config)) return fail(`expected a JSON object, got ${describeValue(config as JsonValue)}`);
  const id = config.id;
  if (id !== undefined && id !== codecId) {
    fail(`"id" is ${describeValue(id)}, expected ${JSON.stringify(codecId)}`, { field: "id" });
  }
  try {
    return parseFields(schema, config, ["id"]);
  } catch (error) {
    if (!(error instanceof FieldMismatch)) throw error;
    const name = formatPath(error.path);
    const missing = error.actual === undefined;
    if (missing)
      return fail(`missing required field "${name}" (${error.expected})`, { field: name, expected: error.expected });
    if (error instanceof UnknownField) {
      return fail(`unknown field "${name}" (the codec takes ${error.expected})`, {
        field: name,
        expected: error.expected,
      });
    }
    return fail(`field "${name}" must be ${error.expected}, got ${describeValue(error.actual)}`, {
      field: name,
      expected: error.expected,
    });
  }
}

/**
 * The config that goes into `.zarray`: `id` first, then the fields in declaration order (numcodecs'
 * `get_config()` order), optional fields left out when unset.
 */
export function serializeConfig<S extends ConfigSchema>(
  codecId: string,
  schema: S,
  values: ConfigValues<S>,
): CodecConfig {
  return { id: codecId, ...serializeFields(schema, values) };
}
