import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { integer, nullable } from "./config-schema.js";
import { defineCodec } from "./define-codec.js";
import { around, cast, readArray, scalarOp, writeArray, type PyScalar } from "./numeric.js";
import { floatDtype, typeOf, withDerivedDefaults } from "./numeric-fields.js";

/**
 * numcodecs `Quantize(digits, dtype, astype=None)`:
 * `{"id": "quantize", "digits": 3, "dtype": "<f8", "astype": "<f8"}`; both dtypes must be floats, `astype` left out (or null) is `dtype`.
 */
export const quantizeConfig = {
  digits: integer(),
  dtype: floatDtype(),
  astype: nullable(floatDtype(), { default: null }),
};

/** Python's `10.0 ** n` for an integer `n`, correctly rounded (as C's `pow` gives it). */
function powerOfTen(n: number): number {
  return Number(`1e${n}`);
}

/**
 * The power of two numcodecs scales by to keep `digits` decimal digits, computed step by step as
 * its Python code does (`math.log` is natural log over natural log, as in Python).
 */
export function quantizeScale(digits: number): number {
  const precision = powerOfTen(-digits);
  if (!(precision > 0) || !Number.isFinite(precision)) {
    throw new RangeError(`quantize: 10 ** -${digits} is out of the range of a float`);
  }
  let exp = Math.log(precision) / Math.log(10);
  exp = exp < 0 ? Math.floor(exp) : Math.ceil(exp);
  const bits = Math.ceil(Math.log(powerOfTen(-exp)) / Math.log(2));
  return 2 ** bits;
}

/**
 * numcodecs `Quantize`: a lossy filter that rounds floats to multiples of a power of two fine
 * enough for `digits` decimal digits (`around(scale * x) / scale`, in the array's float type as
 * NumPy computes it), cast to `astype`. Decoding only casts back to `dtype`.
 */
export const quantize = withDerivedDefaults(
  defineCodec({
    id: "quantize",
    config: quantizeConfig,
    create: (config) => {
      const decoded = typeOf(config.dtype);
      const encoded = typeOf(config.astype ?? config.dtype);
      // numcodecs accepts any digits and fails when encoding (10.0 ** 400 overflows): so do we.
      let scale: PyScalar | undefined;
      return {
        encode(data: CodecData, chunk: ChunkContext) {
          scale ??= { float: true, value: quantizeScale(config.digits) };
          const values = readArray(requireBytes(data, "quantize", chunk), decoded);
          const rounded = scalarOp(around(scalarOp(values, "multiply", scale, true)), "divide", scale);
          return writeArray(cast(rounded, encoded));
        },
        decode: (data: CodecData, chunk: ChunkContext) =>
          writeArray(cast(readArray(requireBytes(data, "quantize", chunk), encoded), decoded)),
      };
    },
  }),
  (values) => ({ ...values, astype: values.astype ?? values.dtype }),
);
