/**
 * The cases test/python/fancy_cases.py generates (numpy's and zarr-python's results, see there),
 * and their selections decoded into every form a TypeScript caller may write them in.
 */
import { readFileSync } from "node:fs";
import { ELLIPSIS, slice, type SelectionItem } from "@z/indexing";

export type EncodedItem =
  | number
  | string
  | { s: [number | null, number | null, number | null] }
  | { i: number[]; shape: number[] }
  | { f: number[]; shape: number[] }
  | { x: number }
  | { b: number[]; shape: number[] }
  | { l: unknown[] }
  | { bl: unknown[] };

export type FancyKind = "basic" | "orthogonal" | "coordinate" | "mask" | "block";

export interface FancyCase {
  kind: FancyKind;
  shape: number[];
  chunks: number[];
  sel: EncodedItem[];
  outShape: number[];
  /** The selection of `a = arange(size).reshape(shape)`, flattened in C order. */
  read: number[];
  /** `a[sel] = 1000 + arange(n).reshape(valueShape)`: the flat positions that changed and their new values. */
  write: { valueShape: number[]; at: number[]; values: number[] };
  repeats?: boolean;
}

export interface ErrorCase {
  kind: FancyKind;
  shape: number[];
  chunks: number[];
  sel: EncodedItem[];
  error: "bounds" | "selection";
}

export interface DispatchCase {
  shape: number[];
  sel: EncodedItem[];
  kind: "basic" | "orthogonal" | "coordinate" | "mask" | "error";
}

export interface FancyFixture {
  numpy: string;
  zarr: string;
  zarrBlocks: string;
  cases: FancyCase[];
  errors: ErrorCase[];
  dispatch: DispatchCase[];
}

export const FIXTURE = JSON.parse(
  readFileSync(new URL("./golden/fancy-cases.json", import.meta.url), "utf8"),
) as FancyFixture;

const product = (xs: readonly number[]) => xs.reduce((p, n) => p * n, 1);

/** Flat C-order values as nested lists of `shape` (only for shapes without a zero before the last dimension). */
function nest<T>(flat: readonly T[], shape: readonly number[]): unknown[] {
  if (shape.length <= 1) return [...flat];
  const inner = product(shape.slice(1));
  return Array.from({ length: shape[0]! }, (_, i) => nest(flat.slice(i * inner, (i + 1) * inner), shape.slice(1)));
}

const nestable = (shape: readonly number[]) => shape.length >= 1 && shape.slice(0, -1).every((n) => n > 0);

/**
 * An encoded item as a TypeScript caller may write it; `variant` picks among the forms an array
 * can take (JS lists, typed arrays of several kinds, `SelectionArray`s with and without a dtype).
 */
export function decodeItem(item: EncodedItem, variant: number): SelectionItem | string {
  if (typeof item === "number") return item;
  if (item === "...") return ELLIPSIS;
  if (typeof item === "string") return item; // a field name
  if ("s" in item) return slice(item.s[0], item.s[1], item.s[2]);
  if ("x" in item) return item.x;
  if ("f" in item)
    return item.shape.length === 1
      ? (Float64Array.from(item.f) as never)
      : { data: Float64Array.from(item.f), shape: item.shape };
  if ("l" in item) return item.l as SelectionItem;
  if ("bl" in item) return item.bl as SelectionItem;
  if ("i" in item) {
    const { i: values, shape } = item;
    const oneD = shape.length === 1;
    switch (variant % 5) {
      case 0:
        if (nestable(shape)) return nest(values, shape) as SelectionItem;
        return { data: values, shape };
      case 1:
        return oneD ? Int32Array.from(values) : { data: Int32Array.from(values), shape };
      case 2:
        return { data: values, shape, dtype: { kind: "i" } };
      case 3:
        return oneD
          ? BigInt64Array.from(values.map(BigInt))
          : { data: BigInt64Array.from(values.map(BigInt)), shape, dtype: { kind: "i" } };
      default: {
        const small = values.every((v) => v >= 0 && v < 256);
        const data = small ? Uint8Array.from(values) : Int16Array.from(values);
        return oneD ? data : { data, shape };
      }
    }
  }
  const { b: bits, shape } = item;
  switch (variant % 3) {
    case 0:
      if (nestable(shape))
        return nest(
          bits.map((x) => x === 1),
          shape,
        ) as SelectionItem;
      return { data: bits.map((x) => x === 1), shape };
    case 1:
      return { data: Uint8Array.from(bits), shape, dtype: { kind: "b" } };
    default:
      return { data: bits.map((x) => x === 1), shape };
  }
}

/**
 * A case's selection as a caller writes it: the list of items, or (sometimes) its one item alone,
 * which every indexer reads the same way.
 */
export function decodeSelection(sel: readonly EncodedItem[], variant: number): SelectionItem[] | SelectionItem {
  const items = sel.map((item, d) => decodeItem(item, variant + d) as SelectionItem);
  // a JS list alone would be read as the list of items
  return items.length === 1 && variant % 2 === 1 && !Array.isArray(items[0]) ? items[0]! : items;
}

/** For the dispatch cases: Python lists stay JS lists, numpy arrays become typed arrays or `SelectionArray`s. */
export function decodeDispatch(sel: readonly EncodedItem[]): (SelectionItem | string)[] {
  return sel.map((item, d) => {
    if (typeof item === "object" && "i" in item) return decodeItem(item, 1 + (d % 4)); // never a list
    if (typeof item === "object" && "b" in item) return decodeItem(item, 1);
    return decodeItem(item, 0);
  });
}
