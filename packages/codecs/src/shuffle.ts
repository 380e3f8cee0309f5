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
  for (let i = 0; i < count; i++) {
    for (let b = 0; b < size; b++) {
      if (inverse) out[i * size + b] = input[b * count + i]!;
      else out[b * count + i] = input[i * size + b]!;
    }
  }
  return out;
}
