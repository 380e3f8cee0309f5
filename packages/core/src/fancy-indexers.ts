/*
 * The indexers of orthogonal, coordinate, mask and block selections, and the choice among them, for
 * `ZarrArray`: loaded by the first such selection (a page reading basic selections never loads them).
 */
import {
  BlockIndexer,
  CoordinateIndexer,
  MaskIndexer,
  OrthogonalIndexer,
  vindexKind,
  type BasicSelection,
  type CoordinateSelection,
  type Indexer,
  type MaskSelection,
  type OrthogonalSelection,
} from "@z/indexing";

export { createIndexer, selectionKind } from "@z/indexing";

/** The selection kinds whose indexers are here; `vindex` is a coordinate or mask selection, as `vindexKind` tells. */
export type FancyKind = "orthogonal" | "coordinate" | "mask" | "block" | "vindex";

/** The indexer of a selection of `kind` on an array of `shape` in `chunks` (every index checked here). */
export function fancyIndexer(
  kind: FancyKind,
  selection: unknown,
  shape: readonly number[],
  chunks: readonly number[],
): Indexer {
  switch (kind) {
    case "orthogonal":
      return new OrthogonalIndexer(selection as OrthogonalSelection, shape, chunks);
    case "coordinate":
      return new CoordinateIndexer(selection as CoordinateSelection, shape, chunks);
    case "mask":
      return new MaskIndexer(selection as MaskSelection, shape, chunks);
    case "block":
      return new BlockIndexer(selection as BasicSelection, shape, chunks);
    case "vindex": {
      const vindex = selection as CoordinateSelection | MaskSelection;
      return vindexKind(vindex, shape) === "coordinate"
        ? new CoordinateIndexer(vindex as CoordinateSelection, shape, chunks)
        : new MaskIndexer(vindex as MaskSelection, shape, chunks);
    }
  }
}
