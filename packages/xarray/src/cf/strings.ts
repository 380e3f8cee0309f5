// xarray's CharacterArrayCoder and EncodedStringCoder decoding (xarray/coding/strings.py), and the
// BoolTypeArray of xarray/conventions.py.
import { CFError } from "../errors.js";
import { itemsizeOf, kindOf } from "../dtype.js";
import { ByteString, bytesElement, latin1, numberAt, type Held } from "../values.js";

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
