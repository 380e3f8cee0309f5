import type { NdArray } from "@z/core";
import { colormapTable, type ColormapName } from "./colormaps.js";

/** A 2-D slice as plain numbers, row-major: `values[y * width + x]`. */
export interface Plane {
  readonly width: number;
  readonly height: number;
  readonly values: Float64Array;
}

/** Which dtypes can be drawn: booleans, integers and floats (not complex, dates, strings, records). */
export function drawableDtype(dtype: NdArray["dtype"]): boolean {
  return dtype.kind === "b" || dtype.kind === "i" || dtype.kind === "u" || dtype.kind === "f";
}

/** The result of a `get` of a 2-D (or 1-D, drawn as one row) selection as a {@link Plane}. */
export function toPlane(result: NdArray): Plane {
  const [height, width] = result.shape.length === 1 ? [1, result.shape[0]!] : [result.shape[0]!, result.shape[1]!];
  const [rowStride, colStride] =
    result.shape.length === 1 ? [0, result.strides[0]!] : [result.strides[0]!, result.strides[1]!];
  const data = result.data as ArrayLike<number | bigint | boolean>;
  const values = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) values[y * width + x] = Number(data[y * rowStride + x * colStride]);
  }
  return { width, height, values };
}

/** C-order values of a 2-D (or 1-D, one row) selection, as `@z/xarray` gives decoded ones, as a {@link Plane}. */
export function valuesPlane(values: { data: ArrayLike<unknown>; shape: readonly number[] }): Plane {
  const [height, width] = values.shape.length === 1 ? [1, values.shape[0]!] : [values.shape[0]!, values.shape[1]!];
  const out = new Float64Array(width * height);
  for (let i = 0; i < out.length; i++) {
    const v = values.data[i];
    out[i] = v === null || v === undefined ? NaN : Number(v);
  }
  return { width, height, values: out };
}

/** The finite values, sorted (a strided sample of at most `limit` of them for big planes). */
function sortedFinite(values: Float64Array, limit = 1 << 20): Float64Array {
  const step = Math.max(1, Math.ceil(values.length / limit));
  const out: number[] = [];
  for (let i = 0; i < values.length; i += step) if (Number.isFinite(values[i]!)) out.push(values[i]!);
  return Float64Array.from(out).sort();
}

/** NumPy's default ("linear") percentile of sorted values; `undefined` when there are none. */
export function percentile(sorted: Float64Array, q: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const position = (q / 100) * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

export type LimitsMode = "percentile" | "minmax";

/**
 * Default contrast limits of a plane: the 2nd and 98th percentiles of its finite values (or their
 * min and max); a constant plane gets [v, v + 1], a plane without finite values [0, 1].
 */
export function contrastLimits(plane: Plane, mode: LimitsMode = "percentile"): [number, number] {
  const sorted = sortedFinite(plane.values);
  const [qLow, qHigh] = mode === "percentile" ? [2, 98] : [0, 100];
  let low = percentile(sorted, qLow);
  let high = percentile(sorted, qHigh);
  if (low === undefined || high === undefined) return [0, 1];
  if (low === high) [low, high] = [sorted[0]!, sorted.at(-1)!];
  return low === high ? [low, low + 1] : [low, high];
}

/** The colormap index of a value: 0 at or below `low`, 255 at or above `high`, linear between. */
export function colorIndex(value: number, low: number, high: number): number {
  const t = (value - low) / (high - low);
  return t <= 0 ? 0 : t >= 1 ? 255 : Math.round(t * 255);
}

/** RGBA pixels of a plane through a colormap; NaN becomes transparent (alpha 0). */
export function toRgba(
  plane: Plane,
  low: number,
  high: number,
  colormap: ColormapName,
): Uint8ClampedArray<ArrayBuffer> {
  const table = colormapTable(colormap);
  const rgba = new Uint8ClampedArray(new ArrayBuffer(plane.values.length * 4));
  for (let i = 0; i < plane.values.length; i++) {
    const value = plane.values[i]!;
    if (Number.isNaN(value)) continue; // stays [0, 0, 0, 0]
    const k = colorIndex(value, low, high) * 3;
    rgba[i * 4] = table[k]!;
    rgba[i * 4 + 1] = table[k + 1]!;
    rgba[i * 4 + 2] = table[k + 2]!;
    rgba[i * 4 + 3] = 255;
  }
  return rgba;
}
