import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { defineCodec } from "./define-codec.js";
import { cast, readArray, writeArray, type NumericType } from "./numeric.js";
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
    const convert = (from: NumericType, to: NumericType) => (data: CodecData, chunk: ChunkContext) =>
      writeArray(cast(readArray(requireBytes(data, "astype", chunk), from), to));
    return { encode: convert(decoded, encoded), decode: convert(encoded, decoded) };
  },
});
