import type { DataType, SimpleDataType, StructuredDataType, StructuredField } from "./dtype-model.js";
import { DataTypeError } from "./errors.js";
import { JsonFloat, type JsonValue } from "./json-value.js";
import { parseTypestr, parseUserTypestr, typestr, type TypestrResult } from "./typestr.js";

export { typestr } from "./typestr.js";
export { dtypeName, numpyName } from "./dtype-name.js";

/** Above this NumPy 1.x refuses (its item sizes are C ints). */
const MAX_ITEMSIZE = 2 ** 31 - 1;

/**
 * Reads the `dtype` of a `.zarray`: a type string (`<f8`, `|b1`, `<M8[ns]`, `|S12`) or a structured
 * descr list, normalised as NumPy normalises it (zarr-python builds `np.dtype(...)` from it and
 * writes `dtype.str`/`dtype.descr` back): one-byte types and `S`/`V`/`O` get `|`, a missing, `=` or
 * misplaced `|` byte order becomes `<`, `M8[1s]` becomes `M8[s]`. Generic datetimes (`<M8`) are
 * read, as zarr-python reads them, although it refuses to create them.
 */
export function parseDataType(json: JsonValue, key?: string): DataType {
  return parseAny(json, key, parseTypestr);
}

/**
 * A dtype as a user passes it to `create`: what `parseDataType` reads, plus NumPy's names and
 * shorthands (`"f8"`, `"float32"`, `"int64"`, `"bool"`, `"datetime64[ns]"`, `"S10"`, `"?"`). Native
 * order is little-endian, as on every platform zarr-python runs on. As in zarr-python, datetimes
 * and timedeltas must name a unit.
 */
export function dataTypeFromUser(spec: string | JsonValue): DataType {
  const dtype = parseAny(spec, undefined, parseUserTypestr);
  if ((dtype.kind === "M" || dtype.kind === "m") && dtype.unit === "generic") {
    throw new DataTypeError(
      `Invalid dtype ${describe(spec)}: datetime64 and timedelta64 dtypes with generic units are not supported, please specify units (e.g. "M8[ns]")`,
    );
  }
  return dtype;
}

/**
 * The `dtype` zarr-python writes: `dtype.str` for a simple dtype, `dtype.descr` for a structured
 * one, where a field's shape appears only for subarrays and gaps between fields (which a parsed
 * dtype never has) are written as NumPy writes them, as unnamed `|V` fields.
 */
export function dataTypeToJSON(dtype: DataType): string | JsonValue[] {
  if (dtype.kind !== "structured") return typestr(dtype);
  const descr: JsonValue[] = [];
  let end = 0;
  for (const field of dtype.fields) {
    if (field.offset < end) {
      throw new DataTypeError("A structured dtype with overlapping or out-of-order fields has no descr to write");
    }
    if (field.offset > end) descr.push(["", `|V${field.offset - end}`]);
    const entry: JsonValue[] = [field.name, dataTypeToJSON(field.dtype)];
    if (field.shape.length > 0) entry.push([...field.shape]);
    descr.push(entry);
    end = field.offset + fieldSize(field);
  }
  if (dtype.itemsize > end) descr.push(["", `|V${dtype.itemsize - end}`]);
  return descr;
}

/** Whether two dtypes are the same, as NumPy's `==` compares them (names, types, layout). */
export function dataTypeEquals(a: DataType, b: DataType): boolean {
  if (a.kind === "structured" || b.kind === "structured") {
    if (a.kind !== "structured" || b.kind !== "structured") return false;
    return (
      a.itemsize === b.itemsize &&
      a.fields.length === b.fields.length &&
      a.fields.every((field, i) => {
        const other = b.fields[i]!;
        return (
          field.name === other.name &&
          field.offset === other.offset &&
          field.shape.length === other.shape.length &&
          field.shape.every((length, d) => length === other.shape[d]) &&
          dataTypeEquals(field.dtype, other.dtype)
        );
      })
    );
  }
  return (
    a.kind === b.kind &&
    a.byteOrder === b.byteOrder &&
    a.itemsize === b.itemsize &&
    a.unit === b.unit &&
    a.extension === b.extension
  );
}

/** Bytes taken by a field: its dtype's item size times the elements of its subarray shape. */
export function fieldSize(field: StructuredField): number {
  return field.shape.reduce((size, length) => size * length, field.dtype.itemsize);
}

type SimpleParser = (text: string) => TypestrResult;

function parseAny(json: JsonValue, key: string | undefined, parseSimple: SimpleParser): DataType {
  if (typeof json === "string") return parseSimpleOrThrow(json, key, parseSimple);
  if (Array.isArray(json)) return parseDescr(json as readonly JsonValue[], key, parseSimple, "");
  throw dtypeError(
    key,
    describe(json),
    'a type string such as "<f8" or a list of [name, dtype] or [name, dtype, shape] fields',
  );
}

function parseSimpleOrThrow(text: string, key: string | undefined, parseSimple: SimpleParser): SimpleDataType {
  const result = parseSimple(text);
  if (typeof result === "string") throw dtypeError(key, describe(text), result);
  return result;
}

/**
 * NumPy's rules for a descr list: fields are packed in order; a field named `""` is called `f<i>`
 * after its position (so zarr-python writes the padding fields of an aligned dtype back as `f1`…);
 * a shape given as a number `n` means `[n]`, except `1`, which NumPy 1.24 still reads as no shape.
 */
function parseDescr(
  list: readonly JsonValue[],
  key: string | undefined,
  parseSimple: SimpleParser,
  where: string,
): StructuredDataType {
  const fields: StructuredField[] = [];
  const names = new Set<string>();
  let offset = 0;
  list.forEach((entry, i) => {
    const at = `${where}[${i}]`;
    if (!Array.isArray(entry) || entry.length < 2 || entry.length > 3) {
      throw dtypeError(key, `field ${at} ${describe(entry)}`, "a field [name, dtype] or [name, dtype, shape]");
    }
    const [rawName, rawType, rawShape] = entry as readonly JsonValue[];
    if (typeof rawName !== "string") {
      throw dtypeError(
        key,
        `field name ${describe(rawName ?? null)} at ${at}`,
        "a string (titled fields are not supported)",
      );
    }
    const name = rawName === "" ? `f${i}` : rawName;
    if (names.has(name))
      throw dtypeError(key, `field name ${JSON.stringify(name)} at ${at}`, "field names that occur once");
    names.add(name);

    let dtype: DataType;
    if (typeof rawType === "string") dtype = parseSimpleOrThrow(rawType, key, parseSimple);
    else if (Array.isArray(rawType)) dtype = parseDescr(rawType as readonly JsonValue[], key, parseSimple, `${at}[1]`);
    else throw dtypeError(key, `field type ${describe(rawType ?? null)} at ${at}`, "a type string or a list of fields");
    if (dtype.kind === "O")
      throw dtypeError(key, `object field ${JSON.stringify(name)} at ${at}`, "fields of fixed-size types");
    if (dtype.kind === "x")
      throw dtypeError(
        key,
        `extension dtype field ${JSON.stringify(name)} at ${at}`,
        "fields of NumPy dtypes (TensorStore's extension dtypes are supported for whole arrays only)",
      );

    const shape = rawShape === undefined ? [] : parseShape(rawShape, key, at);
    const field: StructuredField = { name, dtype, shape, offset };
    offset += fieldSize(field);
    if (offset > MAX_ITEMSIZE)
      throw dtypeError(key, `structured dtype of ${offset}+ bytes`, `at most ${MAX_ITEMSIZE} bytes`);
    fields.push(field);
  });
  return { kind: "structured", itemsize: offset, fields };
}

function parseShape(json: JsonValue, key: string | undefined, at: string): number[] {
  const isLength = (value: JsonValue | undefined): value is number =>
    typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
  if (isLength(json)) return json === 1 ? [] : [json];
  if (Array.isArray(json) && json.every(isLength)) return [...(json as number[])];
  throw dtypeError(key, `field shape ${describe(json)} at ${at}`, "a list of non-negative integers");
}

function dtypeError(key: string | undefined, found: string, expected: string): DataTypeError {
  const where = key === undefined ? "" : ` in "${key}"`;
  return new DataTypeError(
    `Invalid dtype${where}: expected ${expected}, found ${found}`,
    key === undefined ? {} : { key },
  );
}

/** For error messages: any JSON value (bigints, nested lists, long strings), at most ~120 characters. */
function describe(value: JsonValue): string {
  if (value instanceof JsonFloat) return String(value.value);
  let text: string;
  if (Array.isArray(value)) {
    text = JSON.stringify(value, (_, v: unknown) =>
      typeof v === "bigint" ? v.toString() : v instanceof JsonFloat ? v.value : v,
    );
  } else if (typeof value === "object" && value !== null) {
    return "an object";
  } else if (typeof value === "string") {
    text = JSON.stringify(value);
  } else {
    return String(value);
  }
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
