import { checkGrid } from "./basic-indexer.js";
import { SelectionError } from "./errors.js";
import { groupByKey, outPositions, type Groups } from "./group-by-key.js";
import { cStrides, type IndexArray } from "./index-array.js";
import { readIndexArray, wrapAndCheck } from "./read-index-array.js";
import type { PointChunkProjection } from "./projection.js";
import { describe, selectionItems } from "./selection.js";

/**
 * A coordinate selection: one integer or integer array per dimension of the array (a list of
 * items; a single item for a 1-d array). Arrays may be N-d; see `CoordinateIndexer`.
 */
export type CoordinateSelection = number | IndexArray | readonly (number | IndexArray)[];

/** A mask selection: one Boolean array of the array's shape (alone, or as the only item of a list). */
export type MaskSelection = IndexArray | readonly [IndexArray];

const MAX_POINTS = 2 ** 31 - 1;

/** Points grouped by chunk, shared by the coordinate and mask indexers. */
class Points {
  readonly nchunks: number;
  readonly #groups: Groups;
  readonly #locals: Int32Array[];
  readonly #grid: number[];

  /** `coords[d][i]`: point `i`'s index in dimension `d`, already wrapped and checked. */
  constructor(
    coords: readonly (Float64Array | Int32Array)[],
    count: number,
    shape: readonly number[],
    chunks: readonly number[],
  ) {
    if (count > MAX_POINTS)
      throw new SelectionError(`a selection of ${count} points is too large (at most ${MAX_POINTS})`);
    const ndim = shape.length;
    this.#grid = shape.map((n, d) => Math.ceil(n / chunks[d]!));
    const gridStrides = cStrides(this.#grid);
    // Each point's chunk, as its flat C-order index in the chunk grid (np.ravel_multi_index).
    const keys = new Float64Array(count);
    for (let d = 0; d < ndim; d++) {
      const c = chunks[d]!;
      const stride = gridStrides[d]!;
      const coord = coords[d]!;
      for (let i = 0; i < count; i++) keys[i]! += Math.floor(coord[i]! / c) * stride;
    }
    const groups = groupByKey(
      keys,
      this.#grid.reduce((p, n) => p * n, 1),
    );
    const { order } = groups;
    this.#locals = coords.map((coord, d) => {
      const c = chunks[d]!;
      const local = new Int32Array(count);
      if (order === null) {
        for (let i = 0; i < count; i++) local[i] = coord[i]! % c;
      } else {
        for (let p = 0; p < count; p++) local[p] = coord[order[p]!]! % c;
      }
      return local;
    });
    this.#groups = groups;
    this.nchunks = groups.keys.length;
  }

  *projections(): Generator<PointChunkProjection> {
    const { keys, starts, order } = this.#groups;
    const grid = this.#grid;
    for (let g = 0; g < keys.length; g++) {
      const from = starts[g]!;
      const to = starts[g + 1]!;
      // np.unravel_index
      const chunkCoords = new Array<number>(grid.length);
      let rest = keys[g]!;
      for (let d = grid.length - 1; d >= 0; d--) {
        chunkCoords[d] = rest % grid[d]!;
        rest = Math.floor(rest / grid[d]!);
      }
      yield {
        kind: "points",
        chunkCoords,
        count: to - from,
        chunkSelection: this.#locals.map((local) => local.subarray(from, to)),
        outSelection: outPositions(order, from, to),
      };
    }
  }
}

/**
 * A coordinate selection (zarr-python's `CoordinateIndexer`, `z.vindex[...]` with integer
 * arrays): one integer or integer array per dimension; negative indices wrap once. Arrays are
 * broadcast against each other as numpy does (an integer counts as an array of shape `[1]`),
 * and point `i` of the broadcast shape selects the element at the arrays' items `i`. `shape` is
 * the broadcast shape (`[1]` when every item is an integer, as zarr-python). Points are grouped by
 * chunk with a stable sort and written back to their places in the output, so the output is in
 * the order given and, of repeated points, the last is written last. Everything is checked when
 * the indexer is made.
 */
export class CoordinateIndexer implements Iterable<PointChunkProjection> {
  /** The output's shape: the coordinate arrays' broadcast shape, or `[1]` for integers alone. */
  readonly shape: readonly number[];
  /** How many projections iteration yields: the chunks holding at least one point. */
  readonly nchunks: number;
  /** How many points are selected (the product of `shape`). */
  readonly npoints: number;
  readonly #points: Points;

  constructor(selection: CoordinateSelection, shape: readonly number[], chunks: readonly number[]) {
    checkGrid(shape, chunks);
    const ndim = shape.length;
    const items = selectionItems(selection);
    const invalid = (why: string): never => {
      throw new SelectionError(
        `invalid coordinate selection; expected one integer (coordinate) array per dimension of the target array (${ndim}), ${why}`,
      );
    };
    if (items.length !== ndim || ndim === 0) invalid(`got ${items.length} items`);
    const arrays = items.map((item, dim): { shape: number[]; values: Float64Array } => {
      if (typeof item === "number") {
        if (!Number.isInteger(item)) invalid(`got ${describe(item)} in dimension ${dim}`);
        return { shape: [1], values: Float64Array.of(item + 0) };
      }
      const array = readIndexArray(item, dim);
      if (array === undefined || array.kind !== "int") return invalid(`got ${describe(item)} in dimension ${dim}`);
      return array;
    });
    arrays.forEach((a, dim) => wrapAndCheck(a.values, shape[dim]!, dim));
    const outShape = broadcastShapes(arrays.map((a) => a.shape));
    const count = outShape.reduce((p, n) => p * n, 1);
    const coords = arrays.map((a) => broadcastTo(a.values, a.shape, outShape, count));
    this.shape = outShape.length === 0 ? [1] : outShape;
    this.npoints = count;
    this.#points = new Points(coords, count, shape, chunks);
    this.nchunks = this.#points.nchunks;
  }

  /** The projections: one per chunk holding points, in C order of chunk coordinates. */
  [Symbol.iterator](): Iterator<PointChunkProjection> {
    return this.#points.projections();
  }
}

/**
 * A mask selection (zarr-python's `MaskIndexer`, `z.vindex[mask]`): one Boolean array of the
 * array's shape; selects the elements where it is true, in C order, into a 1-d output of as
 * many elements (`shape` is `[count]`).
 */
export class MaskIndexer implements Iterable<PointChunkProjection> {
  /** The output's shape: `[count]`, the number of true elements. */
  readonly shape: readonly number[];
  /** How many projections iteration yields: the chunks holding at least one true element. */
  readonly nchunks: number;
  /** How many elements are selected. */
  readonly npoints: number;
  readonly #points: Points;

  constructor(selection: MaskSelection, shape: readonly number[], chunks: readonly number[]) {
    checkGrid(shape, chunks);
    const items = selectionItems(selection);
    const mask = items.length === 1 ? readIndexArray(items[0], undefined) : undefined;
    if (
      mask === undefined ||
      mask.kind !== "bool" ||
      mask.shape.length !== shape.length ||
      mask.shape.some((n, d) => n !== shape[d])
    ) {
      const got =
        items.length !== 1
          ? `${items.length} items`
          : mask === undefined || mask.kind !== "bool"
            ? describe(items[0])
            : `a Boolean array of shape [${mask.shape.join(", ")}]`;
      throw new SelectionError(
        `invalid mask selection; expected one Boolean (mask) array with the same shape as the target array [${shape.join(", ")}], got ${got}`,
      );
    }
    const { values } = mask;
    let count = 0;
    for (let i = 0; i < values.length; i++) if (values[i] !== 0) count++;
    // np.nonzero: the coordinates of the true elements, in C order, row by row (a row: the last dimension).
    const ndim = shape.length;
    const coords = shape.map(() => new Int32Array(count));
    const last = ndim === 0 ? 1 : shape[ndim - 1]!;
    const rows = last === 0 ? 0 : values.length / last;
    const outer = new Array<number>(Math.max(ndim - 1, 0)).fill(0);
    const lastCoords = ndim === 0 ? undefined : coords[ndim - 1]!;
    for (let r = 0, at = 0; r < rows; r++) {
      const base = r * last;
      for (let j = 0; j < last; j++) {
        if (values[base + j] === 0) continue;
        for (let d = 0; d < outer.length; d++) coords[d]![at] = outer[d]!;
        if (lastCoords !== undefined) lastCoords[at] = j;
        at++;
      }
      for (let d = outer.length - 1; d >= 0; d--) {
        if (++outer[d]! < shape[d]!) break;
        outer[d] = 0;
      }
    }
    this.shape = [count];
    this.npoints = count;
    this.#points = new Points(coords, count, shape, chunks);
    this.nchunks = this.#points.nchunks;
  }

  /** The projections: one per chunk holding true elements, in C order of chunk coordinates. */
  [Symbol.iterator](): Iterator<PointChunkProjection> {
    return this.#points.projections();
  }
}

/** numpy's broadcasting of shapes: aligned on the right, each length equal or 1. */
export function broadcastShapes(shapes: readonly (readonly number[])[]): number[] {
  const ndim = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(ndim).fill(1);
  for (const s of shapes) {
    for (let j = 0; j < s.length; j++) {
      const d = ndim - s.length + j;
      const n = s[j]!;
      if (n === out[d] || n === 1) continue;
      if (out[d] === 1) {
        out[d] = n;
        continue;
      }
      throw new SelectionError(
        `shape mismatch: indexing arrays could not be broadcast together with shapes ${shapes.map((x) => `[${x.join(", ")}]`).join(" ")}`,
      );
    }
  }
  return out;
}

/** `values` of `shape` broadcast to `outShape` (of `count` elements), in C order. */
function broadcastTo(
  values: Float64Array,
  shape: readonly number[],
  outShape: readonly number[],
  count: number,
): Float64Array {
  if (values.length === count) return values; // same shape, or only length-1 dims added
  const out = new Float64Array(count);
  if (count === 0) return out;
  const ndim = outShape.length;
  const lead = ndim - shape.length;
  const own = cStrides(shape);
  const strides = outShape.map((_, d) => (d < lead || shape[d - lead] === 1 ? 0 : own[d - lead]!));
  const index = new Array<number>(ndim).fill(0);
  let offset = 0;
  for (let i = 0; i < count; i++) {
    out[i] = values[offset]!;
    for (let d = ndim - 1; d >= 0; d--) {
      offset += strides[d]!;
      if (++index[d]! < outShape[d]!) break;
      offset -= strides[d]! * outShape[d]!;
      index[d] = 0;
    }
  }
  return out;
}
