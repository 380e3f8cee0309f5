// xarray's CharacterArrayCoder and EncodedStringCoder decoding (xarray/coding/strings.py), and the
// BoolTypeArray of xarray/conventions.py.
import { CFError } from "../errors.js";
import { itemsizeOf, kindOf } from "../dtype.js";
import { ByteString, bytesElement, latin1, numberAt, type Held } from "../values.js";
import { latin1Bytes } from "../values.js";
import { type Encoding, safeSet } from "./encoding.js";

/**
 * `char_to_bytes`: `|S1` characters along the last dimension joined into `|S<n>` strings (the
 * dimension goes); NULs inside a string stay, trailing ones go when the strings are read.
 */
export function stackCharacters(held: Held): Held {
  const n = held.shape[held.shape.length - 1]!;
  const shape = held.shape.slice(0, -1);
  if (n === 0) {
    const count = shape.reduce((a, b) => a * b, 1);
    return { dtype: "|S1", shape, data: new Uint8Array(count) };
  }
  // |S1 elements are single bytes in C order: the |S<n> elements are the same bytes.
  return { dtype: `|S${n}`, shape, data: held.data };
}

/** The `_Encoding` names Python knows by other spellings, mapped to what `TextDecoder` calls them. */
function decoderFor(encoding: string, variable: string): (bytes: Uint8Array) => string {
  const name = encoding.toLowerCase().replace(/_/g, "-");
  if (name === "latin-1" || name === "latin1" || name === "iso-8859-1" || name === "l1") return latin1;
  if (name === "ascii" || name === "us-ascii") {
    return (bytes) => {
      if (bytes.some((b) => b > 0x7f)) throw new TypeError("a byte above 0x7f");
      return latin1(bytes);
    };
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(name, { fatal: true });
  } catch (cause) {
    throw new CFError(`${variable}: unknown _Encoding ${JSON.stringify(encoding)}`, {
      variable,
      attribute: "_Encoding",
      cause,
    });
  }
  return (bytes) => decoder.decode(bytes);
}

/** `decode_bytes_array`: bytes (raw `|S` data, or bytes in an object array) to strings in `encoding`. */
export function decodeBytes(held: Held, encoding: string, variable: string): Held {
  const decode = decoderFor(encoding, variable);
  const length = held.shape.reduce((a, b) => a * b, 1);
  const kind = kindOf(held.dtype);
  const out = new Array<unknown>(length);
  for (let i = 0; i < length; i++) {
    let bytes: Uint8Array;
    if (kind === "S") bytes = bytesElement(held.data as Uint8Array, itemsizeOf(held.dtype), i);
    else {
      const value = (held.data as unknown[])[i];
      if (!(value instanceof ByteString))
        throw new CFError(`${variable}: _Encoding applies to bytes, but element ${i} is not bytes`, {
          variable,
          attribute: "_Encoding",
        });
      bytes = Uint8Array.from(value.text, (c) => c.charCodeAt(0));
    }
    try {
      out[i] = decode(bytes);
    } catch (cause) {
      throw new CFError(`${variable}: element ${i} is not ${encoding} text`, {
        variable,
        attribute: "_Encoding",
        cause,
      });
    }
  }
  return { dtype: "object", shape: held.shape, data: out };
}

/** `np.asarray(data, dtype=bool)`: non-zero numbers (NaN too) and truthy objects are true. */
export function toBooleans(held: Held): Held {
  const length = held.shape.reduce((a, b) => a * b, 1);
  const out = new Uint8Array(length);
  const kind = kindOf(held.dtype);
  for (let i = 0; i < length; i++) {
    if (kind === "O") out[i] = truthy((held.data as unknown[])[i]) ? 1 : 0;
    else if (kind === "U") out[i] = (held.data as string[])[i] !== "" ? 1 : 0;
    else if (kind === "S") out[i] = bytesElement(held.data as Uint8Array, itemsizeOf(held.dtype), i).length > 0 ? 1 : 0;
    else if (kind === "M" || kind === "m" || held.dtype === "int64" || held.dtype === "uint64")
      out[i] = (held.data as BigInt64Array)[i] !== 0n ? 1 : 0;
    else out[i] = numberAt(held, i) !== 0 ? 1 : 0;
  }
  return { dtype: "bool", shape: held.shape, data: out };
}

/** Python's truth value of an element of an object array (`null` is NaN here: true). */
function truthy(value: unknown): boolean {
  if (value === null) return true;
  if (value instanceof ByteString) return value.text !== "";
  if (typeof value === "number") return value !== 0;
  if (typeof value === "bigint") return value !== 0n;
  if (typeof value === "string") return value !== "";
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

// Encoding: booleans and strings as stored (xarray's BooleanCoder, EncodedStringCoder, CharacterArrayCoder).

/** `maybe_encode_bools`: booleans as int8 with the attribute `dtype: "bool"`. */
export function encodeBools(state: Encoding): void {
  if (state.held.dtype !== "bool" || "dtype" in state.encoding || "dtype" in state.attrs) return;
  state.attrs.dtype = "bool";
  state.held = { dtype: "int8", shape: state.held.shape, data: Int8Array.from(state.held.data as Uint8Array) };
}

/**
 * `ensure_dtype_not_object` and the zarr backend's string handling: object arrays of strings are
 * stored as vlen UTF-8 (missing ones as ""), of bytes as fixed-width `|S`; `<U` stays `<U`; strings
 * with `_Encoding` (or encoding dtype `S1`) are stored as their bytes in it.
 */
export function encodeStrings(state: Encoding): void {
  const held = state.held;
  const kind = kindOf(held.dtype);
  const asChars = state.encoding.dtype === "S1" || state.encoding.dtype === "|S1";
  const stringEncoding = state.encoding._Encoding ?? (asChars ? "utf-8" : undefined);
  if ((kind === "U" || kind === "O") && stringEncoding !== undefined) {
    delete state.encoding._Encoding;
    if (typeof stringEncoding !== "string" || !/^utf-?8$/i.test(stringEncoding))
      throw new CFError(`${state.name}: only _Encoding utf-8 is written`, {
        variable: state.name,
        attribute: "_Encoding",
      });
    safeSet(state, "_Encoding", "utf-8");
    const encoder = new TextEncoder();
    const strings = (held.data as unknown[]).map((v) => encoder.encode(v === null ? "" : String(v)));
    state.held = fixedBytes(strings, held.shape);
    return;
  }
  if (kind !== "O") return;
  const values = held.data as unknown[];
  const present = values.filter((v) => !(v === null || (typeof v === "number" && Number.isNaN(v))));
  if (present.length === 0 && values.length > 0) {
    state.held = { dtype: "float64", shape: held.shape, data: new Float64Array(values.length).fill(NaN) };
    return;
  }
  const first = present[0];
  if (typeof first === "string" || values.length === 0) {
    state.held = { dtype: "object", shape: held.shape, data: values.map((v) => (typeof v === "string" ? v : "")) };
  } else if (first instanceof ByteString) {
    const bytes = values.map((v) => (v instanceof ByteString ? latin1Bytes(v.text)! : new Uint8Array(0)));
    state.held = fixedBytes(bytes, held.shape);
  } else if (typeof first === "boolean" || typeof first === "number") {
    state.held = {
      dtype: "float64",
      shape: held.shape,
      data: Float64Array.from(values, (v) => (v === null ? NaN : Number(v))),
    };
  } else {
    throw new CFError(
      `${state.name}: cannot store object values like ${String(first)} (xarray stores strings, bytes and numbers)`,
      {
        variable: state.name,
      },
    );
  }
}

/** Bytes as `|S<n>` raw data, `n` the longest (at least 1). */
function fixedBytes(values: Uint8Array[], shape: number[]): Held {
  const width = Math.max(1, ...values.map((v) => v.length));
  const data = new Uint8Array(values.length * width);
  values.forEach((v, i) => data.set(v, i * width));
  return { dtype: `|S${width}`, shape, data };
}

/** UTF-32 strings as `<U<n>` raw data (`n` the longest in code points, at least 1). */
export function utf32Data(strings: readonly string[], width?: number): { data: Uint8Array; width: number } {
  const points = strings.map((s) => [...s].map((c) => c.codePointAt(0)!));
  const n = width ?? Math.max(1, ...points.map((p) => p.length));
  const data = new Uint8Array(strings.length * n * 4);
  const view = new DataView(data.buffer);
  points.forEach((p, i) => p.forEach((c, j) => view.setUint32((i * n + j) * 4, c, true)));
  return { data, width: n };
}
