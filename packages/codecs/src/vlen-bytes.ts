import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { defineCodec } from "./define-codec.js";
import { describeItem, isMissing, packItems, unpackItems } from "./vlen.js";

/** numcodecs `VLenBytes()` takes no parameters: `{"id": "vlen-bytes"}`. */
export const vlenBytesConfig = {};

/**
 * numcodecs `VLenBytes`: the object codec of byte-string arrays. Encodes an array of `Uint8Array`s
 * (`null`, `undefined`, `0` and `false` are stored empty, as numcodecs stores None and 0) as a
 * count, then each one's length and bytes; decodes to `Uint8Array`s.
 */
export const vlenBytes = defineCodec({
  id: "vlen-bytes",
  config: vlenBytesConfig,
  create: () => ({ encode: encodeBytes, decode: decodeBytes }),
});

function encodeBytes(data: CodecData, _chunk: ChunkContext): Uint8Array {
  if (!Array.isArray(data)) throw new Error(`expected an array of byte strings, got ${data.length} bytes`);
  const items = (data as readonly unknown[]).map((value, i) => {
    if (isMissing(value)) return new Uint8Array(0);
    if (!(value instanceof Uint8Array))
      throw new Error(`item ${i}: expected a Uint8Array, found ${describeItem(value)}`);
    return value;
  });
  return packItems(items);
}

function decodeBytes(data: CodecData, chunk: ChunkContext): Uint8Array[] {
  return unpackItems(requireBytes(data, "vlen-bytes", chunk), "vlen-bytes", chunk).map((item) => item.slice());
}
