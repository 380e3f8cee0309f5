/**
 * A chunked array simulated in memory for the copy tests: element values stand for their flat
 * C-order index in the whole array, spread over `k` values per element of several typed-array
 * kinds, in chunks laid out in C or F order. Offsets are computed here by hand, independently
 * of the code under test.
 */
import type { StridedView } from "@z/indexing";
import type { TypedArray } from "@z/meta";

export type Kind = "f64" | "i32" | "c128" | "c64" | "V8" | "i64" | "u64";
export type Value = number | bigint;

export interface KindInfo {
  readonly k: number;
  readonly make: (length: number) => TypedArray;
  /** The k values element `v` holds: the same functions as in test/python/copies.py's dtype_arrays. */
  readonly element: (v: number) => Value[];
}

const v8 = (v: number): number[] => {
  let x = BigInt(v) * 0x0102030405n + 0x1100000000000000n;
  const bytes: number[] = [];
  for (let j = 0; j < 8; j++, x >>= 8n) bytes.push(Number(x & 0xffn));
  return bytes;
};

export const KINDS: Record<Kind, KindInfo> = {
  f64: { k: 1, make: (n) => new Float64Array(n), element: (v) => [v] },
  i32: { k: 1, make: (n) => new Int32Array(n), element: (v) => [v] },
  c128: { k: 2, make: (n) => new Float64Array(n), element: (v) => [v, -v - 0.5] },
  c64: { k: 2, make: (n) => new Float32Array(n), element: (v) => [v, -v - 0.5] },
  V8: { k: 8, make: (n) => new Uint8Array(n), element: v8 },
  i64: { k: 1, make: (n) => new BigInt64Array(n), element: (v) => [2n ** 62n - BigInt(v) * 1_000_000_007_000n] },
  u64: { k: 1, make: (n) => new BigUint64Array(n), element: (v) => [2n ** 64n - 1n - BigInt(v) * 999n] },
};

/** Element values used for chunk padding beyond the array's edge, never a real element's. */
export const PADDING = 60_000;

export const product = (xs: readonly number[]): number => xs.reduce((p, n) => p * n, 1);

/** Every multi-index of `shape` in C order. */
export function* indices(shape: readonly number[]): Generator<number[]> {
  if (shape.some((n) => n === 0)) return;
  const at = shape.map(() => 0);
  for (;;) {
    yield [...at];
    let d = shape.length - 1;
    while (d >= 0 && ++at[d]! === shape[d]) at[d--] = 0;
    if (d < 0) return;
  }
}

/** The flat offset of `index` in a contiguous array of `shape` in C or F order, by hand. */
export function flatOffset(index: readonly number[], shape: readonly number[], order: "C" | "F"): number {
  const dims = shape.map((_, d) => d);
  if (order === "F") dims.reverse();
  let offset = 0;
  for (const d of dims) offset = offset * shape[d]! + index[d]!;
  return offset;
}

/** The values of elements `vs`, concatenated. */
export const valuesOf = (kind: Kind, vs: readonly number[]): Value[] => vs.flatMap((v) => KINDS[kind].element(v));

export class ChunkedArray {
  readonly grid: number[];
  readonly #chunks = new Map<string, TypedArray>();

  constructor(
    readonly shape: readonly number[],
    readonly chunkShape: readonly number[],
    readonly order: "C" | "F",
    readonly kind: Kind,
    /** The element at flat C index `i` of the array, or padding when `i` is undefined. */
    valueAt: (i: number | undefined) => number,
  ) {
    this.grid = shape.map((n, d) => Math.ceil(n / chunkShape[d]!));
    const { k, make, element } = KINDS[kind];
    for (const coords of indices(this.grid)) {
      const data = make(product(chunkShape) * k);
      for (const local of indices(chunkShape)) {
        const global = local.map((i, d) => coords[d]! * chunkShape[d]! + i);
        const inside = global.every((i, d) => i < shape[d]!);
        const values = element(valueAt(inside ? flatOffset(global, shape, "C") : undefined));
        const at = flatOffset(local, chunkShape, order) * k;
        values.forEach((x, j) => ((data as unknown as Value[])[at + j] = x));
      }
      this.#chunks.set(coords.join("."), data);
    }
  }

  /** The chunk at `coords`, as the core sees a decoded chunk. */
  chunk(coords: readonly number[], strides: readonly number[]): StridedView {
    const data = this.#chunks.get(coords.join("."));
    if (data === undefined) throw new Error(`no chunk ${coords.join(".")}`);
    return { data, offset: 0, shape: this.chunkShape, strides };
  }

  /** All elements' values in C order of the whole array, and the padding's values, read by hand. */
  contents(): { values: Value[]; padding: Value[] } {
    const { k } = KINDS[this.kind];
    const values: Value[] = new Array<Value>(product(this.shape) * k);
    const padding: Value[] = [];
    for (const coords of indices(this.grid)) {
      const data = this.#chunks.get(coords.join("."))! as unknown as Value[];
      for (const local of indices(this.chunkShape)) {
        const global = local.map((i, d) => coords[d]! * this.chunkShape[d]! + i);
        const at = flatOffset(local, this.chunkShape, this.order) * k;
        const element = Array.from({ length: k }, (_, j) => data[at + j]!);
        if (global.every((i, d) => i < this.shape[d]!)) {
          const flat = flatOffset(global, this.shape, "C") * k;
          element.forEach((x, j) => (values[flat + j] = x));
        } else {
          padding.push(...element);
        }
      }
    }
    return { values, padding };
  }
}

/** A typed array's values as a plain list (numbers or bigints), for comparisons. */
export const plain = (data: TypedArray): Value[] => Array.from(data as ArrayLike<Value>);
