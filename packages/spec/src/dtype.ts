/*
 * Data types as TensorStore's zarr2 driver sees them (tensorstore/driver/zarr/dtype.cc): a `.zarray`
 * dtype is one or more fields, each a TensorStore data type ("uint16", "float32", "char", ...) with
 * a byte order and a field shape (a structured field's subarray shape, and for `|S<n>`/`|V<n>` the
 * n characters or bytes, which TensorStore holds as an innermost dimension of "char" or "byte").
 */
import { dataTypeFromUser, type DataType, type JsonValue } from "@z/meta";
import { SpecError, SpecUnsupportedError } from "./errors.js";
import { dumpJson } from "./json.js";

/** TensorStore's 8- and 4-bit float types (numpy has none: ml_dtypes names them). */
const SMALL_FLOATS = [
  "float8_e3m4",
  "float8_e4m3fn",
  "float8_e4m3fnuz",
  "float8_e4m3b11fnuz",
  "float8_e5m2",
  "float8_e5m2fnuz",
  "float8_e8m0fnu",
  "float4_e2m1fn",
] as const;

/** TensorStore's data type names. */
export const TS_DTYPES = [
  "bool",
  "char",
  "byte",
  "int2",
  "int4",
  "int8",
  "uint8",
  "int16",
  "uint16",
  "int32",
  "uint32",
  "int64",
  "uint64",
  ...SMALL_FLOATS,
  "float16",
  "bfloat16",
  "float32",
  "float64",
  "complex64",
  "complex128",
  "string",
  "ustring",
  "json",
] as const;
export type TsDataType = (typeof TS_DTYPES)[number];

export const isTsDataType = (name: string): name is TsDataType => (TS_DTYPES as readonly string[]).includes(name);

/** Bytes of one element of a TensorStore data type (0 for the variable-length ones). */
export function tsDtypeSize(dtype: TsDataType): number {
  switch (dtype) {
    case "bool":
    case "char":
    case "byte":
    case "int2":
    case "int4":
    case "int8":
    case "uint8":
    case "float4_e2m1fn":
      return 1;
    case "int16":
    case "uint16":
    case "float16":
    case "bfloat16":
      return 2;
    case "int32":
    case "uint32":
    case "float32":
      return 4;
    case "int64":
    case "uint64":
    case "float64":
    case "complex64":
      return 8;
    case "complex128":
      return 16;
    case "string":
    case "ustring":
    case "json":
      return 0;
    default:
      return 1; // the float8 types
  }
}

/** The value kind of a TensorStore data type, for conversions and fill values. */
export function tsDtypeKind(dtype: TsDataType): "bool" | "int" | "float" | "complex" | "byte" | "other" {
  if (dtype === "bool") return "bool";
  if (dtype === "char" || dtype === "byte") return "byte";
  if (/^u?int/.test(dtype)) return "int";
  if (dtype.startsWith("float") || dtype === "bfloat16") return "float";
  if (dtype.startsWith("complex")) return "complex";
  return "other";
}

/** One field of a zarr dtype (a plain dtype has one, unnamed). */
export interface ZarrField {
  /** `""` for the one field of a plain dtype. */
  readonly name: string;
  /** The dtype as `.zarray` writes it (`<u2`, `|S5`, `bfloat16`). */
  readonly encoded: string;
  readonly dtype: TsDataType;
  /** `<`, `>`, or `|` where byte order does not apply. */
  readonly endian: "<" | ">" | "|";
  /** A structured field's subarray shape. */
  readonly outerShape: readonly number[];
  /** The outer shape, then `[n]` for `|S<n>`/`|V<n>`: the dimensions TensorStore appends. */
  readonly fieldShape: readonly number[];
  readonly byteOffset: number;
  readonly numBytes: number;
}

/** A zarr dtype as TensorStore holds it. */
export interface ZarrDType {
  /** False for a plain dtype string, true for a structured (list) dtype. */
  readonly hasFields: boolean;
  readonly fields: readonly ZarrField[];
  readonly bytesPerOuterElement: number;
}

const EXTENSIONS = ["bfloat16", ...SMALL_FLOATS, "int2", "int4"] as const;

interface BaseDType {
  encoded: string;
  dtype: TsDataType;
  endian: "<" | ">" | "|";
  flexible: number[];
}

/** TensorStore's `ParseBaseDType`: one dtype string of `.zarray`. */
export function parseBaseDType(text: string, member: string): BaseDType {
  if ((EXTENSIONS as readonly string[]).includes(text))
    return { encoded: text, dtype: text as TsDataType, endian: "<", flexible: [] };
  const error = (): SpecError => new SpecError(`Unsupported zarr dtype: ${JSON.stringify(text)}`, { member });
  if (text.length < 3) throw error();
  const e = text[0]!;
  const t = text[1]!;
  const suffix = text.slice(2);
  if (e !== "<" && e !== ">" && e !== "|") throw error();
  const sized = (table: Record<string, TsDataType>, endian: "<" | ">" | "|"): BaseDType => {
    const dtype = table[suffix];
    if (dtype === undefined) throw error();
    return { encoded: text, dtype, endian, flexible: [] };
  };
  switch (t) {
    case "b":
      if (suffix !== "1") throw error();
      return { encoded: text, dtype: "bool", endian: "|", flexible: [] };
    case "S":
    case "V": {
      if (!/^[0-9]*$/.test(suffix)) throw error();
      const n = Number(suffix);
      if (!Number.isSafeInteger(n)) throw error();
      return { encoded: text, dtype: t === "S" ? "char" : "byte", endian: "|", flexible: [n] };
    }
    case "i":
    case "u": {
      const table: Record<string, TsDataType> =
        t === "i"
          ? { 1: "int8", 2: "int16", 4: "int32", 8: "int64" }
          : { 1: "uint8", 2: "uint16", 4: "uint32", 8: "uint64" };
      if (e === "|" && suffix !== "1") throw error();
      return sized(table, suffix === "1" ? "|" : e);
    }
    case "f":
      if (e === "|") throw error();
      return sized({ 2: "float16", 4: "float32", 8: "float64" }, e);
    case "c":
      if (e === "|") throw error();
      return sized({ 8: "complex64", 16: "complex128" }, e);
    default:
      throw error();
  }
}

/** TensorStore's `ParseDType` + `ValidateDType`: the `dtype` member of `.zarray` (or of `metadata`). */
export function parseZarrDType(json: JsonValue, member: string): ZarrDType {
  if (typeof json === "string")
    return withLayout(false, [{ ...parseBaseDType(json, member), name: "", outer: [] }], member);
  if (!Array.isArray(json)) throw new SpecError(`Expected array, but received: ${dumpJson(json)}`, { member });
  const fields = json.map((f, i) => {
    const at = `${member}[${i}]`;
    if (!Array.isArray(f)) throw new SpecError(`Expected array, but received: ${dumpJson(f)}`, { member: at });
    if (f.length < 2 || f.length > 3)
      throw new SpecError(`Expected array of size 2 or 3, but received: ${dumpJson(f)}`, { member: at });
    const [name, dtype, shape] = f as [JsonValue, JsonValue, JsonValue | undefined];
    if (typeof name !== "string" || name === "")
      throw new SpecError(`Expected non-empty string, but received: ${dumpJson(name)}`, { member: `${at}[0]` });
    if (typeof dtype !== "string")
      throw new SpecError(`Expected string, but received: ${dumpJson(dtype)}`, { member: `${at}[1]` });
    let outer: number[] = [];
    if (shape !== undefined) {
      if (!Array.isArray(shape))
        throw new SpecError(`Expected array, but received: ${dumpJson(shape)}`, { member: `${at}[2]` });
      outer = shape.map((x, j) => {
        if ((typeof x === "number" && Number.isInteger(x) && x >= 1) || (typeof x === "bigint" && x >= 1n)) {
          if (Number(x) > Number.MAX_SAFE_INTEGER)
            throw new SpecError(
              `Expected integer in the range [1, 4611686018427387903], but received: ${dumpJson(x)}`,
              {
                member: `${at}[2][${j}]`,
              },
            );
          return Number(x);
        }
        throw new SpecError(`Expected integer in the range [1, 4611686018427387903], but received: ${dumpJson(x)}`, {
          member: `${at}[2][${j}]`,
        });
      });
    }
    return { ...parseBaseDType(dtype, `${at}[1]`), name, outer };
  });
  return withLayout(true, fields, member);
}

function withLayout(
  hasFields: boolean,
  fields: readonly (BaseDType & { name: string; outer: number[] })[],
  member: string,
): ZarrDType {
  let offset = 0;
  const out: ZarrField[] = [];
  for (const [i, f] of fields.entries()) {
    if (fields.slice(0, i).some((g) => g.name === f.name))
      throw new SpecError(`Field name ${JSON.stringify(f.name)} occurs more than once`, { member });
    const fieldShape = [...f.outer, ...f.flexible];
    const numBytes = fieldShape.reduce((a, b) => a * b, 1) * tsDtypeSize(f.dtype);
    if (!Number.isSafeInteger(numBytes) || !Number.isSafeInteger(offset + numBytes))
      throw new SpecError("Total number of bytes per outer array element is too large", { member });
    out.push({
      name: f.name,
      encoded: f.encoded,
      dtype: f.dtype,
      endian: f.endian,
      outerShape: f.outer,
      fieldShape,
      byteOffset: offset,
      numBytes,
    });
    offset += numBytes;
  }
  return { hasFields, fields: out, bytesPerOuterElement: offset };
}

/** The `dtype` member of `.zarray` for a zarr dtype. */
export function zarrDTypeToJson(dtype: ZarrDType): JsonValue {
  if (!dtype.hasFields) return dtype.fields[0]!.encoded;
  return dtype.fields.map((f) =>
    f.outerShape.length === 0 ? [f.name, f.encoded] : [f.name, f.encoded, [...f.outerShape]],
  );
}

/**
 * TensorStore's `ChooseBaseDType`: the `.zarray` dtype it writes for a schema data type when the
 * spec's `metadata` names none (little-endian, `|` for single bytes).
 */
export function chooseBaseDType(dtype: TsDataType, member: string): ZarrDType {
  const typestr: Partial<Record<TsDataType, string>> = {
    bool: "|b1",
    uint8: "|u1",
    uint16: "<u2",
    uint32: "<u4",
    uint64: "<u8",
    int8: "|i1",
    int16: "<i2",
    int32: "<i4",
    int64: "<i8",
    float16: "<f2",
    float32: "<f4",
    float64: "<f8",
    complex64: "<c8",
    complex128: "<c16",
  };
  const encoded = (EXTENSIONS as readonly string[]).includes(dtype) ? dtype : typestr[dtype];
  if (encoded === undefined) throw new SpecError(`Data type not supported: ${dtype}`, { member });
  return parseZarrDType(encoded, member);
}

/** The field `name` selects (TensorStore's `GetFieldIndex`); `""` selects the only field. */
export function fieldIndex(dtype: ZarrDType, name: string, member: string): number {
  const names = `[${dtype.fields.map((f) => JSON.stringify(f.name)).join(",")}]`;
  if (name === "") {
    if (dtype.fields.length !== 1) throw new SpecError(`Must specify a "field" that is one of: ${names}`, { member });
    return 0;
  }
  if (!dtype.hasFields)
    throw new SpecError(`Requested field ${JSON.stringify(name)} but dtype does not have named fields`, { member });
  const i = dtype.fields.findIndex((f) => f.name === name);
  if (i < 0) throw new SpecError(`Requested field ${JSON.stringify(name)} is not one of: ${names}`, { member });
  return i;
}

/** The z data type of a zarr dtype TensorStore accepted; the two formats z does not hold are refused. */
export function toZarrDataType(dtype: ZarrDType, member: string): DataType {
  for (const f of dtype.fields) {
    if (f.dtype === "float8_e8m0fnu" || f.dtype === "float4_e2m1fn")
      throw new SpecUnsupportedError(`data type ${f.dtype} is not supported by this library`, { member });
  }
  return dataTypeFromUser(zarrDTypeToJson(dtype));
}

/** TensorStore's `GetVoidField`: a whole element as its raw bytes (`open_as_void`). */
export function voidField(dtype: ZarrDType): ZarrField {
  const n = dtype.bytesPerOuterElement;
  return {
    name: "",
    encoded: `|V${n}`,
    dtype: "byte",
    endian: "|",
    outerShape: [],
    fieldShape: [n],
    byteOffset: 0,
    numBytes: n,
  };
}
