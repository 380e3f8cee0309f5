import type { NdArray } from "@z/core";
import { float16FromBits, type TypedArray } from "@z/meta";
import { CFError } from "./errors.js";
import { itemsizeOf, kindOf, valuesDtype } from "./dtype.js";

/** What a variable's values are held in: a typed array for numbers, a JS array otherwise. */
export type ValueData = TypedArray | unknown[];

/**
 * A variable's values (or a selection of them) in C order, as xarray gives them in `.values`:
 * `dtype` is NumPy's name for their dtype (`float32`, `datetime64[ns]`, `<U4`, `object`, ...).
 *
 * - numbers: the typed array of their dtype (`float16` as its bits in a `Uint16Array`, complex as
 *   interleaved `[re, im]`, 64-bit integers as bigints); `bool`: a `Uint8Array` of 0 and 1;
 * - `datetime64[ns]` and `timedelta64[ns]`: a `BigInt64Array` of nanoseconds (since 1970-01-01 for
 *   datetimes), NaT being -2^63, exactly as NumPy holds them;
 * - `<U` and `|S` strings: JS strings (bytes as Latin-1 text: one character per byte, so they
 *   convert back losslessly), trailing NULs removed as NumPy removes them;
 * - `object`: a JS array of strings, `CFDatetime`s (dates of non-standard calendars, or of the
 *   standard ones beyond datetime64[ns]'s years 1678 to 2261), booleans or numbers, with `null`
 *   where xarray has NaN (masked strings and booleans, missing cftime dates).
 */
export interface Values<T extends ValueData = ValueData> {
  readonly data: T;
  readonly shape: readonly number[];
  readonly dtype: string;
}

/**
 * A bytes element of an object array while decoding (Python's `bytes`), kept apart from `str` so
 * that fill values compare as Python compares them (`b"" != ""`); given to users as Latin-1 text.
 */
export class ByteString {
  constructor(readonly text: string) {}
}

/** Values while they are decoded: `|S` data stays raw bytes (itemsize each) until the end. */
export interface Held {
  dtype: string;
  data: ValueData;
  shape: number[];
}

const LATIN1_CHUNK = 4096;

/** Bytes as Latin-1 text (one character per byte). */
export function latin1(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += LATIN1_CHUNK) {
    text += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + LATIN1_CHUNK)));
  }
  return text;
}

/** Latin-1 text back to its bytes (each character must be below U+0100). */
export function latin1Bytes(text: string): Uint8Array | undefined {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) return undefined;
    bytes[i] = code;
  }
  return bytes;
}

/** Element `i` of raw `|S` data without its trailing NULs, as NumPy's bytes scalars are. */
export function bytesElement(data: Uint8Array, itemsize: number, i: number): Uint8Array {
  let end = (i + 1) * itemsize;
  const start = i * itemsize;
  while (end > start && data[end - 1] === 0) end--;
  return data.subarray(start, end);
}

/** What core read, as values to decode: `<U` as strings, `|S` as raw bytes, objects with bytes marked. */
export function heldFromRead(read: NdArray<ValueData>, variable: string): Held {
  const dtype = valuesDtype(read.dtype, variable);
  const shape = [...read.shape];
  if (read.dtype.kind === "U") {
    return { dtype, shape, data: utf32Strings(read.data as Uint8Array, read.dtype.itemsize, variable) };
  }
  if (read.dtype.kind === "O") {
    const data = (read.data as unknown[]).map((v) => (v instanceof Uint8Array ? new ByteString(latin1(v)) : v));
    return { dtype, shape, data };
  }
  return { dtype, shape, data: read.data };
}

function utf32Strings(bytes: Uint8Array, itemsize: number, variable: string): string[] {
  const count = itemsize === 0 ? 0 : bytes.length / itemsize;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<string>(count);
  const points: number[] = [];
  for (let i = 0; i < count; i++) {
    points.length = 0;
    for (let j = 0; j < itemsize; j += 4) points.push(view.getUint32(i * itemsize + j, true));
    while (points.length > 0 && points[points.length - 1] === 0) points.pop();
    try {
      out[i] = String.fromCodePoint(...points);
    } catch (cause) {
      throw new CFError(`${variable}: element ${i} is not UTF-32 text (a code point above U+10FFFF)`, {
        variable,
        cause,
      });
    }
  }
  return out;
}

/** The values as users get them: raw bytes become Latin-1 strings, `ByteString`s their text. */
export function finish(held: Held): Values {
  const kind = kindOf(held.dtype);
  if (kind === "S") {
    const itemsize = itemsizeOf(held.dtype);
    const bytes = held.data as Uint8Array;
    const count = itemsize === 0 ? 0 : bytes.length / itemsize;
    const out = new Array<string>(count);
    for (let i = 0; i < count; i++) out[i] = latin1(bytesElement(bytes, itemsize, i));
    return { data: out, shape: held.shape, dtype: held.dtype };
  }
  if (kind === "O") {
    const data = (held.data as unknown[]).map((v) => (v instanceof ByteString ? v.text : v));
    return { data, shape: held.shape, dtype: held.dtype };
  }
  return { data: held.data, shape: held.shape, dtype: held.dtype };
}

/** Element `i` of numeric or boolean data as a JS number (float16 from its bits, int64 rounded). */
export function numberAt(held: Held, i: number): number {
  const value = (held.data as TypedArray)[i]!;
  if (held.dtype === "float16") return float16FromBits(value as number);
  return Number(value);
}

/** The number of elements of a shape. */
export const sizeOf = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

export { cStrides } from "@z/meta";
