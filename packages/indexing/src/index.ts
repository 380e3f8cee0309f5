export { BoundsError, SelectionError } from "./errors.js";
export { slice, isSlice, type Slice } from "./slice.js";
export { ELLIPSIS, normalizeBasicSelection, type BasicSelection, type BasicSelectionItem, type DimSelectionItem } from "./selection.js";
export { normalizeIntegerIndex } from "./integer-index.js";
export {
  rangeLength,
  type ChunkDimProjection,
  type ChunkProjection,
  type DimRange,
  type DimSelection,
} from "./projection.js";
export type { DimIndexer } from "./dim-indexer.js";
export { IntDimIndexer } from "./int-dim-indexer.js";
export { SliceDimIndexer } from "./slice-dim-indexer.js";
export { BasicIndexer } from "./basic-indexer.js";
export { selectionView, stridesFor, type StridedView } from "./strided-view.js";
export { copyStrided, fillStrided } from "./copy.js";
