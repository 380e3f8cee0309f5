/*
 * Object arrays as numcodecs' JSON and MsgPack codecs see them (internal to the package): the
 * chunk's values nested as NumPy's `tolist()` nests them, followed by the dtype string and the
 * shape, and back.
 *
 * Python values are JS values: None `null` (`undefined` is written as None too), bool `boolean`,
 * str `string`, bytes `Uint8Array`, list and tuple `Array`, dict a plain object (or a `Map`), int
 * an integral `number` or a `bigint`, float a non-integral `number` (NaN and ±Infinity included)
 * or a `JsonFloat` (`@z/meta`). Decoding gives floats with integral values (`1.0`, `-0.0`) as
 * `JsonFloat`s, so that they are written back as floats, and integers beyond 2^53 as `bigint`s.
 */
import { JsonFloat, type DataType } from "@z/meta";
import type { ChunkContext, CodecData } from "./codec.js";
import { normalizeDtype } from "./config-schema.js";
import { castValue, numericType, readArray, typeString, writeArray, type NumericType } from "./numeric.js";

const F8: NumericType = { kind: "f", size: 8, littleEndian: true };
const I8: NumericType = { kind: "i", size: 8, littleEndian: true };

/** A float as decoded: integral values (and -0.0) wrapped so that they stay floats. */
export function pyFloat(value: number): number | JsonFloat {
  return Number.isInteger(value) ? new JsonFloat(value) : value;
}

/** An integer as decoded: a number when it is safe, else a bigint. */
export function pyInt(value: bigint): number | bigint {
  return value >= -(2n ** 53n) && value <= 2n ** 53n ? Number(value) : value;
}

function product(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

function numericOf(dtype: DataType): NumericType | undefined {
  if (dtype.kind === "structured") return undefined;
  return numericType(`${dtype.byteOrder}${dtype.kind}${dtype.itemsize}`);
}

/**
 * What numcodecs encodes for a chunk: `buf.tolist()` followed by `buf.dtype.str` and `buf.shape`.
 * An array (object chunk) is `|O`; bytes are read as the chunk's boolean, integer or float dtype.
 * The shape is the context's `shape`, else one dimension.
 */
export function chunkItems(data: CodecData, chunk: ChunkContext): unknown[] {
  let values: readonly unknown[];
  let dtype: string;
  if (Array.isArray(data)) {
    values = data as readonly unknown[];
    dtype = "|O";
  } else {
    const bytes = data as Uint8Array;
    const type = chunk.dtype ? numericOf(chunk.dtype) : undefined;
    if (!type)
      throw new Error("only object chunks (arrays of values) and boolean, integer or float chunks can be encoded");
    const array = readArray(bytes, type);
    values = Array.from(array.data as ArrayLike<number | bigint>, (v) =>
      type.kind === "b" ? v !== 0 : type.kind === "f" ? pyFloat(v as number) : typeof v === "bigint" ? pyInt(v) : v,
    );
    dtype = typeString(type);
  }
  const shape = chunk.shape === undefined ? [values.length] : [...chunk.shape];
  if (shape.length === 0) throw new Error("a 0-dimensional chunk has no list form (numcodecs fails on it too)");
  if (product(shape) !== values.length) {
    throw new Error(`${values.length} values do not fill the chunk shape [${shape.join(", ")}]`);
  }
  const items = nest(values, shape, 0, 0) as unknown[];
  items.push(dtype, shape);
  return items;
}

function nest(values: readonly unknown[], shape: readonly number[], dim: number, offset: number): unknown {
  const length = shape[dim]!;
  if (dim === shape.length - 1) return values.slice(offset, offset + length);
  const stride = product(shape.slice(dim + 1));
  const out: unknown[] = [];
  for (let i = 0; i < length; i++) out.push(nest(values, shape, dim + 1, offset + i * stride));
  return out;
}

const latin1 = new TextDecoder("latin1");

/**
 * The chunk numcodecs decodes from `items` (`np.empty(shape, dtype)` filled with the nested
 * values): for dtype `|O` the values in C order; for boolean, integer and float dtypes their bytes.
 * Anything that does not have that form throws.
 */
export function chunkFromItems(items: unknown, chunk: ChunkContext): CodecData {
  if (!Array.isArray(items) || items.length < 2) throw new Error("expected a list ending with the dtype and the shape");
  const list = items as readonly unknown[];
  const rawShape = list[list.length - 1];
  const rawDtype = list[list.length - 2];
  if (!Array.isArray(rawShape)) throw new Error("the last item, the shape, is not a list");
  const shape = (rawShape as readonly unknown[]).map((n) => {
    const v = typeof n === "bigint" ? Number(n) : n;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new Error("the shape is not a list of sizes");
    return v;
  });
  const dtypeText =
    typeof rawDtype === "string" ? rawDtype : rawDtype instanceof Uint8Array ? latin1.decode(rawDtype) : undefined;
  const dtype = dtypeText === undefined ? undefined : normalizeDtype(dtypeText);
  if (dtype === undefined) throw new Error("the next to last item is not a NumPy dtype");
  if (shape.length === 0) throw new Error("a 0-dimensional shape cannot be filled from a list");
  const flat: unknown[] = [];
  flatten(list.slice(0, -2), shape, 0, flat);
  if (dtype === "|O") {
    if (chunk.dtype?.kind === "O" && flat.length !== chunk.elements) {
      throw new Error(`${flat.length} values were decoded, but the chunk has ${chunk.elements} elements`);
    }
    return flat;
  }
  const type = numericType(dtype);
  if (!type) throw new Error(`dtype ${dtype} is not supported (only |O, booleans, integers and floats)`);
  const big = type.size === 8 && (type.kind === "i" || type.kind === "u");
  const data = big
    ? type.kind === "i"
      ? new BigInt64Array(flat.length)
      : new BigUint64Array(flat.length)
    : new Float64Array(flat.length);
  flat.forEach((value, i) => {
    let cast: number | bigint;
    if (typeof value === "boolean") cast = castValue(value ? 1 : 0, I8, type);
    else if (typeof value === "bigint") cast = castValue(value, I8, type);
    else if (value instanceof JsonFloat) cast = castValue(value.value, F8, type);
    else if (typeof value === "number") cast = castValue(value, Number.isInteger(value) ? I8 : F8, type);
    else if (value === null && type.kind === "f") cast = NaN;
    else throw new Error(`value ${i} cannot be stored as ${dtype}`);
    (data as unknown as (number | bigint)[])[i] = cast;
  });
  return writeArray({ type, data });
}

function flatten(list: readonly unknown[], shape: readonly number[], dim: number, out: unknown[]): void {
  if (list.length !== shape[dim]) {
    throw new Error(
      `dimension ${dim} has ${list.length} items, but the shape [${shape.join(", ")}] says ${shape[dim]}`,
    );
  }
  if (dim === shape.length - 1) {
    for (const value of list) out.push(value);
    return;
  }
  for (const sub of list) {
    if (!Array.isArray(sub)) throw new Error(`dimension ${dim + 1} is not a list`);
    flatten(sub as readonly unknown[], shape, dim + 1, out);
  }
}
