import type { ResolvedDim } from "./selection.js";

/** About this many bytes are read or written at once (more only when one chunk row is bigger). */
export const SLAB_BYTES = 64 * 1024 * 1024;

/**
 * Splits output dimension `dim` of a selection into `[from, to)` slabs that never cut through a
 * chunk of the array (so each chunk is decoded or encoded once), each about `budget` bytes.
 */
export function planSlabs(
  dim: Extract<ResolvedDim, { kind: "range" }>,
  chunk: number,
  bytesPerStep: number,
  budget = SLAB_BYTES,
): [number, number][] {
  const runs: [number, number][] = [];
  let from = 0;
  let current = -1;
  for (let k = 0; k < dim.length; k++) {
    const id = Math.floor((dim.start + k * dim.step) / chunk);
    if (k > 0 && id !== current) {
      runs.push([from, k]);
      from = k;
    }
    current = id;
  }
  if (dim.length > 0) runs.push([from, dim.length]);
  const slabs: [number, number][] = [];
  for (const run of runs) {
    const last = slabs[slabs.length - 1];
    if (last !== undefined && (run[1] - last[0]) * bytesPerStep <= budget) last[1] = run[1];
    else slabs.push([run[0], run[1]]);
  }
  return slabs;
}
