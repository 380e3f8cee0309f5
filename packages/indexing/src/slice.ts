/** A Python-style slice: `start:stop:step`, where `null` means "the default" as in Python. */
export interface Slice {
  readonly kind: "slice";
  readonly start: number | null;
  readonly stop: number | null;
  readonly step: number | null;
}

/** `slice(stop)`, like Python's `slice(stop)`: the first `stop` items (`slice(null)` is everything). */
export function slice(stop: number | null): Slice;
/** `slice(start, stop, step)`, like Python's `slice(start, stop, step)`; a negative step walks backwards. */
export function slice(start: number | null, stop: number | null, step?: number | null): Slice;
export function slice(...args: (number | null | undefined)[]): Slice {
  // Values are checked when the slice is applied to a dimension, so errors can name it.
  const [start, stop, step] = args.length <= 1 ? [null, args[0], null] : args;
  return Object.freeze({ kind: "slice", start: start ?? null, stop: stop ?? null, step: step ?? null });
}

/** True for a `Slice` (also a plain object literal of the same shape). */
export function isSlice(value: unknown): value is Slice {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "slice";
}

/**
 * Python's `slice.indices(length)` (CPython's `PySlice_AdjustIndices`) for a slice already checked
 * to have integer (or null) bounds and a non-zero step. Negative bounds wrap once. With a positive
 * step, bounds clamp to `[0, length]` and default to `0` and `length`; with a negative step they
 * clamp to `[-1, length - 1]` and default to `length - 1` and `-1` (before the first item).
 */
export function sliceIndices(
  start: number | null,
  stop: number | null,
  step: number,
  length: number,
): { start: number; stop: number; step: number } {
  const lower = step < 0 ? -1 : 0;
  const upper = step < 0 ? length - 1 : length;
  const adjust = (value: number | null, fallback: number): number => {
    if (value === null) return fallback;
    if (value < 0) {
      const wrapped = value + length;
      return wrapped < 0 ? lower : wrapped;
    }
    return value >= length ? upper : value;
  };
  return { start: adjust(start, step < 0 ? upper : lower), stop: adjust(stop, step < 0 ? lower : upper), step };
}

/** How many items a normalized slice (as `sliceIndices` gives) holds, as Python's `len(range(...))`. */
export function sliceLength(start: number, stop: number, step: number): number {
  if (step > 0) return stop > start ? Math.floor((stop - start - 1) / step) + 1 : 0;
  return stop < start ? Math.floor((start - stop - 1) / -step) + 1 : 0;
}
