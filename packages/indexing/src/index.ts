/**
 * Selections projected onto the chunk grid, and the copy kernels that move data between chunks
 * and a selection's output (or value).
 *
 * ## The contract with the core
 *
 * Every selection kind goes through one path:
 *
 * 1. Pick the kind and make the indexer (every index is checked here, before any chunk is read):
 *    - `get(selection)` / `set(selection, value)` (zarr-python's `__getitem__` / `__setitem__`):
 *      `const { fields, selection: items } = popFields(selection)`, then
 *      `createIndexer(selectionKind(selection, shape), items, shape, chunks)`;
 *    - `getBasicSelection` / `setBasicSelection`: `new BasicIndexer(selection, shape, chunks)`;
 *    - `oindex` / `getOrthogonalSelection`: `new OrthogonalIndexer(selection, shape, chunks)`;
 *    - `vindex`: `createIndexer(vindexKind(selection, shape), items, shape, chunks)`;
 *      `getCoordinateSelection`: `new CoordinateIndexer(...)`; `getMaskSelection`: `new MaskIndexer(...)`;
 *    - `blocks` / `getBlockSelection`: `new BlockIndexer(selection, shape, chunks)`.
 *
 *    Each is an `Indexer`: `shape` is the output's shape (a written value is broadcast to it),
 *    `nchunks` the number of projections, and iterating yields `AnyChunkProjection`s, one per
 *    chunk touched (never the same chunk twice), in C order of chunk coordinates.
 *
 * 2. Read: allocate the output of `indexer.shape` (filled with the fill value), and for each
 *    projection `p` whose chunk exists, `copyProjection(outView, chunkView, p, "read", k)`.
 *
 * 3. Write: broadcast the value to `indexer.shape` (stride-0 views are fine), and for each
 *    projection: if `coversChunk(p, chunks)` the chunk need not be read (start from a blank
 *    one), else read it (or fill it with the fill value); then
 *    `copyProjection(valueView, chunkView, p, "write", k)` or, for a scalar,
 *    `fillProjection(chunkView, p, element, k)`; then store the chunk.
 *
 * `chunkView` is the whole decoded chunk (shape `chunks`, strides `stridesFor(chunks, order)`),
 * `k` the values per element (`valuesPerElement(dtype)`). Projections of one indexer never
 * share a chunk, so they may be processed concurrently; their `Int32Array`s may be views of one
 * buffer, to be read, not written. Field names (strings other than `ELLIPSIS`) are not
 * selection items: the indexers refuse them, so take them off with `popFields` first. Basic projections (the only kind
 * `BasicIndexer` and `BlockIndexer` yield) may still be copied as before, with `copyStrided` on
 * two `selectionView`s; `copyProjection` does exactly that for them.
 *
 * Projections: `ChunkProjection` (basic: ranges and integers; no `kind`),
 * `OrthogonalChunkProjection` (`kind: "orthogonal"`: per dimension an integer, a range or an
 * `Int32Array` of chunk indices; per output dimension a range or an `Int32Array` of output
 * indices) and `PointChunkProjection` (`kind: "points"`: one `Int32Array` of chunk indices per
 * dimension, and the points' flat C-order output positions).
 *
 * @packageDocumentation
 */
export * from "./basic.js";
export { fillStrided } from "./fill.js";
export { fillProjection, coversChunk } from "./projection-fill.js";
export { IntArrayDimIndexer, BoolArrayDimIndexer } from "./array-dim-indexers.js";
export { OrthogonalIndexer, type OrthogonalSelection, type OrthogonalSelectionItem } from "./orthogonal-indexer.js";
export { CoordinateIndexer, MaskIndexer, type CoordinateSelection, type MaskSelection } from "./point-indexers.js";
export { BlockIndexer } from "./block-indexer.js";
export { createIndexer, selectionKind, vindexKind } from "./create-indexer.js";
