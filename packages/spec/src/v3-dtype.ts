/*
 * Data types as TensorStore's zarr3 driver reads and writes them (tensorstore/driver/zarr3/dtype.cc):
 * a zarr v3 `data_type` names the TensorStore data type of the same name (`"uint16"`, `"bfloat16"`,
 * `"float8_e4m3fn"`, `"int4"`). TensorStore 0.1.85 also reads `r<N>` raw bits and the `struct`,
 * `structured` and `raw_bytes` types, which it opens through extra dimensions or a `field`; this
 * library opens those through its own `openArray`, not through a spec.
 */
import type { JsonValue } from "@z/meta";
import { SpecError, SpecUnsupportedError } from "./errors.js";
import { isObject, type JsonObjectValue } from "./json.js";
import { TS_DTYPES, tsDtypeSize, type TsDataType } from "./dtype.js";

/** TensorStore's data types a zarr3 array cannot have (zarr2's `|S`/`|V` characters and bytes, its JSON and strings). */
const NOT_ZARR3: ReadonlySet<string> = new Set(["char", "byte", "string", "ustring", "json"]);

/** The TensorStore data types a zarr3 array can have, in TensorStore's order (its messages list them so). */
export const ZARR3_DTYPES: readonly TsDataType[] = TS_DTYPES.filter((name) => !NOT_ZARR3.has(name));

export const isZarr3DataType = (name: string): name is TsDataType => (ZARR3_DTYPES as readonly string[]).includes(name);

const SUPPORTED = ZARR3_DTYPES.join(", ");

/** TensorStore's `ValidateDataType`: the driver's check of a schema `dtype` (no `char`, `byte`, strings or JSON). */
export function validateZarr3DataType(dtype: TsDataType, member: string): void {
  if (!isZarr3DataType(dtype))
    throw new SpecError(`${dtype} data type is not one of the supported data types: ${SUPPORTED}`, { member });
}

const unsupported = (what: string, member: string): SpecUnsupportedError =>
  new SpecUnsupportedError(
    `${what} data types are not supported in zarr3 specs by this library (TensorStore opens them through extra dimensions or a "field"); open the array with openArray`,
    { member },
  );

/** TensorStore's `ParseBaseDType`: one data type name. */
function parseBaseName(name: string, member: string): TsDataType {
  if (isZarr3DataType(name)) return name;
  if (name.startsWith("r")) {
    if (!/^[0-9]+$/.test(name.slice(1)) || Number(name.slice(1)) === 0 || Number(name.slice(1)) % 8 !== 0)
      throw new SpecError(`${name} data type is invalid; expected r<N> where N is a positive multiple of 8`, {
        member,
      });
    throw unsupported(`raw bits (${JSON.stringify(name)})`, member);
  }
  throw new SpecError(`${name} data type is not one of the supported data types: ${SUPPORTED}, r<N>`, { member });
}

/** TensorStore's `ParseDType`: a `data_type` member (of `metadata` or of a stored `zarr.json`). */
export function parseZarr3DataType(j: JsonValue, member: string): TsDataType {
  if (typeof j === "string") return parseBaseName(j, member);
  if (!isObject(j)) throw unsupported("structured (a list of fields)", member);
  const o = j as JsonObjectValue;
  if (Object.hasOwn(o, "name") && Object.hasOwn(o, "configuration")) {
    const name = o.name;
    if (typeof name !== "string")
      throw new SpecError(`Expected string, but received: ${JSON.stringify(name)}`, { member: `${member}.name` });
    if (name === "struct" || name === "structured" || name === "raw_bytes") throw unsupported(`"${name}"`, member);
    // TensorStore reads any other named type by its name alone.
    return parseBaseName(name, member);
  }
  throw new SpecError(
    `Expected string, array, or object with 'name' and 'configuration', but received: ${JSON.stringify(j)}`,
    { member },
  );
}

/**
 * Bytes of one element as the `bytes` codec stores it: `tsDtypeSize`, where int2/int4 and the 8-
 * and 4-bit floats take a byte, and so do the variable-length types (never stored by `bytes`).
 */
export const zarr3ItemSize = (dtype: TsDataType): number => tsDtypeSize(dtype) || 1;
