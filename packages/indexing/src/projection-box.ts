import { rangeLength, type AnyChunkProjection, type OrthogonalDimSelection } from "./projection.js";

/** A box of a chunk's elements: its first and last index (inclusive) in each dimension. */
export interface ProjectionBox {
  readonly lo: number[];
  readonly hi: number[];
}

/**
 * The smallest box of chunk elements holding everything `p` selects; `undefined` when it selects
 * nothing. What a reader of part of a chunk reads, and a writer of part of one changes.
 */
export function touchedBox(p: AnyChunkProjection): ProjectionBox | undefined {
  const lo: number[] = [];
  const hi: number[] = [];
  if (p.kind === "points") {
    if (p.count === 0) return undefined;
    for (const list of p.chunkSelection) {
      const [min, max] = extent(list);
      lo.push(min);
      hi.push(max);
    }
    return { lo, hi };
  }
  for (const sel of p.chunkSelection as readonly OrthogonalDimSelection[]) {
    if (typeof sel === "number") {
      lo.push(sel);
      hi.push(sel);
    } else if (sel instanceof Int32Array) {
      if (sel.length === 0) return undefined;
      const [min, max] = extent(sel);
      lo.push(min);
      hi.push(max);
    } else {
      const n = rangeLength(sel);
      if (n === 0) return undefined;
      const end = sel.start + (n - 1) * sel.step;
      lo.push(Math.min(sel.start, end));
      hi.push(Math.max(sel.start, end));
    }
  }
  return { lo, hi };
}

function extent(list: Int32Array): [number, number] {
  let min = list[0]!;
  let max = min;
  for (let i = 1; i < list.length; i++) {
    const v = list[i]!;
    if (v < min) min = v;
    else if (v > max) max = v;
  }
  return [min, max];
}
