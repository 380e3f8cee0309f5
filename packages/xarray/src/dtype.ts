import { dtypeName, type DataType, type TypedArray } from "@z/meta";
import { DatasetError } from "./errors.js";

/**
 * NumPy's kind characters of the dtypes a variable's values can have: `b` bool, `i`/`u` integers,
 * `f` floats, `c` complex, `M` datetime64, `m` timedelta64, `S` bytes, `U` unicode, `O` objects.
 */
export type Kind = "b" | "i" | "u" | "f" | "c" | "M" | "m" | "S" | "U" | "O";

/**
 * The name NumPy prints for the dtype of values in native (little-endian) order, as
 * `str(values.dtype)` gives it: `int16`, `float32`, `bool`, `datetime64[ns]`, `<U4`, `|S2`, `object`.
 */
export function valuesDtype(dtype: DataType, path: string): string {
  if (dtype.kind === "structured" || dtype.kind === "V" || dtype.kind === "x")
    throw new DatasetError(
      `${path}: xarray reads no ${dtype.kind === "x" ? dtype.extension : "structured or void"} arrays`,
      {
        variable: path,
      },
    );
  if (dtype.kind === "S") return `|S${dtype.itemsize}`;
  if (dtype.kind === "U") return `<U${dtype.itemsize / 4}`;
  return dtypeName(dtype);
}

/** The kind character of a dtype name (see {@link valuesDtype}). */
export function kindOf(dtype: string): Kind {
  if (dtype === "bool") return "b";
  if (dtype === "object") return "O";
  if (dtype.startsWith("|S")) return "S";
  if (dtype.startsWith("<U")) return "U";
  if (dtype.startsWith("datetime64")) return "M";
  if (dtype.startsWith("timedelta64")) return "m";
  if (dtype.startsWith("uint")) return "u";
  if (dtype.startsWith("int")) return "i";
  if (dtype.startsWith("float")) return "f";
  if (dtype.startsWith("complex")) return "c";
  throw new TypeError(`unknown dtype name ${dtype}`);
}

/** Bytes per element of a dtype name (characters times 4 for `<U`; 8 for objects, as NumPy says). */
export function itemsizeOf(dtype: string): number {
  const kind = kindOf(dtype);
  if (kind === "b") return 1;
  if (kind === "O" || kind === "M" || kind === "m") return 8;
  if (kind === "S") return Number(dtype.slice(2));
  if (kind === "U") return Number(dtype.slice(2)) * 4;
  return Number(/\d+$/.exec(dtype)![0]) / 8;
}

/** The typed array of a numeric dtype name's values (float16 as its bits, complex interleaved). */
export function numericArray(dtype: string, length: number): TypedArray {
  switch (dtype) {
    case "bool":
    case "uint8":
      return new Uint8Array(length);
    case "int8":
      return new Int8Array(length);
    case "int16":
      return new Int16Array(length);
    case "uint16":
    case "float16":
      return new Uint16Array(length);
    case "int32":
      return new Int32Array(length);
    case "uint32":
      return new Uint32Array(length);
    case "int64":
    case "datetime64[ns]":
    case "timedelta64[ns]":
      return new BigInt64Array(length);
    case "uint64":
      return new BigUint64Array(length);
    case "float32":
      return new Float32Array(length);
    case "float64":
      return new Float64Array(length);
    case "complex64":
      return new Float32Array(length * 2);
    case "complex128":
      return new Float64Array(length * 2);
    default:
      throw new TypeError(`no typed array for dtype ${dtype}`);
  }
}

/** The numeric dtype name of an integer kind and size (`int16`, `uint8`). */
export const intDtype = (kind: "i" | "u", itemsize: number): string => `${kind === "u" ? "u" : ""}int${itemsize * 8}`;
