/*
 * Writing a scalar into what a projection selects of a chunk, and whether a projection covers its
 * chunk (a write then need not read it), a module of its own: reading never loads it.
 */
import type { TypedArray } from "@z/meta";
import { bitsOf, checkValuesPerElement, values, type Values } from "./copy.js";
import { fillPattern, fillStrided, type FillPattern } from "./fill.js";
import { cStrides } from "./index-array.js";
import { isAllRanges, outerPlan, pointOffsets } from "./projection-copy.js";
import { rangeLength, type AnyChunkProjection, type DimSelection } from "./projection.js";
import { selectionView, type StridedView } from "./strided-view.js";

/**
 * Sets every chunk element a projection selects to `value` (one element as in `fillStrided`: a
 * number or bigint for all its values, or `valuesPerElement` values): what a write of a scalar
 * does to one chunk.
 */
export function fillProjection<T extends TypedArray>(
  chunk: StridedView<T>,
  projection: AnyChunkProjection,
  value: number | bigint | ArrayLike<number | bigint>,
  valuesPerElement = 1,
): void {
  const k = checkValuesPerElement(valuesPerElement);
  if (projection.kind === "points") {
    const pattern = fillPattern(chunk.data, value, k).values;
    const offsets = pointOffsets(chunk, projection, k);
    const dst = values(bitsOf(chunk.data));
    for (let i = 0; i < offsets.length; i++) {
      const at = offsets[i]!;
      for (let j = 0; j < k; j++) dst[at + j] = pattern[j]!;
    }
    return;
  }
  if (projection.kind !== "orthogonal" || isAllRanges(projection.chunkSelection, [])) {
    fillStrided(selectionView(chunk, projection.chunkSelection as readonly DimSelection[]), value, k);
    return;
  }
  const pattern = fillPattern(chunk.data, value, k);
  const c = outerPlan(chunk, projection.chunkSelection, k, "chunk");
  if (c.empty) return;
  scatterPattern(values(bitsOf(chunk.data)), c.start, c.tables, pattern, k);
}

/**
 * True when a projection selects every element of a chunk of `chunkShape` (a write then need not
 * read the chunk first): every dimension's selection covers it whole (an integer only a
 * dimension of length 1), or the points cover every element. Selections at the array's edge never
 * cover the chunk's padding, so edge chunks are covered only when the array fills them.
 */
export function coversChunk(projection: AnyChunkProjection, chunkShape: readonly number[]): boolean {
  if (projection.kind === "points") {
    const size = chunkShape.reduce((p, n) => p * n, 1);
    if (projection.count < size) return false;
    const strides = cStrides(chunkShape);
    const flat = new Float64Array(projection.count);
    projection.chunkSelection.forEach((list, d) => {
      const stride = strides[d]!;
      for (let i = 0; i < flat.length; i++) flat[i]! += list[i]! * stride;
    });
    return coversAll(flat, size);
  }
  return projection.chunkSelection.every((sel, d) => {
    const length = chunkShape[d];
    if (length === undefined) return false;
    if (typeof sel === "number") return length === 1;
    if (sel instanceof Int32Array) return sel.length >= length && coversAll(sel, length);
    return rangeLength(sel) === length; // as many distinct indices as the dimension has
  });
}

function coversAll(indices: ArrayLike<number>, size: number): boolean {
  const seen = new Uint8Array(size);
  let distinct = 0;
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i]!;
    if (v >= 0 && v < size && seen[v] === 0) {
      seen[v] = 1;
      distinct++;
    }
  }
  return distinct === size;
}

/** dst[dStart + Σ dTables] = pattern over the outer product of the tables. */
function scatterPattern(dst: Values, dStart: number, dTables: Float64Array[], fill: FillPattern, k: number): void {
  const pattern = fill.values;
  const m = dTables.length;
  if (m === 0) {
    for (let j = 0; j < k; j++) dst[dStart + j] = pattern[j]!;
    return;
  }
  const inner = dTables[m - 1]!;
  const n = inner.length;
  const index = new Int32Array(m);
  const base = new Float64Array(m);
  base[0] = dStart;
  for (let d = 0; d < m - 1; d++) base[d + 1] = base[d]! + dTables[d]![0]!;
  for (;;) {
    const b = base[m - 1]!;
    for (let i = 0; i < n; i++) {
      const dp = b + inner[i]!;
      for (let j = 0; j < k; j++) dst[dp + j] = pattern[j]!;
    }
    let d = m - 2;
    for (; d >= 0; d--) {
      if (++index[d]! < dTables[d]!.length) break;
      index[d] = 0;
    }
    if (d < 0) return;
    for (let e = d; e < m - 1; e++) base[e + 1] = base[e]! + dTables[e]![index[e]!]!;
  }
}
