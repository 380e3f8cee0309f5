import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { defineCodec } from "./define-codec.js";
import { describeItem, isMissing, packItems, unpackItems } from "./vlen.js";

/** numcodecs `VLenUTF8()` takes no parameters: `{"id": "vlen-utf8"}`. */
export const vlenUtf8Config = {};

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * numcodecs `VLenUTF8`: the object codec of string arrays. Encodes an array of JS strings
 * (`null`, `undefined`, `0` and `false` are stored as `""`, as numcodecs stores None and 0) as a
 * count, then each string's UTF-8 length and bytes; decodes to strings. Strings with lone
 * surrogates cannot be UTF-8 and are refused, as Python refuses them.
 */
export const vlenUtf8 = defineCodec({
  id: "vlen-utf8",
  config: vlenUtf8Config,
  create: () => ({ encode: encodeStrings, decode: decodeStrings }),
});

function encodeStrings(data: CodecData, _chunk: ChunkContext): Uint8Array {
  if (!Array.isArray(data)) throw new Error(`expected an array of strings, got ${data.length} bytes`);
  const items = (data as readonly unknown[]).map((value, i) => {
    if (isMissing(value)) return new Uint8Array(0);
    if (typeof value !== "string") throw new Error(`item ${i}: expected a string, found ${describeItem(value)}`);
    if (LONE_SURROGATE.test(value))
      throw new Error(`item ${i}: ${describeItem(value)} has a lone surrogate, which UTF-8 cannot encode`);
    return encoder.encode(value);
  });
  return packItems(items);
}

function decodeStrings(data: CodecData, chunk: ChunkContext): string[] {
  return unpackItems(requireBytes(data, "vlen-utf8", chunk), "vlen-utf8", chunk).map((item, i) => {
    try {
      return decoder.decode(item);
    } catch {
      throw new Error(`item ${i} is not valid UTF-8`);
    }
  });
}
