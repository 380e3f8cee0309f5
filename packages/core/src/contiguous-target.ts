import type { AnyChunkProjection, DimRange, StridedView } from "@z/indexing";

const isRange = (s: unknown): s is DimRange => typeof s === "object" && s !== null && "start" in s && "stop" in s && "step" in s;

/**
 * Where a whole chunk lands in `out` when its elements form one contiguous run there, laid out as
 * the chunk is (`chunkStrides`, in elements): the index in `out.data` of the run's start, else
 * `undefined`. So it is for every chunk of a full read of an array chunked along its first axis
 * only, or of a selection of one whole chunk.
 */
export function contiguousTarget(out: StridedView, p: AnyChunkProjection, chunks: readonly number[], chunkStrides: readonly number[]): number | undefined {
  if (p.kind === "points") return undefined;
  const chunkSelection: readonly unknown[] = p.chunkSelection;
  const outSelection: readonly unknown[] = p.outSelection;
  // An integer index drops a dimension from the output: never a whole chunk unless it is 1 long, not worth a special case.
  if (chunkSelection.length !== chunks.length || outSelection.length !== chunks.length) return undefined;
  let at = out.offset;
  for (let d = 0; d < chunks.length; d++) {
    const c = chunkSelection[d];
    const o = outSelection[d];
    // Orthogonal selections may hold index lists: only ranges qualify.
    if (!isRange(c) || !isRange(o) || c.start !== 0 || c.step !== 1 || c.stop !== chunks[d] || o.step !== 1) return undefined;
    if (chunks[d]! > 1 && out.strides[d] !== chunkStrides[d]) return undefined;
    at += o.start * out.strides[d]!;
  }
  return at;
}
