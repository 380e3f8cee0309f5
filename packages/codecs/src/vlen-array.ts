import {
  byteSwapInPlace,
  JsonFloat,
  parseDataType,
  typedArrayConstructor,
  valuesPerElement,
  type DataType,
  type TypedArray,
} from "@z/meta";
import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { dtype, field, FieldMismatch } from "./config-schema.js";
import { defineCodec } from "./define-codec.js";
import { castValue, numericType, writeArray, type NumericType } from "./numeric.js";
import { describeItem, packItems, unpackItems } from "./vlen.js";

const EXPECTED = "a NumPy dtype of fixed size, not object, such as '<i4' or '<f8'";

/** numcodecs `VLenArray(dtype)`: `{"id": "vlen-array", "dtype": "<i4"}`. */
export const vlenArrayConfig = {
  dtype: field<string>({
    kind: "dtype",
    expected: EXPECTED,
    parse(value) {
      let normal: string;
      try {
        normal = dtype().parse(value);
      } catch {
        throw new FieldMismatch(EXPECTED, value);
      }
      if (normal === "|O" || /^\D*0$/.test(normal.replace(/\[.*\]$/, ""))) throw new FieldMismatch(EXPECTED, value);
      return normal;
    },
  }),
};

const F8: NumericType = { kind: "f", size: 8, littleEndian: true };
const I8: NumericType = { kind: "i", size: 8, littleEndian: true };

/**
 * numcodecs `VLenArray`: the object codec of ragged arrays, each element a one-dimensional array
 * of `dtype`. Decodes to typed arrays in little-endian order (`typedArrayConstructor(dtype)` from
 * `@z/meta`: `Int32Array` for `<i4`, `BigInt64Array` for `<i8`, `Uint16Array` of raw bits for
 * `<f2`, …). Encodes such typed arrays, and for boolean, integer and float dtypes also plain arrays
 * of numbers, bigints or booleans and other typed arrays, converted as NumPy converts them; a lone
 * number is a one-element array, `null` an empty one.
 */
export const vlenArray = defineCodec({
  id: "vlen-array",
  config: vlenArrayConfig,
  create: (config) => {
    const type = parseDataType(config.dtype);
    const numeric = numericType(config.dtype);
    return {
      encode: (data: CodecData, _chunk: ChunkContext) => {
        if (!Array.isArray(data)) throw new Error(`expected an array of arrays, got ${data.length} bytes`);
        return packItems((data as readonly unknown[]).map((value, i) => itemBytes(value, i, type, numeric)));
      },
      decode: (data: CodecData, chunk: ChunkContext) =>
        unpackItems(requireBytes(data, "vlen-array", chunk), "vlen-array", chunk).map((item, i) =>
          itemArray(item, i, type),
        ),
    };
  },
});

function itemBytes(value: unknown, index: number, type: DataType, numeric: NumericType | undefined): Uint8Array {
  if (value === null || value === undefined) return new Uint8Array(0);
  const Constructor = typedArrayConstructor(type);
  if (value instanceof Constructor) {
    const typed = value as TypedArray;
    const perElement = valuesPerElement(type);
    if (typed.length % perElement !== 0) {
      throw new Error(
        `item ${index}: ${typed.length} values are not a whole number of elements of ${perElement} values`,
      );
    }
    const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength).slice();
    byteSwapInPlace(bytes, type);
    return bytes;
  }
  if (numeric === undefined) {
    throw new Error(`item ${index}: expected a ${Constructor.name}, found ${describeItem(value)}`);
  }
  const values: ArrayLike<unknown> =
    typeof value === "number" || typeof value === "bigint" || typeof value === "boolean" || value instanceof JsonFloat
      ? [value]
      : Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView))
        ? (value as ArrayLike<unknown>)
        : { length: -1 };
  if (values.length < 0) throw new Error(`item ${index}: expected an array, found ${describeItem(value)}`);
  const big = numeric.size === 8 && numeric.kind !== "f" && numeric.kind !== "b";
  const converted = big
    ? numeric.kind === "i"
      ? new BigInt64Array(values.length)
      : new BigUint64Array(values.length)
    : new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    let cast: number | bigint;
    if (typeof v === "boolean") cast = castValue(v ? 1 : 0, I8, numeric);
    else if (typeof v === "bigint") cast = castValue(v, I8, numeric);
    else if (v instanceof JsonFloat) cast = castValue(v.value, F8, numeric);
    else if (typeof v === "number") cast = castValue(v, Number.isInteger(v) ? I8 : F8, numeric);
    else if (Array.isArray(v)) throw new Error(`item ${index}: only one-dimensional arrays are supported`);
    else throw new Error(`item ${index}: ${describeItem(v)} is not a number`);
    (converted as unknown as (number | bigint)[])[i] = cast;
  }
  return writeArray({ type: numeric, data: converted });
}

function itemArray(item: Uint8Array, index: number, type: DataType): TypedArray {
  if (item.length % type.itemsize !== 0) {
    throw new Error(`item ${index}: ${item.length} bytes are not a whole number of ${type.itemsize}-byte elements`);
  }
  const bytes = item.slice();
  byteSwapInPlace(bytes, type);
  const Constructor = typedArrayConstructor(type);
  return new Constructor(bytes.buffer, 0, (bytes.length / type.itemsize) * valuesPerElement(type));
}
