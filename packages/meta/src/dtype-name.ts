import type { DataType, SimpleDataType, StructuredDataType } from "./dtype-model.js";
import { typestr } from "./typestr.js";
import { pythonStrRepr, pythonTupleRepr as tupleRepr } from "./python-repr.js";

/**
 * What NumPy 1.24 prints as `str(dtype)`, which zarr-python's `info` shows as "Data type": the name
 * for native-order numbers (`float64`, `int32`, `bool`, `datetime64[ns]`, `object`), the type string
 * for big-endian ones and for `S`/`U`/`V` (`>i4`, `|S5`, `<U3`), and the construction list for
 * structured dtypes (`[('a', '<i4'), ('b', 'u1', (2,))]`).
 */
export function numpyName(dtype: DataType): string {
  if (dtype.kind === "structured") return structStr(dtype);
  if (dtype.kind === "S" || dtype.kind === "U" || dtype.kind === "V" || dtype.byteOrder === ">") return typestr(dtype);
  return dtypeName(dtype);
}

/**
 * NumPy's `dtype.name` for a simple dtype: the byte order is not part of it (`int32`, `float64`,
 * `datetime64[10s]`, `bytes40`, `str96`, `void48`, `object`).
 */
export function dtypeName(dtype: SimpleDataType): string {
  const bits = dtype.itemsize * 8;
  switch (dtype.kind) {
    case "b":
      return "bool";
    case "i":
      return `int${bits}`;
    case "u":
      return `uint${bits}`;
    case "f":
      return `float${bits}`;
    case "c":
      return `complex${bits}`;
    case "M":
      return `datetime64${unitSuffix(dtype)}`;
    case "m":
      return `timedelta64${unitSuffix(dtype)}`;
    case "S":
      return `bytes${bits}`;
    case "U":
      return `str${bits}`;
    case "V":
      return `void${bits}`;
    case "O":
      return "object";
    case "x":
      return dtype.extension!;
  }
}

function unitSuffix(dtype: SimpleDataType): string {
  return dtype.unit === undefined || dtype.unit === "generic" ? "" : `[${dtype.unit}]`;
}

// NumPy's `_struct_str`: a list when the fields are packed in order (always so for parsed dtypes),
// otherwise the dict form with explicit offsets.
function structStr(dtype: StructuredDataType): string {
  return isPacked(dtype) ? structListStr(dtype) : structDictStr(dtype);
}

function isPacked(dtype: StructuredDataType): boolean {
  let end = 0;
  for (const field of dtype.fields) {
    if (field.offset !== end) return false;
    end += field.shape.reduce((size, length) => size * length, field.dtype.itemsize);
  }
  return end === dtype.itemsize;
}

function structListStr(dtype: StructuredDataType): string {
  const items = dtype.fields.map((field) => {
    const shape = field.shape.length > 0 ? `, ${tupleRepr(field.shape)}` : "";
    return `(${pythonStrRepr(field.name)}, ${constructionRepr(field.dtype)}${shape})`;
  });
  return `[${items.join(", ")}]`;
}

function structDictStr(dtype: StructuredDataType): string {
  const names = dtype.fields.map((field) => pythonStrRepr(field.name));
  const formats = dtype.fields.map((field) =>
    field.shape.length > 0
      ? `(${constructionRepr(field.dtype)}, ${tupleRepr(field.shape)})`
      : constructionRepr(field.dtype),
  );
  const offsets = dtype.fields.map((field) => String(field.offset));
  return `{'names': [${names.join(", ")}], 'formats': [${formats.join(", ")}], 'offsets': [${offsets.join(", ")}], 'itemsize': ${dtype.itemsize}}`;
}

// NumPy's `_construction_repr(dtype, short=True)`.
function constructionRepr(dtype: DataType): string {
  if (dtype.kind === "structured") return structStr(dtype);
  const order = dtype.byteOrder === "|" ? "" : dtype.byteOrder;
  const sized = (code: string, size: number): string => `'${code}${dtype.itemsize === 0 ? "" : size}'`;
  switch (dtype.kind) {
    case "b":
      return "'?'";
    case "O":
      return "'O'";
    case "x":
      return `'${dtype.extension!}'`;
    case "S":
      return sized("S", dtype.itemsize);
    case "V":
      return sized("V", dtype.itemsize);
    case "U":
      return sized(`${order}U`, dtype.itemsize / 4);
    case "M":
    case "m":
      return `'${order}${dtype.kind}8${unitSuffix(dtype)}'`;
    default:
      return `'${order}${dtype.kind}${dtype.itemsize}'`;
  }
}
