import { requireBytes } from "./chunk-bytes.js";
import { integer } from "./config-schema.js";
import { defineCodec } from "./define-codec.js";

/** numcodecs `Shuffle(elementsize=4)`: `{"id": "shuffle", "elementsize": 4}`. */
export const shuffleConfig = { elementsize: integer({ default: 4 }) };

/**
 * numcodecs `Shuffle`: the bytes of `elementsize`-byte elements regrouped, all first bytes, then
 * all second bytes, and so on. An `elementsize` of 1 or less leaves the bytes as they are; a
 * buffer that is not a whole number of elements is refused, as numcodecs refuses it.
 */
export const shuffle = defineCodec({
  id: "shuffle",
  config: shuffleConfig,
  create: ({ elementsize }) => ({
    encode: (data, chunk) => shuffleBytes(requireBytes(data, "shuffle", chunk), elementsize, false),
    decode: (data, chunk) => shuffleBytes(requireBytes(data, "shuffle", chunk), elementsize, true),
  }),
});

function shuffleBytes(input: Uint8Array, size: number, inverse: boolean): Uint8Array {
  if (size <= 1) return input.slice();
  if (input.length % size !== 0) {
    throw new Error(`${input.length} bytes are not a whole number of ${size}-byte elements`);
  }
  const count = input.length / size;
  const out = new Uint8Array(input.length);
  if (inverse && size === 4 && LITTLE_ENDIAN) unshuffle4(input, out, count);
  else if (inverse) {
    // One plane of byte `b` after another: each read runs through the input in order.
    for (let b = 0; b < size; b++) {
      const plane = input.subarray(b * count, (b + 1) * count);
      for (let i = 0, o = b; i < count; i++, o += size) out[o] = plane[i]!;
    }
  } else {
    for (let b = 0; b < size; b++) {
      const plane = out.subarray(b * count, (b + 1) * count);
      for (let i = 0, o = b; i < count; i++, o += size) plane[i] = input[o]!;
    }
  }
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The inverse for 4-byte elements (float32, int32: HDF5's shuffle filter on most NetCDF
 * variables), one 32-bit word per element from its four bytes in the four planes: about four
 * times fewer stores than byte by byte. `out` is new memory, so its words are aligned.
 */
function unshuffle4(input: Uint8Array, out: Uint8Array, count: number): void {
  const words = new Uint32Array(out.buffer, out.byteOffset, count);
  const b1 = count;
  const b2 = 2 * count;
  const b3 = 3 * count;
  for (let i = 0; i < count; i++)
    words[i] = (input[i]! | (input[b1 + i]! << 8) | (input[b2 + i]! << 16) | (input[b3 + i]! << 24)) >>> 0;
}
