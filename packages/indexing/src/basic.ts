/**
 * `@z/indexing/basic`: basic selections (integers, slices, `null`, `ELLIPSIS`), whether a selection
 * is basic (`isPureFancyIndexing`, `isPureOrthogonalIndexing`, as `selectionKind` decides), and the
 * copy kernels for every kind of projection, without the other indexers (orthogonal, coordinate,
 * mask, block), the reading of index arrays and the fills a write of a scalar makes: what reading a
 * basic selection needs. The package's index has everything.
 *
 * @packageDocumentation
 */

export { BoundsError, SelectionError } from "./errors.js";
export { slice, isSlice, type Slice } from "./slice.js";
export {
  ELLIPSIS,
  normalizeBasicSelection,
  type BasicSelection,
  type BasicSelectionItem,
  type DimSelectionItem,
} from "./selection.js";
export { normalizeIntegerIndex } from "./integer-index.js";
export { touchedBox, type ProjectionBox } from "./projection-box.js";
export {
  rangeLength,
  type AnyChunkProjection,
  type ChunkDimProjection,
  type ChunkProjection,
  type DimRange,
  type DimSelection,
  type Indexer,
  type OrthogonalChunkProjection,
  type OrthogonalDimProjection,
  type OrthogonalDimSelection,
  type OutDimSelection,
  type PointChunkProjection,
} from "./projection.js";
export type { DimIndexer, OrthogonalDimIndexer } from "./dim-indexer.js";
export { IntDimIndexer } from "./int-dim-indexer.js";
export { SliceDimIndexer } from "./slice-dim-indexer.js";
export { BasicIndexer } from "./basic-indexer.js";
export {
  isPureFancyIndexing,
  isPureOrthogonalIndexing,
  popFields,
  type FieldSelection,
  type AnySelection,
  type SelectionItem,
  type SelectionKind,
} from "./dispatch.js";
export type { IndexArray, IntegerTypedArray, NestedList, SelectionArray } from "./index-array.js";
export { selectionView, stridesFor, type StridedView } from "./strided-view.js";
export { copyStrided } from "./copy.js";
export { copyProjection, type CopyDirection } from "./projection-copy.js";
