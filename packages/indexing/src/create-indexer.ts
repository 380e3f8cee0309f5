/*
 * Which indexer a selection goes to, and making it (every kind: orthogonal, coordinate, mask and
 * block selections too), a module of its own with those indexers: see dispatch.ts for what a
 * basic selection needs.
 */
import { BasicIndexer } from "./basic-indexer.js";
import { BlockIndexer } from "./block-indexer.js";
import {
  isPureFancyIndexing,
  isPureOrthogonalIndexing,
  isPyInt,
  popFields,
  type AnySelection,
  type FieldSelection,
  type SelectionKind,
} from "./dispatch.js";
import { SelectionError } from "./errors.js";
import { OrthogonalIndexer, type OrthogonalSelection } from "./orthogonal-indexer.js";
import { CoordinateIndexer, MaskIndexer, type CoordinateSelection, type MaskSelection } from "./point-indexers.js";
import type { Indexer } from "./projection.js";
import { readIndexArray } from "./read-index-array.js";
import { describe, type BasicSelection } from "./selection.js";

/**
 * What `Array.__getitem__` (and `__setitem__`) of zarr-python 2.14+ does with a selection on an
 * array of `shape`: pure fancy indexing goes to `vindex` (a coordinate or mask selection, see
 * `vindexKind`), pure orthogonal indexing to `get_orthogonal_selection`, anything else to
 * `get_basic_selection`. Fields are popped first. Only `vindex` dispatch can throw here; the
 * indexer checks the rest.
 */
export function selectionKind(selection: FieldSelection, shape: readonly number[]): SelectionKind {
  const { selection: items } = popFields(selection);
  if (isPureFancyIndexing(items, shape.length)) return vindexKind(items, shape);
  if (isPureOrthogonalIndexing(items, shape.length)) return "orthogonal";
  return "basic";
}

/**
 * What zarr-python's `z.vindex[...]` does with a selection: one integer or integer array (or
 * list) per dimension is a coordinate selection, one Boolean array (or list) of the array's
 * shape a mask selection. Throws `SelectionError` for anything else.
 */
export function vindexKind(selection: FieldSelection, shape: readonly number[]): "coordinate" | "mask" {
  const { selection: items } = popFields(selection);
  const ndim = shape.length;
  const arrays = items.map((item, dim) => (isPyInt(item) ? undefined : readIndexArray(item, dim)));
  if (items.length === ndim && ndim > 0 && items.every((item, d) => isPyInt(item) || arrays[d]?.kind === "int")) {
    return "coordinate";
  }
  const mask = arrays[0];
  if (
    items.length === 1 &&
    mask?.kind === "bool" &&
    mask.shape.length === ndim &&
    mask.shape.every((n, d) => n === shape[d])
  ) {
    return "mask";
  }
  throw new SelectionError(
    `unsupported selection for vectorized indexing of an array of shape [${shape.join(", ")}]; expected one integer array per dimension (coordinates) or one Boolean array of the array's shape (a mask), got [${items.map(describe).join(", ")}]`,
  );
}

/**
 * The indexer for a selection of `kind` (fields popped, see `popFields`) on an array of `shape`
 * in `chunks`: `BasicIndexer`, `OrthogonalIndexer`, `CoordinateIndexer`, `MaskIndexer`, or for
 * `"block"` a `BlockIndexer`. Every index is checked here, before any chunk is touched.
 */
export function createIndexer(
  kind: SelectionKind | "block",
  selection: AnySelection,
  shape: readonly number[],
  chunks: readonly number[],
): Indexer {
  switch (kind) {
    case "basic":
      return new BasicIndexer(selection as BasicSelection, shape, chunks);
    case "orthogonal":
      return new OrthogonalIndexer(selection as OrthogonalSelection, shape, chunks);
    case "coordinate":
      return new CoordinateIndexer(selection as CoordinateSelection, shape, chunks);
    case "mask":
      return new MaskIndexer(selection as MaskSelection, shape, chunks);
    case "block":
      return new BlockIndexer(selection as BasicSelection, shape, chunks);
    default:
      throw new SelectionError(`unknown selection kind ${describe(kind)}`);
  }
}
