import type { TypedArray } from "@z/meta";
import {
  SHORT_RUN,
  checkValuesPerElement,
  copyRun,
  copyStrided,
  floatBits,
  valueRange,
  values,
  type Values,
} from "./copy.js";
import { BoundsError, SelectionError } from "./errors.js";
import { cStrides } from "./index-array.js";
import {
  rangeLength,
  type AnyChunkProjection,
  type DimRange,
  type DimSelection,
  type OrthogonalDimSelection,
  type PointChunkProjection,
} from "./projection.js";
import { selectionView, type StridedView } from "./strided-view.js";

/** Which way `copyProjection` copies: `"read"` chunk → selected (the output), `"write"` selected (the value) → chunk. */
export type CopyDirection = "read" | "write";

/**
 * Copies one projection of any selection kind between a chunk and the selection's side: for a
 * read, `selected` is the output (of the indexer's `shape`) and the chunk's items go to it; for
 * a write, `selected` is the value (broadcast to the indexer's `shape`, stride-0 dimensions
 * allowed) and its items go into the chunk. `chunk` is the whole decoded chunk (of the chunk
 * shape, C or F order). `valuesPerElement` as in `copyStrided`.
 *
 * Basic projections, and orthogonal ones that happen to be all ranges, copy as one
 * `copyStrided` of two `selectionView`s. Orthogonal projections with index lists gather (read)
 * or scatter (write) through per-dimension offset tables, the last dimension innermost; point
 * projections copy point by point. In every case items are copied in the projection's order, so
 * when a write selects one chunk element twice, the later item wins (numpy's last write wins).
 * The two views must not share memory (a chunk and an output or value never do).
 *
 * Throws `SelectionError` when the projection does not fit the views' dimensions, `BoundsError`
 * when an index falls outside a view or a view reaches outside its data; nothing is copied then.
 */
export function copyProjection<T extends TypedArray>(
  selected: StridedView<T>,
  chunk: StridedView<T>,
  projection: AnyChunkProjection,
  direction: CopyDirection,
  valuesPerElement = 1,
): void {
  const k = checkValuesPerElement(valuesPerElement);
  if (direction !== "read" && direction !== "write") {
    throw new SelectionError(`the direction of a copy must be "read" or "write", got ${String(direction)}`);
  }
  if (
    projection.kind !== "points" &&
    (projection.kind !== "orthogonal" || isAllRanges(projection.chunkSelection, projection.outSelection))
  ) {
    const c = selectionView(chunk, projection.chunkSelection as readonly DimSelection[]);
    const s = selectionView(selected, projection.outSelection as readonly DimRange[]);
    if (direction === "read") copyStrided(s, c, k);
    else copyStrided(c, s, k);
    return;
  }
  // Float32 values move as the integers of their bits (see `floatBits`; `copyStrided` does the same).
  [selected, chunk] = [floatBits(selected, chunk), floatBits(chunk, selected)];
  if (projection.kind === "points") {
    copyPoints(selected, chunk, projection, direction, k);
    return;
  }
  const c = outerPlan(chunk, projection.chunkSelection, k, "chunk");
  const s = outerPlan(selected, projection.outSelection, k, "selection");
  if (c.tables.length !== s.tables.length || c.tables.some((t, j) => t.length !== s.tables[j]!.length)) {
    throw new SelectionError(
      `a chunk selection of lengths [${c.tables.map((t) => t.length).join(", ")}] does not match an output selection of lengths [${s.tables.map((t) => t.length).join(", ")}]`,
    );
  }
  if (c.empty) return;
  if (direction === "read") gather(values(selected.data), s.start, s.tables, values(chunk.data), c.start, c.tables, k);
  else gather(values(chunk.data), c.start, c.tables, values(selected.data), s.start, s.tables, k);
}

export function isAllRanges(
  chunkSelection: readonly OrthogonalDimSelection[],
  outSelection: readonly unknown[],
): boolean {
  return !chunkSelection.some((s) => s instanceof Int32Array) && !outSelection.some((s) => s instanceof Int32Array);
}

// --- orthogonal (outer product) copies ----------------------------------------------------------

interface OuterPlan {
  /** The value position of the first element (integers folded in). */
  readonly start: number;
  /** Per dimension not dropped, the value offset of each item from `start`. */
  readonly tables: Float64Array[];
  readonly empty: boolean;
}

/** Offset tables for an orthogonal selection of `view`: integers move the start, ranges and lists become tables. */
export function outerPlan(
  view: StridedView,
  selection: readonly OrthogonalDimSelection[],
  k: number,
  role: string,
): OuterPlan {
  const { shape, strides } = view;
  if (selection.length !== shape.length) {
    throw new SelectionError(
      `a ${role} selection of ${selection.length} dimensions cannot apply to a view of shape [${shape.join(", ")}]`,
    );
  }
  if (strides.length !== shape.length) {
    throw new SelectionError(
      `a view of shape [${shape.join(", ")}] needs ${shape.length} strides, got ${strides.length}`,
    );
  }
  let start = view.offset * k;
  const tables: Float64Array[] = [];
  selection.forEach((sel, dim) => {
    const length = shape[dim]!;
    const stride = strides[dim]! * k;
    if (typeof sel === "number") {
      if (!Number.isInteger(sel) || sel < 0 || sel >= length) throw BoundsError.outOfBounds(sel, length, dim);
      start += sel * stride;
      return;
    }
    if (sel instanceof Int32Array) {
      const table = new Float64Array(sel.length);
      for (let i = 0; i < sel.length; i++) {
        const v = sel[i]!;
        if (v < 0 || v >= length) throw BoundsError.outOfBounds(v, length, dim);
        table[i] = v * stride;
      }
      tables.push(table);
      return;
    }
    const n = rangeLength(sel);
    if (!Number.isInteger(sel.start) || !Number.isInteger(sel.step) || sel.step === 0) {
      throw new SelectionError(
        `range ${sel.start}:${sel.stop}:${sel.step} in dimension ${dim} must have integer bounds and a non-zero step`,
        { dim },
      );
    }
    const table = new Float64Array(n);
    if (n > 0) {
      const last = sel.start + (n - 1) * sel.step;
      for (const index of [sel.start, last])
        if (index < 0 || index >= length) throw BoundsError.outOfBounds(index, length, dim);
      for (let i = 0; i < n; i++) table[i] = (sel.start + i * sel.step) * stride;
    }
    tables.push(table);
  });
  const empty = tables.some((t) => t.length === 0);
  // Every index is inside the view; the view must be inside its data.
  if (!empty) valueRange(view, k, role === "chunk" ? "chunk" : "selection");
  return { start, tables, empty };
}

/** dst[dStart + Σ dTables] = src[sStart + Σ sTables] over the outer product of the tables, the last innermost. */
function gather(
  dst: Values,
  dStart: number,
  dTables: Float64Array[],
  src: Values,
  sStart: number,
  sTables: Float64Array[],
  k: number,
): void {
  const m = dTables.length;
  if (m === 0) {
    for (let j = 0; j < k; j++) dst[dStart + j] = src[sStart + j]!;
    return;
  }
  const dInner = dTables[m - 1]!;
  const sInner = sTables[m - 1]!;
  const n = dInner.length;
  const runs = isRun(dInner, k) && isRun(sInner, k) && n * k >= SHORT_RUN;
  const index = new Int32Array(m);
  const dBase = new Float64Array(m);
  const sBase = new Float64Array(m);
  dBase[0] = dStart;
  sBase[0] = sStart;
  for (let d = 0; d < m - 1; d++) {
    dBase[d + 1] = dBase[d]! + dTables[d]![0]!;
    sBase[d + 1] = sBase[d]! + sTables[d]![0]!;
  }
  for (;;) {
    const d0 = dBase[m - 1]!;
    const s0 = sBase[m - 1]!;
    if (runs) {
      copyRun(dst, d0 + dInner[0]!, src, s0 + sInner[0]!, n * k, false);
    } else if (k === 1) {
      for (let i = 0; i < n; i++) dst[d0 + dInner[i]!] = src[s0 + sInner[i]!]!;
    } else {
      for (let i = 0; i < n; i++) {
        const dp = d0 + dInner[i]!;
        const sp = s0 + sInner[i]!;
        for (let j = 0; j < k; j++) dst[dp + j] = src[sp + j]!;
      }
    }
    let d = m - 2;
    for (; d >= 0; d--) {
      if (++index[d]! < dTables[d]!.length) break;
      index[d] = 0;
    }
    if (d < 0) return;
    for (let e = d; e < m - 1; e++) {
      dBase[e + 1] = dBase[e]! + dTables[e]![index[e]!]!;
      sBase[e + 1] = sBase[e]! + sTables[e]![index[e]!]!;
    }
  }
}

/** True when a table's items are adjacent elements (offsets 0, k, 2k, … from its first). */
function isRun(table: Float64Array, k: number): boolean {
  const first = table[0]!;
  for (let i = 1; i < table.length; i++) if (table[i]! - first !== i * k) return false;
  return true;
}

// --- point copies -------------------------------------------------------------------------------

function copyPoints(
  selected: StridedView,
  chunk: StridedView,
  p: PointChunkProjection,
  direction: CopyDirection,
  k: number,
): void {
  const cOffsets = pointOffsets(chunk, p, k);
  const sOffsets = flatOffsets(selected, p.outSelection, p.count, k);
  const [dst, dOffsets, src, sOffsetsFrom] =
    direction === "read"
      ? [values(selected.data), sOffsets, values(chunk.data), cOffsets]
      : [values(chunk.data), cOffsets, values(selected.data), sOffsets];
  const n = p.count;
  if (k === 1) {
    for (let i = 0; i < n; i++) dst[dOffsets[i]!] = src[sOffsetsFrom[i]!]!;
  } else {
    for (let i = 0; i < n; i++) {
      const dp = dOffsets[i]!;
      const sp = sOffsetsFrom[i]!;
      for (let j = 0; j < k; j++) dst[dp + j] = src[sp + j]!;
    }
  }
}

/** The value position in `chunk` of each point of `p`. */
export function pointOffsets(chunk: StridedView, p: PointChunkProjection, k: number): Float64Array {
  const { shape, strides } = chunk;
  const n = p.count;
  if (p.chunkSelection.length !== shape.length || strides.length !== shape.length) {
    throw new SelectionError(
      `a point selection of ${p.chunkSelection.length} dimensions cannot apply to a chunk view of shape [${shape.join(", ")}]`,
    );
  }
  const offsets = new Float64Array(n).fill(chunk.offset * k);
  if (n === 0) return offsets;
  p.chunkSelection.forEach((list, dim) => {
    if (list.length !== n) {
      throw new SelectionError(`a point selection of ${n} points has ${list.length} indices in dimension ${dim}`);
    }
    const length = shape[dim]!;
    const stride = strides[dim]! * k;
    for (let i = 0; i < n; i++) {
      const v = list[i]!;
      if (v < 0 || v >= length) throw BoundsError.outOfBounds(v, length, dim);
      offsets[i]! += v * stride;
    }
  });
  valueRange(chunk, k, "chunk");
  return offsets;
}

/** The value position in `view` of each of `n` flat C-order indices (a list or a range), whatever the view's strides. */
function flatOffsets(view: StridedView, out: Int32Array | DimRange, n: number, k: number): Float64Array {
  const { shape, strides } = view;
  if (strides.length !== shape.length) {
    throw new SelectionError(
      `a view of shape [${shape.join(", ")}] needs ${shape.length} strides, got ${strides.length}`,
    );
  }
  const listed = out instanceof Int32Array;
  if (listed ? out.length !== n : rangeLength(out) !== n) {
    throw new SelectionError(
      `a point selection of ${n} points has ${listed ? out.length : rangeLength(out)} output positions`,
    );
  }
  const offsets = new Float64Array(n);
  if (n === 0) return offsets;
  const size = shape.reduce((p, m) => p * m, 1);
  const c = cStrides(shape);
  const contiguous = shape.every((m, d) => m === 1 || strides[d] === c[d]);
  const ndim = shape.length;
  const start = listed ? 0 : out.start;
  const step = listed ? 0 : out.step;
  for (let i = 0; i < n; i++) {
    const f = listed ? out[i]! : start + i * step;
    if (f < 0 || f >= size) {
      throw new BoundsError(
        `output position ${f} is outside a selection of ${size} elements (shape [${shape.join(", ")}])`,
        {
          index: f,
          length: size,
        },
      );
    }
    let at = view.offset;
    if (contiguous) {
      at += f;
    } else {
      let rest = f;
      for (let d = ndim - 1; d >= 0; d--) {
        const m = shape[d]!;
        const q = Math.floor(rest / m);
        at += (rest - q * m) * strides[d]!;
        rest = q;
      }
    }
    offsets[i] = at * k;
  }
  valueRange(view, k, "selection");
  return offsets;
}
