/*
 * Reading chunks stored raw (no filters, no compressor) straight into a result: a store that can
 * read a value into parts (a directory store's `getIntoParts`, `readv` on Node's thread pool) puts
 * each chunk's rows where they go, and nothing is copied or decoded here. Loaded only by reads of
 * such arrays from such stores, so browsers never load it.
 */
import { selectionView, type AnyChunkProjection, type DimSelection, type StridedView } from "@z/indexing/basic";
import type { TypedArray } from "@z/meta";
import { elements, heldAsStored, type ChunkJobs } from "./chunk-jobs.js";

/**
 * The stretches of `out` that a chunk stored raw fills, in the order of its stored bytes, when `p`
 * takes all of it: the stored chunk can then be read straight into them. `undefined` for any other
 * chunk or array (filters or a compressor, F order, values held other than as stored).
 */
export function rawTargets(
  jobs: ChunkJobs,
  out: StridedView<TypedArray>,
  p: AnyChunkProjection,
): Uint8Array[] | undefined {
  const { meta } = jobs;
  if (!jobs.codec.storesRaw || meta.order !== "C" || !heldAsStored(meta) || !jobs.takesWholeChunk(p)) return undefined;
  const whole = elements(meta.chunks);
  const target = selectionView(out, p.outSelection as readonly DimSelection[]);
  // Dimensions of 1 aside, the chunk's C order is the target's: rows of its last dimension.
  const shape: number[] = [];
  const strides: number[] = [];
  target.shape.forEach((n, d) => {
    if (n !== 1) {
      shape.push(n);
      strides.push(target.strides[d]!);
    }
  });
  if (elements(shape) !== whole) return undefined;
  const width = shape.length === 0 ? 1 : shape[shape.length - 1]!;
  if (shape.length > 0 && strides[strides.length - 1] !== 1) return undefined;
  const data = out.data;
  const bytes = data.BYTES_PER_ELEMENT * jobs.k;
  if (bytes !== jobs.meta.dtype.itemsize) return undefined; // held other than as stored
  const runs: Uint8Array[] = [];
  let runStart = -1;
  let runEnd = -1;
  const index = new Array<number>(Math.max(0, shape.length - 1)).fill(0);
  for (let row = 0, rows = whole / width; row < rows; row++) {
    let at = target.offset;
    for (let d = 0; d < index.length; d++) at += index[d]! * strides[d]!;
    // Rows that follow each other in `out` (a chunk as wide as the output) make one stretch.
    if (at === runEnd) runEnd += width;
    else {
      if (runStart >= 0)
        runs.push(new Uint8Array(data.buffer, data.byteOffset + runStart * bytes, (runEnd - runStart) * bytes));
      runStart = at;
      runEnd = at + width;
    }
    for (let d = index.length - 1; d >= 0 && ++index[d]! === shape[d]; d--) index[d] = 0;
  }
  runs.push(new Uint8Array(data.buffer, data.byteOffset + runStart * bytes, (runEnd - runStart) * bytes));
  return runs;
}
