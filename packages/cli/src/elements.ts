// Elements of any fixed-size dtype as JS values, read from and written to raw bytes in the dtype's
// own byte order, and their JSON form:
//
//   b        true / false
//   i, u     integers (8-byte ones exactly, as JSON integers)
//   f        numbers (written as Python writes floats: 1.0, 1e-07); NaN and ±infinity as the
//            strings "NaN", "Infinity", "-Infinity", as zarr writes float fill values
//   c        [real, imaginary]
//   M, m     the integer count of the dtype's unit; NaT as "NaT"
//   S        base64 of the bytes, trailing NULs dropped as numpy does (as .zarray's fill_value)
//   U        text, trailing NULs dropped
//   V        base64 of the bytes
// (bytes always base64, text always text: a reader tells them apart by the form alone)
//   struct   an object of the fields, in field order; subarray fields as nested lists

import {
  dataTypeEquals,
  JsonFloat,
  formatPythonFloat,
  type DataType,
  type JsonValue,
  type SimpleDataType,
  typestr,
} from "@z/meta";
import { fromBase64, toBase64 } from "./base64-text.js";
import { CommandError } from "./command.js";
import {
  decodeExtension,
  encodeExtension,
  float16Bits as numberToHalf,
  float16FromBits as halfToNumber,
} from "@z/meta";

export class Complex {
  constructor(
    readonly re: number,
    readonly im: number,
  ) {}
}

/** One element of a structured dtype: its field values in field order. */
export class Struct {
  constructor(readonly values: readonly ElementValue[]) {}
}

/** A subarray field's value: nested lists of its elements. */
export type Nested = readonly (ElementValue | Nested)[];

export type ElementValue = boolean | number | bigint | string | Uint8Array | Complex | Struct | Nested;

export const NAT = -(2n ** 63n);

type Reader = (view: DataView, offset: number) => ElementValue;
type Writer = (view: DataView, offset: number, value: ElementValue) => void;

/** A function reading one element at a byte offset. */
export function elementReader(dtype: DataType): Reader {
  if (dtype.kind === "structured") {
    const fields = dtype.fields.map((f) => ({
      offset: f.offset,
      shape: f.shape,
      size: f.dtype.itemsize,
      read: elementReader(f.dtype),
    }));
    return (view, offset) =>
      new Struct(
        fields.map((f) =>
          f.shape.length === 0
            ? f.read(view, offset + f.offset)
            : readNested(view, offset + f.offset, f.shape, f.size, f.read),
        ),
      );
  }
  const little = dtype.byteOrder !== ">";
  const size = dtype.itemsize;
  switch (dtype.kind) {
    case "b":
      return (view, offset) => view.getUint8(offset) !== 0;
    case "i":
      if (size === 1) return (view, offset) => view.getInt8(offset);
      if (size === 2) return (view, offset) => view.getInt16(offset, little);
      if (size === 4) return (view, offset) => view.getInt32(offset, little);
      return (view, offset) => view.getBigInt64(offset, little);
    case "u":
      if (size === 1) return (view, offset) => view.getUint8(offset);
      if (size === 2) return (view, offset) => view.getUint16(offset, little);
      if (size === 4) return (view, offset) => view.getUint32(offset, little);
      return (view, offset) => view.getBigUint64(offset, little);
    case "f":
      return floatReader(size, little);
    case "c": {
      const half = floatReader(size / 2, little);
      return (view, offset) => new Complex(half(view, offset), half(view, offset + size / 2));
    }
    case "M":
    case "m":
      return (view, offset) => view.getBigInt64(offset, little);
    case "S":
      return (view, offset) => {
        let end = size;
        while (end > 0 && view.getUint8(offset + end - 1) === 0) end--;
        return new Uint8Array(view.buffer.slice(view.byteOffset + offset, view.byteOffset + offset + end));
      };
    case "V":
      return (view, offset) =>
        new Uint8Array(view.buffer.slice(view.byteOffset + offset, view.byteOffset + offset + size));
    case "U":
      return (view, offset) => {
        let end = size / 4;
        while (end > 0 && view.getUint32(offset + (end - 1) * 4, little) === 0) end--;
        const codes: number[] = [];
        for (let i = 0; i < end; i++) codes.push(view.getUint32(offset + i * 4, little));
        return fromCodePoints(codes);
      };
    case "x": {
      // TensorStore's extension dtypes: floats read as numbers, int4/int2 as small ints.
      const name = dtype.extension!;
      return (view, offset) => decodeExtension(name, new Uint8Array(view.buffer, view.byteOffset + offset, size))[0]!;
    }
    case "O":
      throw new CommandError("object arrays are not supported here yet");
  }
}

function floatReader(size: number, little: boolean): (view: DataView, offset: number) => number {
  if (size === 2) return (view, offset) => halfToNumber(view.getUint16(offset, little));
  if (size === 4) return (view, offset) => view.getFloat32(offset, little);
  return (view, offset) => view.getFloat64(offset, little);
}

function fromCodePoints(codes: readonly number[]): string {
  let out = "";
  for (const code of codes) out += code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
  return out;
}

function readNested(view: DataView, offset: number, shape: readonly number[], size: number, read: Reader): Nested {
  const [n, ...rest] = shape;
  const stride = rest.reduce((a, b) => a * b, size);
  const out: (ElementValue | Nested)[] = [];
  for (let i = 0; i < n!; i++)
    out.push(
      rest.length === 0 ? read(view, offset + i * stride) : readNested(view, offset + i * stride, rest, size, read),
    );
  return out;
}

/** Every element of `bytes` (whole elements in the dtype's byte order), in order. */
export function readElements(bytes: Uint8Array, dtype: DataType, indices?: Iterable<number>): ElementValue[] {
  const read = elementReader(dtype);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = dtype.itemsize;
  const out: ElementValue[] = [];
  if (indices === undefined) {
    const n = size === 0 ? 0 : bytes.length / size;
    for (let i = 0; i < n; i++) out.push(read(view, i * size));
  } else {
    for (const i of indices) out.push(read(view, i * size));
  }
  return out;
}

// --- JSON ---------------------------------------------------------------------------------------

/** The JSON text of one element (see the top of this file). */
export function elementJson(value: ElementValue, dtype: DataType): string {
  if (dtype.kind === "structured") {
    const values = (value as Struct).values;
    const parts = dtype.fields.map(
      (f, i) =>
        `${JSON.stringify(f.name)}: ${f.shape.length === 0 ? elementJson(values[i]!, f.dtype) : nestedJson(values[i] as Nested, f.dtype)}`,
    );
    return `{${parts.join(", ")}}`;
  }
  switch (dtype.kind) {
    case "b":
      return value ? "true" : "false";
    case "i":
    case "u":
      return String(value);
    case "f":
      return floatJson(value as number);
    case "x":
      return isExtensionInt(dtype) ? String(value) : floatJson(value as number);
    case "c":
      return `[${floatJson((value as Complex).re)}, ${floatJson((value as Complex).im)}]`;
    case "M":
    case "m":
      return value === NAT ? '"NaT"' : String(value);
    case "S":
    case "V":
      return JSON.stringify(toBase64(value as Uint8Array));
    case "U":
      return JSON.stringify(value);
    case "O":
      throw new CommandError("object arrays are not supported here yet");
  }
}

function nestedJson(value: Nested, dtype: DataType): string {
  return `[${value.map((v) => (Array.isArray(v) ? nestedJson(v, dtype) : elementJson(v as ElementValue, dtype))).join(", ")}]`;
}

function floatJson(x: number): string {
  if (Number.isNaN(x)) return '"NaN"';
  if (x === Infinity) return '"Infinity"';
  if (x === -Infinity) return '"-Infinity"';
  return formatPythonFloat(x);
}

/** An element from its JSON form (as `parseJson` of `@z/meta` reads it); `where` names it in errors. */
export function elementFromJson(json: JsonValue, dtype: DataType, where: string): ElementValue {
  const fail = (expected: string): never => {
    throw new CommandError(`${where}: expected ${expected} for dtype ${dtypeLabel(dtype)}, found ${describe(json)}`);
  };
  const num = json instanceof JsonFloat ? json.value : json;
  if (dtype.kind === "structured") {
    if (Array.isArray(json)) {
      if (json.length !== dtype.fields.length) fail(`a list of ${dtype.fields.length} field values`);
      return new Struct(
        dtype.fields.map((f, i) => fieldFromJson((json as JsonValue[])[i]!, f.dtype, f.shape, `${where}.${f.name}`)),
      );
    }
    if (typeof json !== "object" || json === null || json instanceof JsonFloat)
      return fail("an object of field values");
    const obj = json as Record<string, JsonValue>;
    for (const k of Object.keys(obj))
      if (!dtype.fields.some((f) => f.name === k))
        fail(`only the fields ${dtype.fields.map((f) => f.name).join(", ")} (not ${JSON.stringify(k)})`);
    return new Struct(
      dtype.fields.map((f) => {
        if (!(f.name in obj)) fail(`a value for field ${JSON.stringify(f.name)}`);
        return fieldFromJson(obj[f.name]!, f.dtype, f.shape, `${where}.${f.name}`);
      }),
    );
  }
  switch (dtype.kind) {
    case "b":
      if (typeof json === "boolean") return json;
      if (num === 0 || num === 1) return num === 1;
      return fail("true or false");
    case "i":
    case "u": {
      const int =
        typeof num === "bigint" ? num : typeof num === "number" && Number.isInteger(num) ? BigInt(num) : undefined;
      if (int === undefined) return fail("an integer");
      const bits = BigInt(dtype.itemsize * 8);
      const [min, max] =
        dtype.kind === "i" ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n];
      if (int < min || int > max) return fail(`an integer from ${min} to ${max}`);
      return dtype.itemsize === 8 ? int : Number(int);
    }
    case "f":
      return floatFromJson(json, fail);
    case "x": {
      if (!isExtensionInt(dtype)) return floatFromJson(json, fail);
      if (typeof num !== "number" || !Number.isInteger(num)) return fail("an integer");
      return num;
    }
    case "c":
      if (Array.isArray(json)) {
        if (json.length !== 2) fail("[real, imaginary]");
        return new Complex(floatFromJson(json[0]!, fail), floatFromJson(json[1]!, fail));
      }
      return new Complex(floatFromJson(json, fail), 0);
    case "M":
    case "m": {
      if (json === "NaT") return NAT;
      const int =
        typeof num === "bigint" ? num : typeof num === "number" && Number.isInteger(num) ? BigInt(num) : undefined;
      if (int === undefined || int < NAT || int >= 2n ** 63n) return fail('an integer count of the unit, or "NaT"');
      return int;
    }
    case "S": {
      const bytes = fromBase64(json) ?? fail("base64 text of the bytes");
      if (bytes.length > dtype.itemsize) return fail(`base64 of at most ${dtype.itemsize} bytes`);
      return bytes;
    }
    case "U": {
      if (typeof json !== "string") return fail("a string");
      if ([...json].length > dtype.itemsize / 4) return fail(`at most ${dtype.itemsize / 4} characters`);
      return json;
    }
    case "V": {
      const bytes = fromBase64(json) ?? fail("base64 text of the bytes");
      if (bytes.length !== dtype.itemsize) return fail(`base64 of exactly ${dtype.itemsize} bytes`);
      return bytes;
    }
    case "O":
      throw new CommandError("object arrays are not supported here yet");
  }
}

function fieldFromJson(json: JsonValue, dtype: DataType, shape: readonly number[], where: string): ElementValue {
  if (shape.length === 0) return elementFromJson(json, dtype, where);
  const [n, ...rest] = shape;
  if (!Array.isArray(json) || json.length !== n)
    throw new CommandError(`${where}: expected a list of ${n} items, found ${describe(json)}`);
  return (json as JsonValue[]).map((item, i) => fieldFromJson(item, dtype, rest, `${where}[${i}]`));
}

function floatFromJson(json: JsonValue, fail: (expected: string) => never): number {
  if (json === "NaN" || json === null) return NaN;
  if (json === "Infinity") return Infinity;
  if (json === "-Infinity") return -Infinity;
  if (typeof json === "number") return json;
  if (typeof json === "bigint") return Number(json);
  if (json instanceof JsonFloat) return json.value;
  return fail('a number, "NaN", "Infinity" or "-Infinity"');
}

function describe(json: JsonValue): string {
  if (json instanceof JsonFloat) return String(json.value);
  if (typeof json === "bigint") return json.toString();
  const text =
    JSON.stringify(json, (_, v: unknown) =>
      typeof v === "bigint" ? Number(v) : v instanceof JsonFloat ? v.value : v,
    ) ?? String(json);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function dtypeLabel(dtype: DataType): string {
  return dtype.kind === "structured" ? "structured" : typestr(dtype as SimpleDataType);
}

// --- writing ------------------------------------------------------------------------------------

/** A function writing one element at a byte offset (the bytes it does not set must be zero beforehand). */
export function elementWriter(dtype: DataType): Writer {
  if (dtype.kind === "structured") {
    const fields = dtype.fields.map((f) => ({
      offset: f.offset,
      shape: f.shape,
      size: f.dtype.itemsize,
      write: elementWriter(f.dtype),
    }));
    return (view, offset, value) => {
      const values = (value as Struct).values;
      fields.forEach((f, i) => {
        if (f.shape.length === 0) f.write(view, offset + f.offset, values[i]!);
        else writeNested(view, offset + f.offset, values[i] as Nested, f.shape, f.size, f.write);
      });
    };
  }
  const little = dtype.byteOrder !== ">";
  const size = dtype.itemsize;
  switch (dtype.kind) {
    case "b":
      return (view, offset, value) => view.setUint8(offset, value ? 1 : 0);
    case "i":
      if (size === 1) return (view, offset, value) => view.setInt8(offset, Number(value));
      if (size === 2) return (view, offset, value) => view.setInt16(offset, Number(value), little);
      if (size === 4) return (view, offset, value) => view.setInt32(offset, Number(value), little);
      return (view, offset, value) => view.setBigInt64(offset, BigInt(value as number | bigint), little);
    case "u":
      if (size === 1) return (view, offset, value) => view.setUint8(offset, Number(value));
      if (size === 2) return (view, offset, value) => view.setUint16(offset, Number(value), little);
      if (size === 4) return (view, offset, value) => view.setUint32(offset, Number(value), little);
      return (view, offset, value) => view.setBigUint64(offset, BigInt(value as number | bigint), little);
    case "f":
      return floatWriter(size, little);
    case "c": {
      const half = floatWriter(size / 2, little);
      return (view, offset, value) => {
        half(view, offset, (value as Complex).re);
        half(view, offset + size / 2, (value as Complex).im);
      };
    }
    case "M":
    case "m":
      return (view, offset, value) => view.setBigInt64(offset, BigInt(value as number | bigint), little);
    case "S":
    case "V":
      return (view, offset, value) =>
        new Uint8Array(view.buffer, view.byteOffset + offset, size).set((value as Uint8Array).subarray(0, size));
    case "U":
      return (view, offset, value) => {
        let i = 0;
        for (const char of value as string) {
          if (i === size / 4) break;
          view.setUint32(offset + i * 4, char.codePointAt(0)!, little);
          i++;
        }
      };
    case "x": {
      const name = dtype.extension!;
      return (view, offset, value) =>
        new Uint8Array(view.buffer, view.byteOffset + offset, size).set(encodeExtension(name, [Number(value)]));
    }
    case "O":
      throw new CommandError("object arrays are not supported here yet");
  }
}

/** int4 and int2 (the other extension dtypes are floats). */
const isExtensionInt = (dtype: DataType): boolean =>
  dtype.kind !== "structured" && (dtype.extension === "int4" || dtype.extension === "int2");

function floatWriter(size: number, little: boolean): Writer {
  if (size === 2) return (view, offset, value) => view.setUint16(offset, numberToHalf(Number(value)), little);
  if (size === 4) return (view, offset, value) => view.setFloat32(offset, Number(value), little);
  return (view, offset, value) => view.setFloat64(offset, Number(value), little);
}

function writeNested(
  view: DataView,
  offset: number,
  value: Nested,
  shape: readonly number[],
  size: number,
  write: Writer,
): void {
  const [n, ...rest] = shape;
  const stride = rest.reduce((a, b) => a * b, size);
  for (let i = 0; i < n!; i++) {
    if (rest.length === 0) write(view, offset + i * stride, value[i] as ElementValue);
    else writeNested(view, offset + i * stride, value[i] as Nested, rest, size, write);
  }
}

/** Elements as bytes in the dtype's byte order. */
export function writeElements(values: readonly ElementValue[], dtype: DataType): Uint8Array {
  const out = new Uint8Array(values.length * dtype.itemsize);
  const view = new DataView(out.buffer);
  const write = elementWriter(dtype);
  values.forEach((v, i) => write(view, i * dtype.itemsize, v));
  return out;
}

const NUMERIC = new Set(["b", "i", "u", "f"]);

/** Whether `convertElement` can turn elements of `from` into elements of `to`. */
export function canConvert(from: DataType, to: DataType): boolean {
  if (from.kind === "structured" || to.kind === "structured") return dataTypeEquals(from, to);
  if (NUMERIC.has(from.kind) && (NUMERIC.has(to.kind) || to.kind === "c")) return true;
  if (from.kind !== to.kind) return false;
  if (from.kind === "M" || from.kind === "m") return from.unit === (to as SimpleDataType).unit;
  if (from.kind === "V") return from.itemsize === to.itemsize;
  return true; // b, c, S, U of any size; numbers of any size
}

/**
 * One element of `from` as an element of `to`, as numpy's `astype` converts: booleans, integers
 * and floats into each other (floats to integers truncate) and into complex numbers, strings into
 * strings. Values that do not fit (an integer out of range, a string too long) are an error here
 * rather than wrapping or being cut.
 */
export function convertElement(value: ElementValue, from: DataType, to: DataType, where: string): ElementValue {
  if (!canConvert(from, to))
    throw new CommandError(`${where}: cannot convert ${dtypeLabel(from)} to ${dtypeLabel(to)}`);
  if (to.kind === "structured" || to.kind === "V" || to.kind === "M" || to.kind === "m") return value;
  if (to.kind === "S") {
    if ((value as Uint8Array).length > to.itemsize)
      throw new CommandError(`${where}: ${(value as Uint8Array).length} bytes do not fit ${dtypeLabel(to)}`);
    return value;
  }
  if (to.kind === "U") {
    if ([...(value as string)].length > to.itemsize / 4)
      throw new CommandError(`${where}: ${JSON.stringify(value)} does not fit ${dtypeLabel(to)}`);
    return value;
  }
  if (to.kind === "c") {
    if (value instanceof Complex) return value;
    return new Complex(Number(typeof value === "boolean" ? Number(value) : value), 0);
  }
  let json: JsonValue;
  if (typeof value === "boolean") json = value ? 1 : 0;
  else if (typeof value === "bigint") json = value;
  else {
    const x = value as number;
    if (to.kind === "f") json = x;
    else if (to.kind === "b") json = x !== 0 ? 1 : 0;
    else if (!Number.isFinite(x)) throw new CommandError(`${where}: cannot convert ${x} to ${dtypeLabel(to)}`);
    else json = Number.isSafeInteger(Math.trunc(x)) ? Math.trunc(x) : BigInt(Math.trunc(x));
  }
  if (to.kind === "b") return typeof json === "bigint" ? json !== 0n : json !== 0;
  if (to.kind === "f") return typeof json === "bigint" ? Number(json) : (json as number);
  return elementFromJson(json, to, where);
}

/** Element bytes of `from` (its byte order) as element bytes of `to`; the same bytes when the dtypes are equal. */
export function convertBytes(
  bytes: Uint8Array,
  from: DataType,
  to: DataType,
  where: string,
  firstIndex = 0,
): Uint8Array {
  if (dataTypeEquals(from, to)) return bytes;
  return writeElements(
    readElements(bytes, from).map((v, i) => convertElement(v, from, to, `${where} element ${firstIndex + i}`)),
    to,
  );
}
