import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { defineCodec } from "./define-codec.js";
import { cast, NumericError, readArray, typeString, writeArray, type NumericType } from "./numeric.js";
import { numericDtype, typeOf } from "./numeric-fields.js";

/** numcodecs `AsType(encode_dtype, decode_dtype)`: `{"id": "astype", "encode_dtype": "<f4", "decode_dtype": "<f8"}`. */
export const astypeConfig = {
  encode_dtype: numericDtype(),
  decode_dtype: numericDtype(),
};

/**
 * numcodecs `AsType`: casts elements of `decode_dtype` to `encode_dtype` and back, as NumPy's
 * `astype` does (integers wrap, floats round to nearest, floats to integers truncate).
 */
export const astype = defineCodec({
  id: "astype",
  config: astypeConfig,
  create: (config) => {
    const encoded = typeOf(config.encode_dtype);
    const decoded = typeOf(config.decode_dtype);
    const convert = (from: NumericType, to: NumericType) => (data: CodecData, chunk: ChunkContext) => {
      const bytes = requireBytes(data, "astype", chunk);
      // One type (in either byte order): NumPy copies the bits, a float's NaN payload included,
      // which a float32 read into a JS number would not keep.
      if (from.kind === to.kind && from.size === to.size) return sameType(bytes, from, to);
      return writeArray(cast(readArray(bytes, from), to));
    };
    return { encode: convert(decoded, encoded), decode: convert(encoded, decoded) };
  },
});

/** `bytes` (elements of `from`) as elements of `to`, the same type: copied, and byte-swapped when the orders differ. */
function sameType(bytes: Uint8Array, from: NumericType, to: NumericType): Uint8Array {
  const size = from.size;
  if (bytes.length % size !== 0) {
    throw new NumericError(`${bytes.length} bytes are not a whole number of ${size}-byte ${typeString(from)} elements`);
  }
  const out = bytes.slice();
  if (size === 1 || from.littleEndian === to.littleEndian) return out;
  for (let i = 0; i < out.length; i += size) out.subarray(i, i + size).reverse();
  return out;
}
