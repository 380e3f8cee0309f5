import type { DataType } from "./dtype-model.js";
import { DataTypeError } from "./errors.js";
import { extensionFormat, extensionIntRange } from "./extension-dtypes.js";
import { typestr } from "./typestr.js";

export type TypedArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array
  | Float32Array
  | Float64Array;

export type TypedArrayConstructor =
  | Int8ArrayConstructor
  | Uint8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | BigInt64ArrayConstructor
  | BigUint64ArrayConstructor
  | Float32ArrayConstructor
  | Float64ArrayConstructor;

/**
 * The typed array that holds elements of `dtype` in little-endian order: booleans as 0/1 bytes;
 * 8-byte integers, datetimes and timedeltas as bigints; complex numbers as `valuesPerElement` = 2
 * floats (re, im); `f2` as its raw 16 bits in a `Uint16Array` (JS has no float16 array in Node 20);
 * `S`, `U`, `V` and structured elements as `itemsize` raw bytes each; TensorStore's extension
 * floats (bfloat16, float8) as their `Float32Array` values, int4/int2 as an `Int8Array` and uint4/uint2 as a `Uint8Array`,
 * which differ from the stored bytes (`decodeExtension`/`encodeExtension` convert). Object dtypes
 * have none.
 */
export function typedArrayConstructor(dtype: DataType): TypedArrayConstructor {
  switch (dtype.kind) {
    case "b":
    case "S":
    case "U":
    case "V":
    case "structured":
      return Uint8Array;
    case "i":
      return ([undefined, Int8Array, Int16Array, undefined, Int32Array] as const)[dtype.itemsize] ?? BigInt64Array;
    case "u":
      return ([undefined, Uint8Array, Uint16Array, undefined, Uint32Array] as const)[dtype.itemsize] ?? BigUint64Array;
    case "f":
      return dtype.itemsize === 2 ? Uint16Array : dtype.itemsize === 4 ? Float32Array : Float64Array;
    case "c":
      return dtype.itemsize === 8 ? Float32Array : Float64Array;
    case "M":
    case "m":
      return BigInt64Array;
    case "O":
      throw new DataTypeError(`Object dtype "${typestr(dtype)}" elements are JS values, not typed array numbers`);
    case "x":
      // In memory, not as stored: see extension-dtypes.ts.
      if (extensionFormat(dtype.extension!).kind === "float") return Float32Array;
      return extensionIntRange(dtype.extension!)![0] < 0 ? Int8Array : Uint8Array;
  }
}

/** How many typed array entries make one element: 2 for complex, `itemsize` for raw-byte kinds, else 1. */
export function valuesPerElement(dtype: DataType): number {
  switch (dtype.kind) {
    case "c":
      return 2;
    case "S":
    case "U":
    case "V":
    case "structured":
      return dtype.itemsize;
    default:
      return 1;
  }
}

/** Where inside one element numbers need reversing: [offset, length, width] runs of equal-width numbers. */
type SwapPlan = readonly (readonly [number, number, number])[];

const plans = new WeakMap<DataType, SwapPlan>();

function swapPlan(dtype: DataType): SwapPlan {
  let plan = plans.get(dtype);
  if (plan === undefined) {
    plan = buildPlan(dtype);
    plans.set(dtype, plan);
  }
  return plan;
}

function buildPlan(dtype: DataType): SwapPlan {
  if (dtype.kind !== "structured") {
    if (dtype.byteOrder !== ">") return [];
    // Complex numbers swap each half, unicode strings each 4-byte code point.
    const width = dtype.kind === "c" ? dtype.itemsize / 2 : dtype.kind === "U" ? 4 : dtype.itemsize;
    return width > 1 && dtype.itemsize > 0 ? [[0, dtype.itemsize, width]] : [];
  }
  const runs: [number, number, number][] = [];
  const add = (offset: number, length: number, width: number): void => {
    const last = runs[runs.length - 1];
    // Adjacent runs of one width merge, so a big subarray field stays one run.
    if (last !== undefined && last[2] === width && last[0] + last[1] === offset) last[1] += length;
    else runs.push([offset, length, width]);
  };
  for (const field of dtype.fields) {
    const inner = swapPlan(field.dtype);
    if (inner.length === 0) continue;
    const count = field.shape.reduce((product, length) => product * length, 1);
    for (let i = 0; i < count; i++) {
      const base = field.offset + i * field.dtype.itemsize;
      for (const [offset, length, width] of inner) add(base + offset, length, width);
    }
  }
  return runs;
}

/** Whether elements of `dtype` differ from little-endian: `>` types of more than one byte, or structs with such a field. */
export function needsByteSwap(dtype: DataType): boolean {
  return swapPlan(dtype).length > 0;
}

/**
 * Converts whole elements between `dtype`'s byte order and little-endian (the same operation both
 * ways): reverses every multi-byte number in a `>` type, each half of a complex number, each code
 * point of a `U` string and, in a structured dtype, every such field, subarray items included.
 */
export function byteSwapInPlace(bytes: Uint8Array, dtype: DataType): void {
  const plan = swapPlan(dtype);
  if (plan.length === 0) return;
  const itemsize = dtype.itemsize;
  if (bytes.length % itemsize !== 0) {
    throw new DataTypeError(`${bytes.length} bytes are not a whole number of ${itemsize}-byte elements`);
  }
  const [first] = plan;
  if (plan.length === 1 && first![0] === 0 && first![1] === itemsize) {
    // Every byte belongs to a number of one width: one pass over the whole buffer.
    swapRuns(bytes, 0, bytes.length, first![2]);
    return;
  }
  for (let base = 0; base < bytes.length; base += itemsize) {
    for (const [offset, length, width] of plan) swapRuns(bytes, base + offset, base + offset + length, width);
  }
}

function swapRuns(bytes: Uint8Array, start: number, end: number, width: number): void {
  for (let i = start; i < end; i += width) {
    for (let lo = i, hi = i + width - 1; lo < hi; lo++, hi--) {
      const byte = bytes[lo]!;
      bytes[lo] = bytes[hi]!;
      bytes[hi] = byte;
    }
  }
}
