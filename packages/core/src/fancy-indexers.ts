/*
 * The indexers of orthogonal, coordinate, mask and block selections, and the choice among them, for
 * `ZarrArray`: loaded by the first such selection (a page reading basic selections never loads them).
 */
import { createIndexer, vindexKind, type AnySelection, type FieldSelection, type Indexer } from "@z/indexing";

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
  const resolved = kind === "vindex" ? vindexKind(selection as FieldSelection, shape) : kind;
  return createIndexer(resolved, selection as AnySelection, shape, chunks);
}
