/** A Python-style slice: `start:stop:step`, where `null` means "the default" as in Python. */
export interface Slice {
  readonly kind: "slice";
  readonly start: number | null;
  readonly stop: number | null;
  readonly step: number | null;
}

/** `slice(stop)`, like Python's `slice(stop)`: the first `stop` items (`slice(null)` is everything). */
export function slice(stop: number | null): Slice;
/** `slice(start, stop, step)`, like Python's `slice(start, stop, step)`. */
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
 * Python's `slice.indices(length)` for a slice already checked to have integer (or null) bounds
 * and a step of at least 1: `start` and `stop` wrap when negative and clamp to `[0, length]`.
 */
export function sliceIndices(
  start: number | null,
  stop: number | null,
  step: number,
  length: number,
): { start: number; stop: number; step: number } {
  const clamp = (value: number | null, fallback: number): number => {
    if (value === null) return fallback;
    const wrapped = value < 0 ? value + length : value;
    return Math.min(Math.max(wrapped, 0), length);
  };
  return { start: clamp(start, 0), stop: clamp(stop, length), step };
}
