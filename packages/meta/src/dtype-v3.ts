// The `data_type` of a Zarr v3 `zarr.json`, mapped onto z's `DataType`. In v3 the byte order of
// stored elements belongs to the `bytes` codec, not to the data type, so every v3 type maps to a
// little-endian `DataType` (`|` where order does not apply): that is the order chunks are held in
// memory, and the `bytes` codec swaps on the way to and from the store. The document's own form of
// the data type is kept beside it (`dataType`) so that it is written back unchanged.

import type { DataType, SimpleDataType, StructuredField } from "./dtype-model.js";
import { MetadataError, UnsupportedExtensionError } from "./errors.js";
import { EXTENSION_NAMES, extensionItemsize, isExtensionName } from "./extension-dtypes.js";
import type { JsonObject, JsonValue, NamedConfig } from "./json-value.js";
import { describeJson, fieldError, isJsonObject } from "./metadata-document.js";
import { readNamedConfig } from "./named-config.js";

/** A `data_type` as `zarr.json` writes it: a core type's name (`"float32"`) or a named configuration. */
export type DataTypeV3JSON = string | NamedConfig;

/** A v3 data type: as the document writes it, and as z holds its elements. */
export interface DataTypeV3 {
  readonly dataType: DataTypeV3JSON;
  readonly dtype: DataType;
}

/** NumPy's most (its item sizes are C ints), as for v2 dtypes. */
const MAX_ITEMSIZE = 2 ** 31 - 1;

const simple = (kind: SimpleDataType["kind"], itemsize: number): SimpleDataType => ({
  kind,
  byteOrder: itemsize === 1 || kind === "b" || kind === "S" || kind === "V" || kind === "O" ? "|" : "<",
  itemsize,
});

/** The core data types of the v3 spec. */
const CORE: Readonly<Record<string, SimpleDataType>> = {
  bool: simple("b", 1),
  int8: simple("i", 1),
  int16: simple("i", 2),
  int32: simple("i", 4),
  int64: simple("i", 8),
  uint8: simple("u", 1),
  uint16: simple("u", 2),
  uint32: simple("u", 4),
  uint64: simple("u", 8),
  float16: simple("f", 2),
  float32: simple("f", 4),
  float64: simple("f", 8),
  complex64: simple("c", 8),
  complex128: simple("c", 16),
};

/**
 * Variable-length types: elements are JS values (strings, `Uint8Array`s) that a `vlen-*` codec
 * encodes, as object arrays are in v2. `variable_length_bytes` is the name zarr-python 3 writes for
 * the registered `bytes`.
 */
const VARIABLE_LENGTH = new Set(["string", "bytes", "variable_length_bytes"]);

const TIME_UNITS = new Set(["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "μs", "ns", "ps", "fs", "as", "generic"]);

/** zarr-python 3's fixed-length types: each has one member, `length_bytes`. */
const FIXED_LENGTH: Readonly<Record<string, "S" | "U" | "V">> = {
  null_terminated_bytes: "S",
  fixed_length_utf32: "U",
  raw_bytes: "V",
};

const RAW_BITS = /^r([1-9][0-9]*)$/;

/** The names this reads, for messages. */
const KNOWN = [
  ...Object.keys(CORE),
  "r<N>",
  ...EXTENSION_NAMES,
  ...VARIABLE_LENGTH,
  "numpy.datetime64",
  "numpy.timedelta64",
  ...Object.keys(FIXED_LENGTH),
  "struct",
  "structured",
].join(", ");

/** The name of a v3 data type as written (`"float32"`, `"numpy.datetime64"`). */
export function dataTypeV3Name(dataType: DataTypeV3JSON): string {
  return typeof dataType === "string" ? dataType : dataType.name;
}

/**
 * Reads the `data_type` member of a `zarr.json`: a core type, `r<N>` (raw bits, a `V` of N/8
 * bytes), TensorStore's and the registry's extension types (`bfloat16`, the float8 formats,
 * `int2`/`int4`/`uint2`/`uint4`, all `x`), `string` and `bytes` (object kind, variable length),
 * `numpy.datetime64`/`numpy.timedelta64` (`M`/`m` with the unit), zarr-python 3's
 * `null_terminated_bytes`/`fixed_length_utf32`/`raw_bytes` (`S`/`U`/`V`) and `struct` (also its
 * legacy alias `structured`). A malformed one is a `MetadataError`, a well-formed one z does not
 * know an `UnsupportedExtensionError`; both name `key` and `data_type`.
 */
export function parseDataTypeV3(json: JsonValue, key = "zarr.json", field = "data_type"): DataTypeV3 {
  if (typeof json === "string") return { dataType: json, dtype: fromName(json, undefined, key, field) };
  const dataType = readNamedConfig(json, key, field);
  return { dataType, dtype: fromName(dataType.name, dataType.configuration, key, field) };
}

function fromName(name: string, configuration: JsonObject | undefined, key: string, field: string): DataType {
  const noConfiguration = (dtype: DataType): DataType => {
    if (configuration !== undefined && Object.keys(configuration).length > 0) {
      throw fieldError(key, `${field}.configuration`, `no configuration for "${name}"`, configuration);
    }
    return dtype;
  };
  const core = CORE[name];
  if (core !== undefined) return noConfiguration(core);
  if (isExtensionName(name)) {
    const itemsize = extensionItemsize(name);
    return noConfiguration({ kind: "x", byteOrder: itemsize === 1 ? "|" : "<", itemsize, extension: name });
  }
  if (VARIABLE_LENGTH.has(name)) return noConfiguration(simple("O", 8));
  const raw = RAW_BITS.exec(name);
  if (raw !== null) {
    const bits = Number(raw[1]);
    if (bits % 8 !== 0 || bits / 8 > MAX_ITEMSIZE) {
      throw fieldError(key, field, `r<N> with N a positive multiple of 8 up to ${MAX_ITEMSIZE * 8}`, name);
    }
    return noConfiguration(simple("V", bits / 8));
  }
  const needed = (what: string): JsonObject => {
    if (configuration === undefined) {
      throw fieldError(key, field, `an object {"name": "${name}", "configuration": ${what}}`, name);
    }
    return configuration;
  };
  if (name === "numpy.datetime64" || name === "numpy.timedelta64") {
    return timeType(name, needed('{"unit": ..., "scale_factor": ...}'), key, field);
  }
  const fixed = FIXED_LENGTH[name];
  if (fixed !== undefined) return fixedLength(name, fixed, needed('{"length_bytes": ...}'), key, field);
  if (name === "struct" || name === "structured") return structType(name, needed('{"fields": [...]}'), key, field);
  throw new UnsupportedExtensionError(
    `"${key}" has a data type z does not support: ${describeJson(name)} (supported: ${KNOWN})`,
    { key, field, extension: name },
  );
}

function onlyMembers(configuration: JsonObject, members: readonly string[], key: string, field: string): void {
  for (const member of Object.keys(configuration)) {
    if (!members.includes(member)) {
      throw fieldError(
        key,
        `${field}.configuration`,
        `only ${members.map((m) => `"${m}"`).join(" and ")}`,
        configuration,
        {
          at: `(unknown member ${JSON.stringify(member)})`,
        },
      );
    }
  }
}

/** `{unit, scale_factor}`: NumPy's `datetime64[<scale><unit>]`, its unit written as NumPy normalises it. */
function timeType(name: string, configuration: JsonObject, key: string, field: string): DataType {
  onlyMembers(configuration, ["unit", "scale_factor"], key, field);
  const { unit, scale_factor: scale } = configuration;
  if (typeof unit !== "string" || !TIME_UNITS.has(unit)) {
    throw fieldError(key, `${field}.configuration.unit`, `one of ${[...TIME_UNITS].join(", ")}`, unit ?? null);
  }
  if (typeof scale !== "number" || !Number.isInteger(scale) || scale < 1 || scale > 2 ** 31 - 1) {
    throw fieldError(key, `${field}.configuration.scale_factor`, "an integer from 1 to 2147483647", scale ?? null);
  }
  const base = unit === "μs" ? "us" : unit;
  // NumPy drops a multiplier of 1, and a generic unit has none.
  const normalised = base === "generic" || scale === 1 ? base : `${scale}${base}`;
  return { ...simple(name === "numpy.datetime64" ? "M" : "m", 8), unit: normalised };
}

function fixedLength(
  name: string,
  kind: "S" | "U" | "V",
  configuration: JsonObject,
  key: string,
  field: string,
): DataType {
  onlyMembers(configuration, ["length_bytes"], key, field);
  const length = configuration.length_bytes;
  const step = kind === "U" ? 4 : 1;
  if (
    typeof length !== "number" ||
    !Number.isInteger(length) ||
    length < step ||
    length > MAX_ITEMSIZE ||
    length % step
  ) {
    const what = kind === "U" ? "a positive multiple of 4" : "a positive integer";
    throw fieldError(
      key,
      `${field}.configuration.length_bytes`,
      `${what} up to ${MAX_ITEMSIZE} for "${name}"`,
      length ?? null,
    );
  }
  return simple(kind, length);
}

/**
 * `struct` (and the legacy `structured`): fields packed in order without padding, each a
 * fixed-size type; `struct` writes them as `{"name", "data_type"}` objects, `structured` as
 * `[name, data_type]` pairs, and either is read in either form (as zarr-python reads them).
 */
function structType(name: string, configuration: JsonObject, key: string, field: string): DataType {
  onlyMembers(configuration, ["fields"], key, field);
  const where = `${field}.configuration.fields`;
  const list = configuration.fields;
  if (!Array.isArray(list) || list.length === 0) {
    throw fieldError(key, where, `a non-empty list of fields for "${name}"`, list ?? null);
  }
  const fields: StructuredField[] = [];
  const names = new Set<string>();
  let offset = 0;
  for (const [i, item] of (list as readonly JsonValue[]).entries()) {
    let fieldName: JsonValue | undefined;
    let fieldType: JsonValue | undefined;
    if (isJsonObject(item)) {
      fieldName = item.name;
      fieldType = item.data_type;
    } else if (Array.isArray(item) && item.length === 2) {
      [fieldName, fieldType] = item as readonly JsonValue[];
    }
    if (typeof fieldName !== "string" || fieldName === "" || fieldType === undefined) {
      throw fieldError(key, where, '{"name": <non-empty string>, "data_type": <data type>} for each field', item, {
        at: `at index ${i}`,
      });
    }
    if (names.has(fieldName)) {
      throw fieldError(key, where, "distinct field names", fieldName, { at: `at index ${i}` });
    }
    names.add(fieldName);
    const { dtype } = parseDataTypeV3(fieldType, key, `${where}[${i}].data_type`);
    if (dtype.kind === "O" || dtype.kind === "x") {
      throw fieldError(
        key,
        `${where}[${i}].data_type`,
        dtype.kind === "O"
          ? "a fixed-size data type (variable-length types cannot be fields)"
          : "a NumPy data type (extension floats and ints are supported for whole arrays only)",
        fieldType,
      );
    }
    fields.push({ name: fieldName, dtype, shape: [], offset });
    offset += dtype.itemsize;
    if (offset > MAX_ITEMSIZE) throw fieldError(key, where, `fields of at most ${MAX_ITEMSIZE} bytes in all`, list);
  }
  return { kind: "structured", itemsize: offset, fields };
}

/**
 * The `data_type` zarr-python 3 writes for a `DataType` (what an array created from a v2-style
 * dtype gets): core names, the extension names, `numpy.datetime64`/`numpy.timedelta64` with unit
 * and scale factor, `null_terminated_bytes`/`fixed_length_utf32`/`raw_bytes` with their length, and
 * `struct`. Byte order is not part of it (the `bytes` codec's `endian` is). An object dtype is
 * refused: whether it holds strings or bytes is not in the `DataType`, so name `"string"` or
 * `"bytes"` yourself.
 */
export function dataTypeToV3(dtype: DataType): DataTypeV3JSON {
  switch (dtype.kind) {
    case "structured":
      return {
        name: "struct",
        configuration: {
          fields: dtype.fields.map((f) => {
            if (f.shape.length > 0) throw new MetadataError(`A struct field has no shape; field "${f.name}" has one`);
            return { name: f.name, data_type: dataTypeToV3(f.dtype) as JsonValue };
          }),
        },
      };
    case "x":
      return dtype.extension!;
    case "O":
      throw new MetadataError('An object dtype has no one v3 data type: name "string" or "bytes"');
    case "S":
      return { name: "null_terminated_bytes", configuration: { length_bytes: dtype.itemsize } };
    case "U":
      return { name: "fixed_length_utf32", configuration: { length_bytes: dtype.itemsize } };
    case "V":
      return { name: "raw_bytes", configuration: { length_bytes: dtype.itemsize } };
    case "M":
    case "m": {
      const match = /^([0-9]*)(.+)$/.exec(dtype.unit ?? "generic")!;
      return {
        name: dtype.kind === "M" ? "numpy.datetime64" : "numpy.timedelta64",
        configuration: { unit: match[2]!, scale_factor: match[1] === "" ? 1 : Number(match[1]) },
      };
    }
    default: {
      const name = Object.keys(CORE).find((n) => CORE[n]!.kind === dtype.kind && CORE[n]!.itemsize === dtype.itemsize);
      return name!;
    }
  }
}
