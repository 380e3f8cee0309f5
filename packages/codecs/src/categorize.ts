import type { ChunkContext, CodecData } from "./codec.js";
import { decodedTooLarge, maxDecodedSize, requireBytes } from "./chunk-bytes.js";
import { dtype, field, FieldMismatch, list, string } from "./config-schema.js";
import { defineCodec } from "./define-codec.js";
import { castValue, readArray, writeArray, type NumericArray, type NumericType } from "./numeric.js";
import { numericDtype, typeOf } from "./numeric-fields.js";

const STRING_DTYPE = "'|O' (an object array of strings) or a NumPy unicode dtype such as '<U12'";

/** The dtype of the categorized data: `|O` or a fixed-width unicode type (`<U8`, `>U8`). */
function stringDtype() {
  const base = dtype();
  return field<string>({
    kind: "dtype",
    expected: STRING_DTYPE,
    parse(value) {
      let normal: string;
      try {
        normal = base.parse(value);
      } catch {
        throw new FieldMismatch(STRING_DTYPE, value);
      }
      if (normal !== "|O" && !/^[<>]U\d+$/.test(normal)) throw new FieldMismatch(STRING_DTYPE, value);
      return normal;
    },
  });
}

/**
 * numcodecs `Categorize(labels, dtype, astype='u1')`:
 * `{"id": "categorize", "labels": ["female", "male"], "dtype": "|O", "astype": "|u1"}`.
 */
export const categorizeConfig = {
  labels: list(string()),
  dtype: stringDtype(),
  astype: numericDtype({ default: "|u1" }),
};

/**
 * numcodecs `Categorize`: each string becomes the 1-based index of its label (the last one, if a
 * label repeats), 0 for strings that are no label, as `astype` integers. Decoding gives the labels
 * back, and `""` for 0 or any other number. With `dtype` `|O` the data are the JS strings of an
 * object array (anything else is no label); with `<U*` they are fixed-width UCS-4 bytes.
 */
export const categorize = defineCodec({
  id: "categorize",
  config: categorizeConfig,
  create: (config) => {
    const encoded = typeOf(config.astype);
    const labels = config.labels;
    const unicode = config.dtype === "|O" ? undefined : unicodeLayout(config.dtype);
    return {
      encode: (data: CodecData, chunk: ChunkContext) => {
        let values: readonly unknown[];
        if (unicode) values = readUnicode(requireBytes(data, "categorize", chunk), unicode);
        else if (Array.isArray(data)) values = data as readonly unknown[];
        else throw new Error(`dtype |O takes an array of strings, not ${describe(data)}`);
        return encodeCategories(values, labels, encoded, unicode !== undefined);
      },
      decode: (data: CodecData, chunk: ChunkContext) => {
        const strings = decodeCategories(readArray(requireBytes(data, "categorize", chunk), encoded), labels);
        if (unicode) {
          // The output's size comes from the config's dtype: refuse more than a chunk before allocating it.
          const limit = maxDecodedSize(chunk);
          if (strings.length * unicode.chars * 4 > limit) throw decodedTooLarge("categorize", chunk, limit);
          return writeUnicode(strings, unicode);
        }
        return strings;
      },
    };
  },
});

function describe(data: unknown): string {
  return data instanceof Uint8Array ? `${data.length} bytes` : typeof data;
}

interface UnicodeLayout {
  readonly chars: number;
  readonly littleEndian: boolean;
}

function unicodeLayout(dtypeString: string): UnicodeLayout {
  return { chars: Number(dtypeString.slice(2)), littleEndian: dtypeString[0] === "<" };
}

/** NumPy compares strings as if padded with NULs: "a" equals "a\0". */
function stripNuls(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0) end--;
  return text.slice(0, end);
}

function readUnicode(bytes: Uint8Array, layout: UnicodeLayout): string[] {
  const size = layout.chars * 4;
  if (size === 0 || bytes.length % size !== 0) {
    throw new Error(`${bytes.length} bytes are not a whole number of ${layout.chars}-character UCS-4 strings`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) {
    let text = "";
    for (let i = 0; i < layout.chars; i++) {
      const point = view.getUint32(offset + i * 4, layout.littleEndian);
      if (point > 0x10ffff) throw new Error(`0x${point.toString(16)} is not a Unicode code point`);
      text += String.fromCodePoint(point);
    }
    out.push(stripNuls(text));
  }
  return out;
}

function writeUnicode(strings: readonly string[], layout: UnicodeLayout): Uint8Array {
  const size = layout.chars * 4;
  const bytes = new Uint8Array(strings.length * size);
  const view = new DataView(bytes.buffer);
  strings.forEach((text, index) => {
    let i = 0;
    for (const char of text) {
      if (i === layout.chars) break; // NumPy truncates what does not fit
      view.setUint32(index * size + i * 4, char.codePointAt(0)!, layout.littleEndian);
      i++;
    }
  });
  return bytes;
}

function encodeCategories(
  values: readonly unknown[],
  labels: readonly string[],
  type: NumericType,
  padded: boolean,
): Uint8Array {
  const index = new Map<string, number>();
  labels.forEach((label, i) => index.set(padded ? stripNuls(label) : label, i + 1));
  const codes = labels.map((_, i) => castValue(i + 1, { kind: "i", size: 8, littleEndian: true }, type));
  const zero = castValue(0, { kind: "i", size: 8, littleEndian: true }, type);
  const n = values.length;
  const big = typeof zero === "bigint";
  const data = big ? (type.kind === "i" ? new BigInt64Array(n) : new BigUint64Array(n)) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const value = values[i];
    const code = typeof value === "string" ? index.get(value) : undefined;
    (data as unknown as (number | bigint)[])[i] = code === undefined ? zero : codes[code - 1]!;
  }
  return writeArray({ type, data });
}

function decodeCategories(codes: NumericArray, labels: readonly string[]): string[] {
  const out: string[] = new Array<string>(codes.data.length).fill("");
  for (let i = 0; i < codes.data.length; i++) {
    const code = codes.data[i]!;
    // The last label whose index equals the code, as numcodecs assigns labels in order.
    const n = typeof code === "bigint" ? (code > 0n && code <= BigInt(labels.length) ? Number(code) : 0) : code;
    if (Number.isInteger(n) && n >= 1 && n <= labels.length) out[i] = labels[n - 1]!;
  }
  return out;
}
