import { dataTypeToJSON, dtypeName, numpyName, type DataType } from "@z/meta";

/** numpy's `dtype.name` for simple dtypes, and `str(dtype)` for structured ones. */
export function numpyDtypeName(dtype: DataType): string {
  return dtype.kind === "structured" ? numpyName(dtype) : dtypeName(dtype);
}

/** The dtype as `.zarray` writes it, as text for messages: `<f8`, or the descr list as JSON. */
export function dtypeText(dtype: DataType): string {
  const json = dataTypeToJSON(dtype);
  return typeof json === "string" ? json : JSON.stringify(json);
}
