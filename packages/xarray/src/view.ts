// Positional selections of a variable's dimensions, composed lazily: nothing is read until values
// are asked for, and then only the chunks the selection touches.
import { BoundsError, SelectionError } from "@z/indexing";
import { DatasetError } from "./errors.js";
import { cStrides, sizeOf, type Values } from "./values.js";

/** A slice of positions, or of labels for `sel` (`slice(10, 20)`, `slice("2000-01", "2000-03")`). */
export interface LabelSlice<T = unknown> {
  readonly kind: "slice";
  readonly start: T | null;
  readonly stop: T | null;
  readonly step: number | null;
}

/**
 * A slice as in Python (and xarray): positions for `isel` (negative ones count from the end, a
 * negative step walks backwards), labels for `sel` (both ends included).
 */
export function slice(start: number | null | undefined, stop?: number | null, step?: number | null): LabelSlice<number>;
export function slice<T>(start: T | null | undefined, stop?: T | null, step?: number | null): LabelSlice<T>;
export function slice<T>(start: T | null | undefined, stop?: T | null, step?: number | null): LabelSlice<T> {
  if (stop === undefined && step === undefined)
    return Object.freeze({ kind: "slice" as const, start: null, stop: start ?? null, step: null });
  return Object.freeze({ kind: "slice" as const, start: start ?? null, stop: stop ?? null, step: step ?? null });
}

/** True for a slice (see `slice`). */
export function isSliceLike(value: unknown): value is LabelSlice {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "slice";
}

/** What `isel` takes for one dimension: a position, a slice of positions, or a list of positions. */
export type PositionIndexer = number | LabelSlice<number> | readonly number[];

/** Python's `slice.indices(length)`: bounds clamped (negative ones counted from the end). */
function sliceIndices(start: number | null, stop: number | null, step: number, length: number): [number, number] {
  const lower = step < 0 ? -1 : 0;
  const upper = step < 0 ? length - 1 : length;
  const adjust = (value: number | null, fallback: number): number => {
    if (value === null) return fallback;
    if (value < 0) return Math.max(value + length, lower);
    return Math.min(value, upper);
  };
  return [adjust(start, step < 0 ? upper : lower), adjust(stop, step < 0 ? lower : upper)];
}

/** `len(range(start, stop, step))`. */
function rangeLength(start: number, stop: number, step: number): number {
  if (step > 0) return stop > start ? Math.floor((stop - start - 1) / step) + 1 : 0;
  return stop < start ? Math.floor((start - stop - 1) / -step) + 1 : 0;
}

/** How one stored dimension is selected. */
export type DimView =
  | { readonly kind: "index"; readonly index: number }
  | { readonly kind: "range"; readonly start: number; readonly step: number; readonly length: number }
  | { readonly kind: "points"; readonly indices: readonly number[] };

export const fullView = (shape: readonly number[]): DimView[] =>
  shape.map((length) => ({ kind: "range", start: 0, step: 1, length }));

/** The length of a kept dimension (`undefined` for one indexed away). */
export function viewLength(view: DimView): number | undefined {
  return view.kind === "index" ? undefined : view.kind === "range" ? view.length : view.indices.length;
}

/** The stored position of position `i` of a kept dimension. */
const position = (view: DimView, i: number): number =>
  view.kind === "range" ? view.start + i * view.step : view.kind === "points" ? view.indices[i]! : view.index;

function integer(value: unknown, dim: string): number {
  if (typeof value !== "number" || !Number.isInteger(value))
    throw new SelectionError(`isel: ${dim}: expected an integer position, got ${String(value)}`);
  return value;
}

/** `view` further selected by `indexer` (positions relative to what `view` keeps). */
export function refine(view: DimView, indexer: PositionIndexer, dim: string): DimView {
  const length = viewLength(view);
  if (length === undefined) throw new DatasetError(`isel: dimension ${dim} was already indexed away`);
  const wrap = (i: number): number => {
    const index = integer(i, dim);
    const wrapped = index < 0 ? index + length : index;
    if (wrapped < 0 || wrapped >= length)
      throw new BoundsError(`isel: index ${index} is out of bounds for dimension ${dim} of length ${length}`, {
        index,
        length,
      });
    return wrapped;
  };
  if (typeof indexer === "number") return { kind: "index", index: position(view, wrap(indexer)) };
  if (isSliceLike(indexer)) {
    const step = indexer.step === null ? 1 : integer(indexer.step, dim);
    if (step === 0) throw new SelectionError(`isel: ${dim}: slice step cannot be zero`);
    const start = indexer.start === null ? null : integer(indexer.start, dim);
    const stop = indexer.stop === null ? null : integer(indexer.stop, dim);
    const [first, end] = sliceIndices(start, stop, step, length);
    const count = rangeLength(first, end, step);
    if (view.kind === "range")
      return { kind: "range", start: count === 0 ? 0 : position(view, first), step: view.step * step, length: count };
    const picked: number[] = [];
    for (let i = 0; i < count; i++) picked.push(position(view, first + i * step));
    return { kind: "points", indices: picked };
  }
  if (Array.isArray(indexer)) return { kind: "points", indices: indexer.map((i) => position(view, wrap(i))) };
  throw new SelectionError(`isel: ${dim}: expected an integer, a slice or a list of integers`);
}

/** The selection core's `get` (basic) or `oindex.get` (orthogonal) takes for a view. */
export function coreSelection(views: readonly DimView[]): {
  kind: "basic" | "orthogonal";
  selection: (number | { kind: "slice"; start: number | null; stop: number | null; step: number } | number[])[];
} {
  const orthogonal = views.some((v) => v.kind === "points");
  const selection = views.map((v) => {
    if (v.kind === "index") return v.index;
    if (v.kind === "points") return [...v.indices];
    if (v.length === 0) return { kind: "slice" as const, start: 0, stop: 0, step: 1 };
    const stop = v.start + v.length * v.step;
    return { kind: "slice" as const, start: v.start, stop: stop < 0 ? null : stop, step: v.step };
  });
  return { kind: orthogonal ? "orthogonal" : "basic", selection };
}

/** The values a view selects from values held in memory (C order). */
export function selectValues(values: Values, views: readonly DimView[]): Values {
  const lists = views.map((v, d) => {
    if (v.kind === "index") return [v.index];
    const length = viewLength(v)!;
    return Array.from({ length }, (_, i) => position(v, i)).map((p) => {
      if (p < 0 || p >= values.shape[d]!) throw new BoundsError(`index ${p} is out of bounds`, { index: p });
      return p;
    });
  });
  const shape = views.flatMap((v) => (v.kind === "index" ? [] : [viewLength(v)!]));
  const strides = cStrides(values.shape);
  const count = sizeOf(lists.map((l) => l.length));
  const per = values.dtype.startsWith("complex") ? 2 : 1;
  const source = values.data as unknown as ArrayLike<unknown>;
  const out = (
    Array.isArray(values.data)
      ? new Array(count)
      : new (values.data.constructor as new (n: number) => unknown)(count * per)
  ) as unknown[];
  const counter = new Array<number>(lists.length).fill(0);
  for (let n = 0; n < count; n++) {
    let offset = 0;
    for (let d = 0; d < lists.length; d++) offset += lists[d]![counter[d]!]! * strides[d]!;
    for (let k = 0; k < per; k++) out[n * per + k] = source[offset * per + k];
    for (let d = lists.length - 1; d >= 0; d--) {
      if (++counter[d]! < lists[d]!.length) break;
      counter[d] = 0;
    }
  }
  return { data: out as Values["data"], shape, dtype: values.dtype };
}
