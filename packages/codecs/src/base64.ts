import type { ChunkContext } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { defineCodec } from "./define-codec.js";
import { CodecError, inChunk } from "./errors.js";

/** numcodecs `Base64()` takes no parameters: `{"id": "base64"}`. */
export const base64Config = {};

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const ENCODE = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const DECODE = new Int8Array(256).fill(-1);
for (let i = 0; i < 64; i++) DECODE[ENCODE[i]!] = i;
const PAD = 0x3d; // "="

/**
 * numcodecs `Base64`: the data as standard base64 text with `=` padding (ASCII bytes), as Python's
 * `base64.standard_b64encode`. Decoding reads what `standard_b64decode` reads: bytes outside the
 * alphabet are skipped, decoding stops at the first complete padding, and a dangling partial group
 * is an error.
 */
export const base64 = defineCodec({
  id: "base64",
  config: base64Config,
  create: () => ({
    encode: (data, chunk) => encodeBase64(requireBytes(data, "base64", chunk)),
    decode: (data, chunk) => decodeBase64(requireBytes(data, "base64", chunk), chunk),
  }),
});

function encodeBase64(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = ENCODE[n >> 18]!;
    out[o++] = ENCODE[(n >> 12) & 63]!;
    out[o++] = ENCODE[(n >> 6) & 63]!;
    out[o++] = ENCODE[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = (bytes[i]! << 16) | (rest === 2 ? bytes[i + 1]! << 8 : 0);
    out[o++] = ENCODE[n >> 18]!;
    out[o++] = ENCODE[(n >> 12) & 63]!;
    out[o++] = rest === 2 ? ENCODE[(n >> 6) & 63]! : PAD;
    out[o++] = PAD;
  }
  return out;
}

/** CPython's `binascii.a2b_base64(data, strict_mode=False)`. */
function decodeBase64(text: Uint8Array, chunk: ChunkContext): Uint8Array {
  const out = new Uint8Array(Math.floor(((text.length + 3) / 4) * 3));
  let length = 0;
  let quadPos = 0;
  let leftChar = 0;
  let pads = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === PAD) {
      if (quadPos >= 2 && quadPos + ++pads >= 4) return out.slice(0, length);
      continue;
    }
    const v = DECODE[c]!;
    if (v < 0) continue;
    pads = 0;
    switch (quadPos) {
      case 0:
        quadPos = 1;
        leftChar = v;
        break;
      case 1:
        quadPos = 2;
        out[length++] = (leftChar << 2) | (v >> 4);
        leftChar = v & 0x0f;
        break;
      case 2:
        quadPos = 3;
        out[length++] = ((leftChar << 4) | (v >> 2)) & 0xff;
        leftChar = v & 0x03;
        break;
      default:
        quadPos = 0;
        out[length++] = ((leftChar << 6) | v) & 0xff;
        leftChar = 0;
    }
  }
  if (quadPos !== 0) {
    const detail =
      quadPos === 1
        ? `the number of data characters (${(length / 3) * 4 + 1}) cannot be 1 more than a multiple of 4`
        : "incorrect padding";
    throw new CodecError(`invalid base64 data${inChunk(chunk.key)}: ${detail}`, { codecId: "base64", key: chunk.key });
  }
  return out.slice(0, length);
}
