import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { nullable } from "./config-schema.js";
import { defineCodec } from "./define-codec.js";
import { around, cast, readArray, scalarOp, writeArray } from "./numeric.js";
import { numericDtype, pyNumber, pyScalar, typeOf, withDerivedDefaults } from "./numeric-fields.js";

/**
 * numcodecs `FixedScaleOffset(offset, scale, dtype, astype=None)`:
 * `{"id": "fixedscaleoffset", "scale": 10, "offset": 1000.0, "dtype": "<f8", "astype": "|u1"}`.
 * `scale` and `offset` stay Python ints or floats as written (`1000` vs `1000.0`: NumPy computes
 * differently with them); `astype` left out (or null) is `dtype`.
 */
export const fixedScaleOffsetConfig = {
  scale: pyNumber(),
  offset: pyNumber(),
  dtype: numericDtype(),
  astype: nullable(numericDtype(), { default: null }),
};

/**
 * numcodecs `FixedScaleOffset`: encodes `round((x - offset) * scale)` cast to `astype`, decodes
 * `y / scale + offset` cast to `dtype`, each step typed and rounded as NumPy 1.24 does it.
 */
export const fixedscaleoffset = withDerivedDefaults(
  defineCodec({
    id: "fixedscaleoffset",
    config: fixedScaleOffsetConfig,
    create: (config) => {
      const decoded = typeOf(config.dtype);
      const encoded = typeOf(config.astype ?? config.dtype);
      const scale = pyScalar(config.scale);
      const offset = pyScalar(config.offset);
      return {
        encode(data: CodecData, chunk: ChunkContext) {
          const values = readArray(requireBytes(data, "fixedscaleoffset", chunk), decoded);
          const scaled = around(scalarOp(scalarOp(values, "subtract", offset), "multiply", scale));
          return writeArray(cast(scaled, encoded));
        },
        decode(data: CodecData, chunk: ChunkContext) {
          const values = readArray(requireBytes(data, "fixedscaleoffset", chunk), encoded);
          return writeArray(cast(scalarOp(scalarOp(values, "divide", scale), "add", offset), decoded));
        },
      };
    },
  }),
  (values) => ({ ...values, astype: values.astype ?? values.dtype }),
);
