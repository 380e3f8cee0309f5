/*
 * Config fields and helpers shared by the numcodecs filters (internal to the package).
 */
import { JsonFloat, type JsonValue } from "@z/meta";
import type { ConfigSchema, ConfigValues } from "./config-schema.js";
import { dtype, field, FieldMismatch, type Field } from "./config-schema.js";
import type { CodecCreateContext, DefinedCodec } from "./define-codec.js";
import { numericType, type NumericType, type PyScalar } from "./numeric.js";

const NUMERIC_EXPECTED = "a NumPy boolean, integer or float dtype such as '<i4', '|u1' or '<f8'";
const FLOAT_EXPECTED = "a NumPy float dtype: '<f2', '<f4' or '<f8' (or '>' big-endian)";

function restricted(
  expected: string,
  accept: (type: NumericType) => boolean,
  defaultValue?: string,
): Field<string, boolean> {
  const base = dtype();
  return field<string>({
    kind: "dtype",
    expected,
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
    parse(value) {
      let normal: string;
      try {
        normal = base.parse(value);
      } catch {
        throw new FieldMismatch(expected, value);
      }
      const type = numericType(normal);
      if (type === undefined || !accept(type)) throw new FieldMismatch(expected, value);
      return normal;
    },
  });
}

/** A dtype the filters compute with: `b1`, `i1`–`i8`, `u1`–`u8`, `f2`–`f8`, either byte order. */
export function numericDtype(options: { readonly default: string }): Field<string, true>;
export function numericDtype(): Field<string, false>;
export function numericDtype(options: { readonly default?: string } = {}): Field<string, boolean> {
  return restricted(NUMERIC_EXPECTED, () => true, options.default);
}

/** A float dtype (`quantize` takes nothing else). */
export function floatDtype(): Field<string, false> {
  return restricted(FLOAT_EXPECTED, (type) => type.kind === "f") as Field<string, false>;
}

/** The numeric type of a dtype string a numeric field has accepted. */
export function typeOf(dtypeString: string): NumericType {
  const type = numericType(dtypeString);
  if (type === undefined) throw new TypeError(`not a numeric dtype: ${dtypeString}`);
  return type;
}

/**
 * A number kept as Python has it: an `int` (a JSON integer, a bigint) or a `float` (a JSON number
 * with a fraction or exponent, which arrives as a `JsonFloat` or a non-integral number). numcodecs
 * writes it back unchanged and NumPy computes with it by value, so the distinction matters.
 */
export type PyNumber = number | bigint | JsonFloat;

/** A required Python `int` or `float` parameter (numcodecs' `scale` and `offset`). */
export function pyNumber(): Field<PyNumber, false> {
  const expected = "a number";
  return field<PyNumber>({
    kind: "number",
    expected,
    parse(value) {
      if (typeof value === "number" || typeof value === "bigint" || value instanceof JsonFloat) return value;
      throw new FieldMismatch(expected, value);
    },
    serialize: (value) => value as JsonValue,
  }) as Field<PyNumber, false>;
}

/** The Python scalar a `PyNumber` stands for. */
export function pyScalar(value: PyNumber): PyScalar {
  if (value instanceof JsonFloat) return { float: true, value: value.value };
  if (typeof value === "bigint") return { float: false, value };
  return Number.isInteger(value) ? { float: false, value: BigInt(value) } : { float: true, value };
}

/**
 * Wraps a codec whose config has fields that default to other fields' values (numcodecs writes
 * `astype` as `dtype` when it was left out): `fill` completes the parsed values, so that `toJSON()`
 * writes what numcodecs' `get_config()` writes.
 */
export function withDerivedDefaults<S extends ConfigSchema>(
  codec: DefinedCodec<S>,
  fill: (values: ConfigValues<S>, context: CodecCreateContext) => ConfigValues<S>,
): DefinedCodec<S> {
  const parse = (config?: unknown, context: CodecCreateContext = {}): ConfigValues<S> =>
    Object.freeze(fill(codec.parse(config, context), context));
  return Object.freeze({
    id: codec.id,
    schema: codec.schema,
    parse,
    create: (config?: unknown, context: CodecCreateContext = {}) =>
      codec.create(parse(config, context) as Parameters<DefinedCodec<S>["create"]>[0], context),
  });
}
