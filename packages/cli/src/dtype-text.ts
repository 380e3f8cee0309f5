import { dataTypeToJSON, numpyName, type DataType } from "@z/meta";

/**
 * numpy's `dtype.name` for simple dtypes (`int32`, `float64`, `datetime64[10s]`, `bytes24`; the
 * byte order is not part of it) and `str(dtype)` for structured ones.
 */
export function numpyDtypeName(dtype: DataType): string {
  if (dtype.kind === "structured") return numpyName(dtype);
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
    case "m": {
      const base = dtype.kind === "M" ? "datetime64" : "timedelta64";
      return dtype.unit === undefined || dtype.unit === "generic" ? base : `${base}[${dtype.unit}]`;
    }
    case "S":
      return `bytes${bits}`;
    case "U":
      return `str${bits}`;
    case "V":
      return `void${bits}`;
    case "O":
      return "object";
  }
}

/** The dtype as `.zarray` writes it, as text for messages: `<f8`, or the descr list as JSON. */
export function dtypeText(dtype: DataType): string {
  const json = dataTypeToJSON(dtype);
  return typeof json === "string" ? json : JSON.stringify(json);
}
