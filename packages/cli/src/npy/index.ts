// NumPy's `.npy` format (numpy/lib/format.py), versions 1.0, 2.0 and 3.0: a magic string, a header
// holding a Python dict literal {'descr', 'fortran_order', 'shape'}, then the raw elements. Headers
// are written byte for byte as `np.save` writes them, and read as `np.load` reads them.

import {
  dataTypeToJSON,
  parseDataType,
  ZarrError,
  type DataType,
  type JsonValue,
  type StructuredField,
  pythonStrRepr,
} from "@z/meta";
import { CommandError } from "../command.js";
import { pyTupleRepr } from "../python-repr.js";
import { parsePyLiteral, PyLiteralError, PyTuple, type PyValue } from "./python-literal.js";

export { parsePyLiteral, PyTuple, type PyValue } from "./python-literal.js";

/** A `.npy` file that cannot be read, or an array that cannot be written as one. */
export class NpyError extends CommandError {}

export interface NpyHeader {
  /** The element type; its byte order is the order of the bytes in the file. */
  readonly dtype: DataType;
  readonly shape: readonly number[];
  /** True when the elements are in Fortran (column-major) order. */
  readonly fortranOrder: boolean;
}

export interface NpyFileHeader extends NpyHeader {
  readonly version: readonly [major: number, minor: number];
  /** Bytes before the first element (magic, length and header). */
  readonly dataOffset: number;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
const MAGIC_LEN = MAGIC.length + 2;
const ARRAY_ALIGN = 64;
const GROWTH_AXIS_MAX_DIGITS = 21;

/** How many bytes the prefix of a file needs before `npyDataOffset` can answer: 12. */
export const NPY_PREFIX_BYTES = MAGIC_LEN + 4;

/** Where the elements start, from the first `NPY_PREFIX_BYTES` bytes (fewer only for a broken file). */
export function npyDataOffset(prefix: Uint8Array, name = "the file"): number {
  if (prefix.length < MAGIC_LEN || MAGIC.some((b, i) => prefix[i] !== b)) {
    throw new NpyError(`${name} is not a .npy file (it does not start with \\x93NUMPY)`, { key: name });
  }
  const major = prefix[6]!;
  const minor = prefix[7]!;
  if (!(minor === 0 && (major === 1 || major === 2 || major === 3))) {
    throw new NpyError(`${name}: unsupported .npy format version ${major}.${minor} (expected 1.0, 2.0 or 3.0)`, {
      key: name,
    });
  }
  const sizeBytes = major === 1 ? 2 : 4;
  if (prefix.length < MAGIC_LEN + sizeBytes) throw new NpyError(`${name}: the .npy header is cut short`, { key: name });
  const view = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength);
  const length = major === 1 ? view.getUint16(MAGIC_LEN, true) : view.getUint32(MAGIC_LEN, true);
  return MAGIC_LEN + sizeBytes + length;
}

/** Reads the header of a `.npy` file from its first `npyDataOffset` bytes (or more). */
export function parseNpyHeader(bytes: Uint8Array, name = "the file"): NpyFileHeader {
  const dataOffset = npyDataOffset(bytes, name);
  const major = bytes[6]!;
  if (bytes.length < dataOffset) throw new NpyError(`${name}: the .npy header is cut short`, { key: name });
  const start = MAGIC_LEN + (major === 1 ? 2 : 4);
  const raw = bytes.subarray(start, dataOffset);
  const text = major === 3 ? new TextDecoder("utf-8", { fatal: true }).decode(raw) : latin1(raw);
  // numpy's `np.load` refuses headers over 10000 characters unless told to trust the file (its
  // parser is Python's); this parser is linear, so long headers (many fields) are read.
  let dict: PyValue;
  try {
    dict = parsePyLiteral(text);
  } catch (error) {
    if (error instanceof PyLiteralError)
      throw new NpyError(`${name}: cannot parse the .npy header: ${error.message}`, { key: name });
    throw error;
  }
  if (!(dict instanceof Map)) throw new NpyError(`${name}: the .npy header is not a dict`, { key: name });
  const keys = [...dict.keys()].map(String).sort();
  if (keys.join(",") !== "descr,fortran_order,shape") {
    throw new NpyError(
      `${name}: the .npy header must have exactly the keys descr, fortran_order, shape; found ${keys.join(", ")}`,
      { key: name },
    );
  }
  const shapeValue = dict.get("shape");
  if (!(shapeValue instanceof PyTuple) || !shapeValue.items.every((n) => typeof n === "number" && n >= 0)) {
    throw new NpyError(`${name}: the .npy shape is not a tuple of non-negative integers`, { key: name });
  }
  const fortranOrder = dict.get("fortran_order");
  if (typeof fortranOrder !== "boolean")
    throw new NpyError(`${name}: the .npy fortran_order is not True or False`, { key: name });
  const dtype = descrToDataType(dict.get("descr")!, name);
  return { version: [major, 0], dtype, shape: shapeValue.items as number[], fortranOrder, dataOffset };
}

/** The header and the element bytes of a whole `.npy` file. Bytes after the elements are ignored, as numpy does. */
export function readNpy(bytes: Uint8Array, name = "the file"): { header: NpyFileHeader; data: Uint8Array } {
  const header = parseNpyHeader(bytes, name);
  const size = npyDataBytes(header);
  if (bytes.length - header.dataOffset < size) {
    throw new NpyError(
      `${name}: the .npy file holds ${bytes.length - header.dataOffset} bytes of data, its header needs ${size}`,
      { key: name },
    );
  }
  return { header, data: bytes.subarray(header.dataOffset, header.dataOffset + size) };
}

/** Bytes of element data a header describes. */
export function npyDataBytes(header: NpyHeader): number {
  return header.shape.reduce((a, b) => a * b, 1) * header.dtype.itemsize;
}

/**
 * numpy's `descr_to_dtype`: a type string, or a list of `(name, descr[, shape])` fields, where
 * unnamed `V` fields are padding (they move the next field's offset and are no field themselves).
 */
export function descrToDataType(descr: PyValue, name = "the file"): DataType {
  const fail = (why: string): never => {
    throw new NpyError(`${name}: unsupported .npy descr: ${why}`, { key: name });
  };
  if (typeof descr === "string") {
    let dtype: DataType;
    try {
      dtype = parseDataType(descr);
    } catch (error) {
      if (error instanceof ZarrError) return fail(error.message);
      throw error;
    }
    if (dtype.kind === "O")
      fail(
        `object arrays are stored with pickle, which is not read here; import them from JSON instead ({"dtype": "|O", "object_codec": {"id": "vlen-utf8"}, "shape": [...], "values": [...]})`,
      );
    return dtype;
  }
  if (!Array.isArray(descr)) return fail(`expected a type string or a list of fields`);
  const fields: StructuredField[] = [];
  let offset = 0;
  for (const entry of descr as readonly PyValue[]) {
    if (!(entry instanceof PyTuple) || entry.items.length < 2 || entry.items.length > 3)
      fail("a field is not a (name, descr[, shape]) tuple");
    const [fieldName, fieldDescr, fieldShape] = (entry as PyTuple).items;
    if (typeof fieldName !== "string") return fail("titled fields are not supported");
    const dtype = descrToDataType(fieldDescr!, name);
    let shape: number[] = [];
    if (fieldShape !== undefined) {
      if (typeof fieldShape === "number") shape = fieldShape === 1 ? [] : [fieldShape];
      else if (fieldShape instanceof PyTuple && fieldShape.items.every((n) => typeof n === "number" && n >= 0))
        shape = fieldShape.items as number[];
      else fail(`field ${JSON.stringify(fieldName)} has a bad shape`);
    }
    const size = shape.reduce((a, b) => a * b, dtype.itemsize);
    const padding = fieldName === "" && dtype.kind === "V";
    if (!padding) {
      if (fields.some((f) => f.name === fieldName)) fail(`field name ${JSON.stringify(fieldName)} occurs twice`);
      fields.push({ name: fieldName === "" ? `f${fields.length}` : fieldName, dtype, shape, offset });
    }
    offset += size;
  }
  return { kind: "structured", itemsize: offset, fields };
}

/** numpy's `dtype_to_descr` as Python text: `dtype.str`, or `dtype.descr` for structured dtypes. */
export function descrRepr(dtype: DataType): string {
  return reprJsonDescr(dataTypeToJSON(dtype));
}

function reprJsonDescr(json: JsonValue): string {
  if (typeof json === "string") return pythonStrRepr(json);
  const fields = (json as readonly JsonValue[]).map((entry) => {
    const [name, type, shape] = entry as readonly JsonValue[];
    const parts = [pythonStrRepr(name as string), reprJsonDescr(type!)];
    if (shape !== undefined) parts.push(pyTupleRepr(shape as number[]));
    return `(${parts.join(", ")})`;
  });
  return `[${fields.join(", ")}]`;
}

/** The header `np.save` writes for an array of this dtype, shape and order, version chosen as numpy chooses it. */
export function encodeNpyHeader(header: NpyHeader): Uint8Array {
  const { dtype, shape, fortranOrder } = header;
  if (dtype.kind === "O") throw new NpyError("object arrays cannot be written as .npy without pickle");
  let text = `{'descr': ${descrRepr(dtype)}, 'fortran_order': ${fortranOrder ? "True" : "False"}, 'shape': ${pyTupleRepr(shape)}, }`;
  if (shape.length > 0)
    text += " ".repeat(GROWTH_AXIS_MAX_DIGITS - String(shape[fortranOrder ? shape.length - 1 : 0]).length);
  const isLatin1 = [...text].every((c) => c.codePointAt(0)! < 0x100);
  if (isLatin1) {
    const encoded = Uint8Array.from(text, (c) => c.charCodeAt(0));
    return wrapHeader(encoded, wrappedLength(encoded.length, 2) <= 0xffff ? 1 : 2);
  }
  return wrapHeader(new TextEncoder().encode(text), 3);
}

function wrappedLength(headerBytes: number, sizeBytes: number): number {
  const hlen = headerBytes + 1;
  const padlen = ARRAY_ALIGN - ((MAGIC_LEN + sizeBytes + hlen) % ARRAY_ALIGN);
  return hlen + padlen;
}

function wrapHeader(header: Uint8Array, major: 1 | 2 | 3): Uint8Array {
  const sizeBytes = major === 1 ? 2 : 4;
  const length = wrappedLength(header.length, sizeBytes);
  const out = new Uint8Array(MAGIC_LEN + sizeBytes + length);
  out.set(MAGIC);
  out[6] = major;
  out[7] = 0;
  const view = new DataView(out.buffer);
  if (major === 1) view.setUint16(MAGIC_LEN, length, true);
  else view.setUint32(MAGIC_LEN, length, true);
  out.set(header, MAGIC_LEN + sizeBytes);
  out.fill(0x20, MAGIC_LEN + sizeBytes + header.length, out.length - 1);
  out[out.length - 1] = 0x0a;
  return out;
}

/** A whole `.npy` file: the header, then `data` (elements in the dtype's byte order and the header's order). */
export function encodeNpy(header: NpyHeader, data: Uint8Array): Uint8Array {
  const expected = npyDataBytes(header);
  if (data.length !== expected) throw new NpyError(`.npy data is ${data.length} bytes, the header needs ${expected}`);
  const head = encodeNpyHeader(header);
  const out = new Uint8Array(head.length + data.length);
  out.set(head);
  out.set(data, head.length);
  return out;
}

function latin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}
