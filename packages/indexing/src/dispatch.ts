import { isIntegerArray, isIntegerList, type IndexArray } from "./index-array.js";
import { ELLIPSIS, type BasicSelectionItem } from "./selection.js";
import { isSlice } from "./slice.js";

/** Any selection item: a basic one (integer, slice, `null`, `ELLIPSIS`) or an index array or mask. */
export type SelectionItem = BasicSelectionItem | IndexArray;

/**
 * A selection of any kind, as `Array.__getitem__` takes one: a list of items (Python's tuple:
 * one per leading dimension), a single item, or `undefined` for everything. A list is always the
 * list of items, never an index list: Python's `z[[0, 2]]` is `[[0, 2]]` here.
 */
export type AnySelection = SelectionItem | readonly SelectionItem[] | undefined;

/** A selection that may also name fields of a structured dtype: any string but `ELLIPSIS` is a field name. */
export type FieldSelection = AnySelection | string | readonly (SelectionItem | string)[];

/** The kinds of selection, each with its indexer: what `Array.__getitem__` dispatches to. */
export type SelectionKind = "basic" | "orthogonal" | "coordinate" | "mask";

export const isField = (item: unknown): item is string => typeof item === "string" && item !== ELLIPSIS;
export const isPyInt = (item: unknown): boolean => typeof item === "number" && Number.isInteger(item);

/**
 * zarr-python's `pop_fields`: splits field names (strings other than `ELLIPSIS`) from the
 * selection items. `fields` is the one name, the list of several, or undefined for none.
 * `selection` is always the list of the other items (Python's tuple; an empty list for
 * everything), which every indexer and check here takes as it is.
 */
export function popFields(selection: FieldSelection): {
  fields: string | string[] | undefined;
  selection: SelectionItem[];
} {
  if (selection === undefined) return { fields: undefined, selection: [] };
  if (isField(selection)) return { fields: selection, selection: [] };
  if (!Array.isArray(selection)) return { fields: undefined, selection: [selection as SelectionItem] };
  const items = selection as readonly unknown[];
  const fields = items.filter(isField);
  return {
    fields: fields.length === 0 ? undefined : fields.length === 1 ? fields[0] : fields,
    selection: items.filter((item) => !isField(item)) as SelectionItem[],
  };
}

/**
 * zarr-python's `is_pure_fancy_indexing` on a selection's items (fields popped): true when a
 * 1-d array gets one integer list or array, or when there is exactly one item per dimension, every
 * one an integer or an integer list or array, and at least one a list or array. Lists of booleans
 * count as integer lists, as Python's bools are integers (`vindex` then reads them as a mask).
 */
export function isPureFancyIndexing(selection: readonly unknown[], ndim: number): boolean {
  const fancy = (item: unknown): boolean => isIntegerList(item) || isIntegerArray(item);
  if (selection.length === 1) {
    // Python unwraps a 1-tuple: one item alone is not a tuple
    return ndim === 1 && fancy(selection[0]);
  }
  return (
    selection.length === ndim &&
    !selection.some((item) => item === null || item === ELLIPSIS || isSlice(item)) &&
    selection.every((item) => isPyInt(item) || fancy(item)) &&
    selection.some(fancy)
  );
}

/**
 * zarr-python's `is_pure_orthogonal_indexing` (2.14+) on a selection's items: true for a single
 * integer list or 1-d integer array, or one item per dimension that are integers, slices (or
 * `null`) and at most one integer list or array.
 */
export function isPureOrthogonalIndexing(selection: readonly unknown[], ndim: number): boolean {
  if (ndim === 0) return false;
  if (selection.length === 1) return isIntegerList(selection[0]) || isIntegerArray(selection[0], 1);
  const fancy = (item: unknown): boolean => isIntegerList(item) || isIntegerArray(item);
  return (
    selection.length === ndim &&
    selection.filter(fancy).length <= 1 &&
    selection.every((item) => fancy(item) || isPyInt(item) || isSlice(item) || item === null)
  );
}
