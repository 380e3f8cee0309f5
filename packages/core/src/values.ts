import { typedArrayConstructor, valuesPerElement, type DataType, type TypedArray } from "@z/meta";
import type { StridedView } from "@z/indexing/basic";
import { ValueError } from "./errors.js";
import { cStrides, product, type NdArrayLike } from "./nd-array.js";

/** A value to write, ready for the copy kernels: either one element, or a view broadcast to the selection. */
export type WriteSource =
  | { readonly kind: "scalar"; readonly element: number | bigint | TypedArray }
  | { readonly kind: "array"; readonly view: StridedView<TypedArray> };

const isTyped = (value: unknown): value is TypedArray => ArrayBuffer.isView(value) && !(value instanceof DataView);

/**
 * Checks and converts what a caller wants to write into `shape` (the selection's shape) before any
 * chunk is touched, so a bad value never leaves a half-written array. Arrays broadcast as numpy
 * does: dimensions align from the right and a length of 1 repeats.
 */
export function toWriteSource(value: unknown, shape: readonly number[], dtype: DataType, key: string): WriteSource {
  const k = valuesPerElement(dtype);
  if (!isTyped(value) && !isNdLike(value)) {
    return { kind: "scalar", element: scalarElement(value, dtype, k, key) };
  }
  const nd: NdArrayLike = isTyped(value) ? { data: value, shape: [value.length / k] } : value;
  const data = convertData(nd.data, dtype, key);
  const size = product(nd.shape);
  if (data.length !== size * k) {
    throw new ValueError(
      `value for ${key} has ${data.length / k} elements but its shape [${nd.shape.join(", ")}] needs ${size}`,
      { key },
    );
  }
  const strides = nd.strides ?? cStrides(nd.shape);
  return { kind: "array", view: broadcast({ data, offset: 0, shape: nd.shape, strides }, shape, key) };
}

function isNdLike(value: unknown): value is NdArrayLike {
  return typeof value === "object" && value !== null && "data" in value && "shape" in value;
}

/** Numpy broadcasting of `view` to `shape`: missing leading dims and length-1 dims get stride 0. */
export function broadcast(
  view: StridedView<TypedArray>,
  shape: readonly number[],
  key: string,
): StridedView<TypedArray> {
  const fail = (): never => {
    throw new ValueError(
      `cannot broadcast a value of shape [${view.shape.join(", ")}] to the selection shape [${shape.join(", ")}] of ${key}`,
      { key },
    );
  };
  // numpy also accepts leading length-1 dims beyond the target's rank
  let vshape = [...view.shape];
  let vstrides = [...view.strides];
  while (vshape.length > shape.length) {
    if (vshape[0] !== 1) fail();
    vshape = vshape.slice(1);
    vstrides = vstrides.slice(1);
  }
  const lead = shape.length - vshape.length;
  const strides = shape.map((len, i) => {
    if (i < lead) return 0;
    const vlen = vshape[i - lead]!;
    if (vlen === len) return vstrides[i - lead]!;
    if (vlen === 1) return 0;
    return fail();
  });
  return { data: view.data, offset: view.offset, shape, strides };
}

/** Converts data of another JS type to the dtype's typed array, as numpy's `astype` would. */
function convertData(data: NdArrayLike["data"], dtype: DataType, key: string): TypedArray {
  const Ctor = typedArrayConstructor(dtype);
  if (data instanceof Ctor) return data;
  const out = new Ctor(data.length);
  const bigints = out instanceof BigInt64Array || out instanceof BigUint64Array;
  for (let i = 0; i < data.length; i++) {
    (out as { [i: number]: number | bigint })[i] = bigints ? toBigInt(data[i]!, key) : Number(data[i]);
  }
  return out;
}

function toBigInt(value: number | bigint | boolean, key: string): bigint {
  if (typeof value === "bigint") return value;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new ValueError(`cannot write ${String(value)} to the integer array ${key}`, { key });
  return BigInt(n);
}

/** One element to write everywhere: a number or bigint, or an element of several values in a typed array of the dtype's kind. */
function scalarElement(value: unknown, dtype: DataType, k: number, key: string): number | bigint | TypedArray {
  const Ctor = typedArrayConstructor(dtype);
  const bigints = Ctor === BigInt64Array || Ctor === BigUint64Array;
  // Values go straight into the typed array: a JS array of them may quiet a NaN or drop its payload.
  const element = new Ctor(k) as { [j: number]: number | bigint } & TypedArray;
  if (Array.isArray(value)) {
    if (value.length !== k) {
      throw new ValueError(`a scalar for ${key} needs ${k} values, got ${value.length}`, { key });
    }
    for (let j = 0; j < k; j++) element[j] = coerce(value[j], bigints, key);
    return element;
  }
  const one = coerce(value, bigints, key);
  if (k === 1) return one;
  if (dtype.kind === "c") {
    element[0] = one; // a real number is a complex with zero imaginary part
    return element;
  }
  throw new ValueError(`a scalar for ${key} must be given as ${k} values (one element of ${dtype.kind} dtype)`, {
    key,
  });
}

function coerce(value: unknown, bigints: boolean, key: string): number | bigint {
  if (typeof value === "boolean") return bigints ? BigInt(value) : Number(value);
  if (typeof value === "number") return bigints ? toBigInt(value, key) : value;
  if (typeof value === "bigint") return bigints ? value : Number(value);
  throw new ValueError(`cannot write a ${typeof value} to ${key}: expected a number, bigint, boolean or array`, {
    key,
  });
}
