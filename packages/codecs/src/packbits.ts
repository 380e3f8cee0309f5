import type { ChunkContext } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { defineCodec } from "./define-codec.js";
import { CodecError, inChunk } from "./errors.js";

/** numcodecs `PackBits()` takes no parameters: `{"id": "packbits"}`. */
export const packbitsConfig = {};

/**
 * numcodecs `PackBits`: booleans (one byte each, any nonzero byte is true) packed eight to a byte,
 * most significant bit first, after a first byte holding how many bits of the last byte are padding.
 * Decoding gives bytes 0 and 1.
 */
export const packbits = defineCodec({
  id: "packbits",
  config: packbitsConfig,
  create: () => ({
    encode: (data, chunk) => pack(requireBytes(data, "packbits", chunk)),
    decode: (data, chunk) => unpack(requireBytes(data, "packbits", chunk), chunk),
  }),
});

function pack(bits: Uint8Array): Uint8Array {
  const n = bits.length;
  const out = new Uint8Array(1 + Math.ceil(n / 8));
  out[0] = n % 8 === 0 ? 0 : 8 - (n % 8);
  for (let i = 0; i < n; i++) {
    if (bits[i] !== 0) out[1 + (i >> 3)]! |= 0x80 >> (i & 7);
  }
  return out;
}

function unpack(packed: Uint8Array, chunk: ChunkContext): Uint8Array {
  const fail = (detail: string): never => {
    throw new CodecError(`corrupt packbits data${inChunk(chunk.key)}: ${detail}`, {
      codecId: "packbits",
      key: chunk.key,
    });
  };
  if (packed.length === 0) fail("no data (the padding byte is missing)");
  const padding = packed[0]!;
  if (padding > 7) fail(`the padding byte is ${padding}, more than 7 bits`);
  const n = (packed.length - 1) * 8 - padding;
  if (n < 0) fail(`${padding} bits of padding but no packed bytes`);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (packed[1 + (i >> 3)]! >> (7 - (i & 7))) & 1;
  return out;
}
