import type { TypedArray } from "@z/meta";

/**
 * The copy kernels of `@z/indexing` ask of their data only what its `Values` interface lists:
 * indexed reads and writes, `length`, `set`/`subarray` for long runs, `copyWithin`, and
 * `buffer`/`byteOffset`/`BYTES_PER_ELEMENT` to tell whether two views overlap. A plain JS array
 * has all of that but `set`, `subarray` and the three overlap properties; this gives it them (as
 * non-enumerable properties, so the array stays an ordinary array for codecs and callers), which
 * lets object arrays use every selection kernel unchanged and keeps the typed-array paths free of
 * any check for them. Each array is its own "buffer", one value per "byte".
 */
export function asKernelValues(array: unknown[]): TypedArray {
  if (!Object.hasOwn(array, "subarray")) {
    Object.defineProperties(array, {
      buffer: { value: {}, configurable: true },
      byteOffset: { value: 0, configurable: true },
      BYTES_PER_ELEMENT: { value: 1, configurable: true },
      subarray: { value: subarray, configurable: true },
      set: { value: set, configurable: true },
    });
  }
  return array as unknown as TypedArray;
}

function subarray(this: unknown[], begin?: number, end?: number): unknown[] {
  const part: unknown[] = Array.prototype.slice.call(this, begin, end);
  asKernelValues(part);
  return part;
}

function set(this: unknown[], source: ArrayLike<unknown>, offset = 0): void {
  for (let i = 0; i < source.length; i++) this[offset + i] = source[i];
}

/** A new plain array of `length` elements, each `value`, ready for the kernels. */
export function filledValues(length: number, value: unknown): TypedArray {
  return asKernelValues(new Array<unknown>(length).fill(value));
}
