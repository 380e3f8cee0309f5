/*
 * Reading index arrays and masks of selections (orthogonal, coordinate and mask selections), a
 * module of its own: a page whose selections are basic never loads it.
 */
import { BoundsError, SelectionError } from "./errors.js";
import {
  cStrides,
  elementKind,
  isInteger,
  isIntegerTypedArray,
  isSelectionArray,
  type IntegerTypedArray,
  type ReadArray,
} from "./index-array.js";
import { describe } from "./selection.js";

/**
 * Reads an array item of a selection (what Python's `replace_lists` and `np.asarray` make of it)
 * for dimension `dim` (for messages). Returns undefined when `item` is not an array. Throws
 * `SelectionError` for float or mixed elements, ragged lists and malformed arrays.
 */
export function readIndexArray(item: unknown, dim: number | undefined): ReadArray | undefined {
  const where = dim === undefined ? "" : ` in dimension ${dim}`;
  const fail = (why: string): never => {
    throw new SelectionError(`${why}${where}; got ${describe(item)}`, dim === undefined ? {} : { dim });
  };
  if (Array.isArray(item)) {
    const shape: number[] = [];
    for (let level: unknown = item; Array.isArray(level); level = level[0]) {
      shape.push(level.length);
      if (level.length === 0) break;
    }
    const size = shape.reduce((p, n) => p * n, 1);
    const values = new Float64Array(size);
    let kind: "int" | "bool" | undefined;
    let at = 0;
    const walk = (list: readonly unknown[], depth: number): void => {
      if (list.length !== shape[depth]) fail("index lists must be rectangular (not ragged)");
      for (const x of list) {
        if (depth < shape.length - 1) {
          if (!Array.isArray(x)) fail("index lists must be rectangular (not ragged)");
          walk(x as readonly unknown[], depth + 1);
          continue;
        }
        if (Array.isArray(x)) fail("index lists must be rectangular (not ragged)");
        const k = typeof x === "boolean" ? "bool" : isInteger(x) ? "int" : undefined;
        if (k === undefined) fail("arrays used as indices must be of integer (or boolean) type");
        // numpy makes a list of integers and booleans an integer array
        if (kind === undefined || (kind === "bool" && k === "int")) kind = k;
        values[at++] = toNumber(x as number | bigint | boolean, dim);
      }
    };
    walk(item, 0);
    // An empty list is an empty integer index list (numpy's `a[[]]`).
    if (kind === "bool") return { kind, shape, values: Uint8Array.from(values), list: true };
    return { kind: "int", shape, values, list: true };
  }
  if (ArrayBuffer.isView(item) && !(item instanceof DataView)) {
    if (!isIntegerTypedArray(item)) fail("arrays used as indices must be of integer (or boolean) type");
    const data = item as IntegerTypedArray;
    const values = new Float64Array(data.length);
    for (let i = 0; i < data.length; i++) values[i] = toNumber(data[i]!, dim);
    return { kind: "int", shape: [data.length], values, list: false };
  }
  if (!isSelectionArray(item)) return undefined;
  const shape = [...item.shape];
  if (!shape.every((n) => Number.isSafeInteger(n) && n >= 0)) fail("an array's shape must be non-negative integers");
  const found = elementKind(item);
  if (found === "other") fail("arrays used as indices must be of integer (or boolean) type");
  const kind = found as "int" | "bool";
  const size = shape.reduce((p, n) => p * n, 1);
  const strides = item.strides ?? cStrides(shape);
  if (strides.length !== shape.length) fail("an array needs one stride per dimension");
  const data = item.data;
  const c = cStrides(shape);
  const contiguous = size === 0 || shape.every((n, d) => n === 1 || strides[d] === c[d]);
  if (contiguous && data.length < size) fail("an array's data must hold every element of its shape");
  // Fast paths for C-contiguous typed data.
  if (contiguous && kind === "bool" && (data instanceof Uint8Array || data instanceof Int8Array)) {
    return { kind, shape, values: new Uint8Array(data.buffer, data.byteOffset, size), list: false };
  }
  if (
    contiguous &&
    kind === "int" &&
    isIntegerTypedArray(data) &&
    !(data instanceof BigInt64Array || data instanceof BigUint64Array)
  ) {
    return {
      kind,
      shape,
      values: Float64Array.from((data as IntegerTypedArray as Int32Array).subarray(0, size)),
      list: false,
    };
  }
  const bools = kind === "bool" ? new Uint8Array(size) : undefined;
  const ints = kind === "int" ? new Float64Array(size) : undefined;
  const index = new Array<number>(shape.length).fill(0);
  let offset = 0;
  for (let i = 0; i < size; i++) {
    const x = data[offset];
    if (x === undefined) fail("an array's data must hold every element its shape and strides reach");
    if (bools !== undefined) {
      if (typeof x === "boolean") bools[i] = x ? 1 : 0;
      else if (x === 0 || x === 1 || x === 0n || x === 1n) bools[i] = Number(x);
      else fail("Boolean arrays must hold booleans (or 0 and 1)");
    } else {
      if (!isInteger(x)) fail("arrays used as indices must be of integer (or boolean) type");
      ints![i] = toNumber(x as number | bigint, dim);
    }
    for (let d = shape.length - 1; d >= 0; d--) {
      offset += strides[d]!;
      if (++index[d]! < shape[d]!) break;
      offset -= strides[d]! * shape[d]!;
      index[d] = 0;
    }
  }
  return bools !== undefined
    ? { kind: "bool", shape, values: bools, list: false }
    : { kind: "int", shape, values: ints!, list: false };
}

function toNumber(x: number | bigint | boolean, dim: number | undefined): number {
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "number") return x + 0; // -0 is 0
  const n = Number(x);
  if (!Number.isSafeInteger(n)) {
    throw new BoundsError(`index ${x} is out of bounds${dim === undefined ? "" : ` for dimension ${dim}`}`, {
      ...(dim === undefined ? {} : { dim }),
      index: n,
    });
  }
  return n;
}

/**
 * Wraps negative indices once and checks every index against `length`, in place (zarr-python's
 * `wraparound_indices` and `boundscheck_indices`). Throws a `BoundsError` naming the first index
 * (as given) outside the dimension.
 */
export function wrapAndCheck(values: Float64Array, length: number, dim: number): void {
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const w = v < 0 ? v + length : v;
    if (w < 0 || w >= length) throw BoundsError.outOfBounds(v, length, dim);
    values[i] = w;
  }
}
