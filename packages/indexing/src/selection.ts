import { SelectionError } from "./errors.js";
import { isSlice, type Slice } from "./slice.js";

/** The ellipsis item: stands for as many full dimensions as the other items leave over (like `...`). */
export const ELLIPSIS = "...";

/**
 * One item of a basic selection: an integer index (drops the dimension), a slice, `null` for the
 * whole dimension (like `:`), or `ELLIPSIS`.
 */
export type BasicSelectionItem = number | Slice | null | typeof ELLIPSIS;

/** A basic selection: one item, a list of items (one per leading dimension), or `undefined` for everything. */
export type BasicSelection = BasicSelectionItem | readonly BasicSelectionItem[] | undefined;

/** A selection item for exactly one dimension, after the ellipsis and missing items are expanded. */
export type DimSelectionItem = number | Slice;

const FULL: Slice = Object.freeze({ kind: "slice", start: null, stop: null, step: null });

/**
 * zarr-python's `replace_ellipsis`: one item per dimension, with the ellipsis expanded to full
 * slices, `null` replaced by a full slice and missing trailing items filled with full slices.
 * Items are not otherwise checked here (the dimension indexers do that).
 */
export function normalizeBasicSelection(selection: BasicSelection, shape: readonly number[]): DimSelectionItem[] {
  return expandSelection(selectionItems(selection), shape).map((item, dim) => {
    if (typeof item === "number" || isSlice(item)) return item;
    throw new SelectionError(
      `unsupported selection item for basic indexing in dimension ${dim}; expected an integer, a slice, null or "...", got ${describe(item)}`,
      { dim },
    );
  });
}

/** The items of a selection: a list is the items, `undefined` none, anything else one item. */
export function selectionItems(selection: unknown): readonly unknown[] {
  return selection === undefined ? [] : Array.isArray(selection) ? selection : [selection];
}

/**
 * `replace_ellipsis` on a list of items of any kind: exactly one item per dimension, `null`,
 * missing items and the ellipsis's place filled with full slices. Throws `SelectionError` for more
 * than one ellipsis or more items than dimensions.
 */
export function expandSelection(items: readonly unknown[], shape: readonly number[]): unknown[] {
  const ndim = shape.length;
  const ellipses = items.filter((item) => item === ELLIPSIS).length;
  if (ellipses > 1) {
    throw new SelectionError(`a selection can only have a single ellipsis ("..."), found ${ellipses}`);
  }
  let expanded: readonly unknown[] = items;
  if (ellipses === 1) {
    const at = items.indexOf(ELLIPSIS);
    const others = items.length - 1;
    const fill: unknown[] = new Array<unknown>(Math.max(ndim - others, 0)).fill(FULL);
    expanded = [...items.slice(0, at), ...fill, ...items.slice(at + 1)];
  }
  if (expanded.length > ndim) {
    throw new SelectionError(
      `too many indices for array; expected ${ndim}, got ${expanded.length} (array shape [${shape.join(", ")}])`,
    );
  }
  return shape.map((_, dim) => {
    const item = expanded[dim];
    return item === undefined || item === null ? FULL : item;
  });
}

/** A short description of an unexpected value, for error messages. */
export function describe(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value))
    return `an array [${value.slice(0, 8).map(describe).join(", ")}${value.length > 8 ? ", ..." : ""}]`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (typeof value === "object" && value !== null) return `an object ${safeJson(value)}`;
  return String(value);
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
