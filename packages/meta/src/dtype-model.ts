/** `<` little-endian, `>` big-endian, `|` not applicable (single bytes, strings of bytes). */
export type ByteOrder = "<" | ">" | "|";

import type { ExtensionName } from "./extension-dtypes.js";

/**
 * NumPy kind characters of the simple dtypes Zarr v2 allows (`O` is the object dtype of vlen
 * arrays, and of Zarr v3's variable-length `string` and `bytes`), and `x` for the extension
 * dtypes of TensorStore and the Zarr v3 registry (bfloat16, the float8 formats, float4_e2m1fn,
 * int4, int2, uint4, uint2), which the v2 spec does not define: `extension` names which.
 */
export type SimpleKind = "b" | "i" | "u" | "f" | "c" | "m" | "M" | "S" | "U" | "V" | "O" | "x";

/** A dtype given by a type string such as `<f8`, `|b1`, `>M8[ns]`, `|S12`. */
export interface SimpleDataType {
  readonly kind: SimpleKind;
  readonly byteOrder: ByteOrder;
  /** Bytes per element (for `U`, four per character). */
  readonly itemsize: number;
  /** For `m`/`M` only: the unit as written between brackets, e.g. `ns`, `10s`, `generic`. */
  readonly unit?: string;
  /** For `x` only: which of TensorStore's extension dtypes, as `.zarray` names it (`"bfloat16"`, `"float8_e4m3fn"`, `"int4"`, ...). */
  readonly extension?: ExtensionName;
}

/** A field of a structured dtype. */
export interface StructuredField {
  readonly name: string;
  readonly dtype: DataType;
  /** Subarray shape; `[]` for a plain field. */
  readonly shape: readonly number[];
  /** Byte offset of the field inside one element. */
  readonly offset: number;
}

/** A structured dtype, written in `.zarray` as a NumPy descr list. */
export interface StructuredDataType {
  readonly kind: "structured";
  readonly itemsize: number;
  readonly fields: readonly StructuredField[];
}

export type DataType = SimpleDataType | StructuredDataType;
