import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { boolean, field, FieldMismatch, integer, list, nullable, string } from "./config-schema.js";
import { defineCodec } from "./define-codec.js";
import { withDerivedDefaults } from "./numeric-fields.js";
import { pythonJsonDumps, pythonJsonLoads } from "./python-json.js";
import { chunkFromItems, chunkItems } from "./python-values.js";

/** Python codec names (normalised as Python normalises them) this codec can read and write. */
const ENCODINGS: Readonly<Record<string, "utf-8" | "ascii" | "latin-1" | "utf-16" | "utf-16-le" | "utf-16-be">> = {
  utf_8: "utf-8",
  utf8: "utf-8",
  u8: "utf-8",
  utf: "utf-8",
  cp65001: "utf-8",
  ascii: "ascii",
  us_ascii: "ascii",
  "646": "ascii",
  latin_1: "latin-1",
  latin1: "latin-1",
  latin: "latin-1",
  l1: "latin-1",
  iso_8859_1: "latin-1",
  iso8859_1: "latin-1",
  "8859": "latin-1",
  cp819: "latin-1",
  utf_16: "utf-16",
  utf16: "utf-16",
  u16: "utf-16",
  utf_16_le: "utf-16-le",
  utf_16le: "utf-16-le",
  utf_16_be: "utf-16-be",
  utf_16be: "utf-16-be",
};

function encodingOf(name: string): (typeof ENCODINGS)[string] | undefined {
  return ENCODINGS[name.toLowerCase().replace(/[-\s]/g, "_")];
}

const ENCODING_EXPECTED = "a Python text encoding: utf-8, ascii, latin-1, utf-16, utf-16-le or utf-16-be";

/** The indent: null, a number of spaces, or the indent string (as Python's `json` takes it). */
const indentField = field<number | string | null>({
  kind: "json",
  expected: "null, an integer or a string",
  default: null,
  parse(value) {
    if (value === null || typeof value === "string") return value;
    return integer().parse(value);
  },
});

/**
 * numcodecs
 * `JSON(encoding='utf-8', skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, sort_keys=True, indent=None, separators=None, strict=True)`,
 * written as its `get_config()` writes it:
 * `{"id": "json2", "encoding": "utf-8", "skipkeys": false, "ensure_ascii": true, "check_circular": true, "allow_nan": true, "indent": null, "separators": [",", ":"], "sort_keys": true, "strict": true}`.
 * `separators` left out (or null) becomes `[",", ":"]`, or
 * `[", ", ": "]` with an indent.
 */
export const json2Config = {
  encoding: field<string>({
    kind: "string",
    expected: ENCODING_EXPECTED,
    default: "utf-8",
    parse(value) {
      if (typeof value !== "string" || encodingOf(value) === undefined)
        throw new FieldMismatch(ENCODING_EXPECTED, value);
      return value;
    },
  }),
  skipkeys: boolean({ default: false }),
  ensure_ascii: boolean({ default: true }),
  check_circular: boolean({ default: true }),
  allow_nan: boolean({ default: true }),
  indent: indentField,
  separators: nullable(list(string(), { minLength: 2, maxLength: 2 }), { default: null }),
  sort_keys: boolean({ default: true }),
  strict: boolean({ default: true }),
};

/**
 * numcodecs `JSON`: an object codec writing the chunk as Python's `json.dumps` writes
 * `values.tolist() + [dtype, shape]` (nested lists for chunks of several dimensions, given the
 * context's `shape`), byte for byte, and reading it back with `json.loads`. Values map to Python
 * as `chunkItems` describes: strings, numbers (`JsonFloat` for floats with integral values),
 * bigints, booleans, null, arrays and plain objects.
 */
export const json2 = withDerivedDefaults(
  defineCodec({
    id: "json2",
    config: json2Config,
    create: (config) => {
      const encoding = encodingOf(config.encoding)!;
      const [itemSeparator, keySeparator] = config.separators ?? [",", ":"];
      const options = {
        skipkeys: config.skipkeys,
        ensureAscii: config.ensure_ascii,
        checkCircular: config.check_circular,
        allowNan: config.allow_nan,
        sortKeys: config.sort_keys,
        indent: config.indent,
        itemSeparator: itemSeparator!,
        keySeparator: keySeparator!,
      };
      return {
        encode: (data: CodecData, chunk: ChunkContext) =>
          encodeText(pythonJsonDumps(chunkItems(data, chunk), options), encoding),
        decode: (data: CodecData, chunk: ChunkContext) =>
          chunkFromItems(
            pythonJsonLoads(decodeText(requireBytes(data, "json2", chunk), encoding), config.strict),
            chunk,
          ),
      };
    },
  }),
  (values) => ({ ...values, separators: values.separators ?? (values.indent === null ? [",", ":"] : [", ", ": "]) }),
);

const utf8 = new TextEncoder();

function encodeText(text: string, encoding: NonNullable<ReturnType<typeof encodingOf>>): Uint8Array {
  switch (encoding) {
    case "utf-8":
      if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) {
        throw new Error("the text has a lone surrogate, which utf-8 cannot encode");
      }
      return utf8.encode(text);
    case "ascii":
    case "latin-1": {
      const limit = encoding === "ascii" ? 0x80 : 0x100;
      const out = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c >= limit)
          throw new Error(`'${encoding}' codec can't encode character U+${c.toString(16).padStart(4, "0")}`);
        out[i] = c;
      }
      return out;
    }
    default: {
      const bom = encoding === "utf-16";
      const le = encoding !== "utf-16-be";
      const out = new Uint8Array((text.length + (bom ? 1 : 0)) * 2);
      const view = new DataView(out.buffer);
      let at = 0;
      if (bom) {
        view.setUint16(0, 0xfeff, true);
        at = 2;
      }
      for (let i = 0; i < text.length; i++, at += 2) view.setUint16(at, text.charCodeAt(i), le);
      return out;
    }
  }
}

function decodeText(bytes: Uint8Array, encoding: NonNullable<ReturnType<typeof encodingOf>>): string {
  let label: string = encoding;
  let body = bytes;
  if (encoding === "ascii") {
    const bad = bytes.findIndex((b) => b >= 0x80);
    if (bad >= 0) throw new Error(`'ascii' codec can't decode byte 0x${bytes[bad]!.toString(16)} in position ${bad}`);
    label = "latin1";
  } else if (encoding === "latin-1") {
    label = "latin1";
  } else if (encoding === "utf-16") {
    // Python's utf-16 decoder takes its byte order from a BOM, little-endian without one.
    const big = bytes[0] === 0xfe && bytes[1] === 0xff;
    const little = bytes[0] === 0xff && bytes[1] === 0xfe;
    label = big ? "utf-16be" : "utf-16le";
    if (big || little) body = bytes.subarray(2);
  } else if (encoding !== "utf-8") {
    label = encoding === "utf-16-le" ? "utf-16le" : "utf-16be";
  }
  try {
    return new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw new Error(`the data is not valid ${encoding}`);
  }
}
