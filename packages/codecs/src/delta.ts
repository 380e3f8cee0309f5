import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { nullable } from "./config-schema.js";
import { defineCodec } from "./define-codec.js";
import { cast, cumsum, diff, readArray, writeArray, type NumericArray, type NumericType } from "./numeric.js";
import { numericDtype, typeOf, withDerivedDefaults } from "./numeric-fields.js";

/**
 * numcodecs `Delta(dtype, astype=None)`: `{"id": "delta", "dtype": "<i4", "astype": "<i4"}`;
 * `astype` left out (or null) is `dtype`, and is written back as such.
 */
export const deltaConfig = {
  dtype: numericDtype(),
  astype: nullable(numericDtype(), { default: null }),
};

/**
 * numcodecs `Delta`: the first element, then the differences between neighbours, computed in
 * `dtype` (wrapping integers, rounding floats as NumPy does) and cast to `astype`. Decoding sums
 * them up again in `dtype`. Works on the bytes of `dtype` elements, whatever the array's dtype.
 */
export const delta = withDerivedDefaults(
  defineCodec({
    id: "delta",
    config: deltaConfig,
    create: ({ dtype, astype }) => {
      const decoded = typeOf(dtype);
      const encoded = typeOf(astype ?? dtype);
      return {
        encode: (data: CodecData, chunk: ChunkContext) =>
          encodeDelta(requireBytes(data, "delta", chunk), decoded, encoded),
        decode: (data: CodecData, chunk: ChunkContext) =>
          writeArray(cumsum(readArray(requireBytes(data, "delta", chunk), encoded), decoded)),
      };
    },
  }),
  (values) => ({ ...values, astype: values.astype ?? values.dtype }),
);

function encodeDelta(bytes: Uint8Array, decoded: NumericType, encoded: NumericType): Uint8Array {
  const values = readArray(bytes, decoded);
  if (values.data.length === 0) return new Uint8Array(0);
  const first: NumericArray = { type: decoded, data: values.data.subarray(0, 1) };
  const head = writeArray(cast(first, encoded));
  const rest = writeArray(cast(diff(values), encoded));
  const out = new Uint8Array(head.length + rest.length);
  out.set(head);
  out.set(rest, head.length);
  return out;
}
