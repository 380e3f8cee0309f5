/*
 * Reading a small part of a chunk without reading and decoding all of it (zarr-python's
 * `partial_decompress`). A selection touches, in each chunk, a box of elements; in the chunk's C or
 * F order that box lies within one span of bytes, from its first corner to its last. When the span
 * is small next to the chunk, the array has no filters, its compressor can decode byte ranges
 * (`Codec.decodeRange`: blosc) or there is none, and the store has `getRange`, only the span is
 * decoded (for blosc: only its blocks are read and decompressed), and the selection is copied out
 * of it. Anything else goes the ordinary way, a whole chunk at a time, and so do arrays behind an
 * `LRUStoreCache`, which caches whole chunks (see store-ranges.ts).
 *
 * A chain of one codec that decodes boxes itself (`Codec.decodeRegion`: v3's `sharding_indexed`)
 * is given the box instead, under the same share: a shard's index and the inner chunks the box
 * touches are all that is read (see @z/codecs' shard-codec.ts), and a missing shard costs the one
 * read of its index.
 */
import {
  copyProjection,
  touchedBox,
  type ProjectionBox,
  type AnyChunkProjection,
  type DimSelection,
  type OrthogonalDimSelection,
  type StridedView,
} from "@z/indexing/basic";
import type { StoredPartReader, StoredRangeReader } from "@z/codecs/registry";
import type { DataType, Store, TypedArray } from "@z/meta";
import type { ChunkCodec } from "./chunk-codec.js";
import { bytesToTyped } from "./chunk-data.js";
import { ChunkError } from "./errors.js";
import { cStrides } from "./nd-array.js";
import { giveArena, takeArena } from "./read-arena.js";
import { servesRanges, syncRangeReader } from "@z/meta";

/** Spans longer than this share of a chunk are read whole: a partial read saves too little. */
const MAX_SHARE = 0.5;

/** What a partial read needs to know of its array. */
export interface PartialReadTarget {
  readonly store: Store;
  readonly codec: ChunkCodec;
  readonly chunks: readonly number[];
  /** The chunk's strides in elements (C or F order). */
  readonly strides: readonly number[];
  readonly dtype: DataType;
  chunkKey(coords: readonly number[]): string;
}

/**
 * Copies what `p` selects from its chunk into `out` by decoding only the part of the chunk it
 * touches, and returns true; returns false, having read nothing or found no stored chunk, when
 * the chunk is to be read the ordinary way (which also handles a missing chunk); `"missing"` when
 * a codec reading boxes found the chunk is not stored (nothing placed: the caller fills it, as it
 * would a chunk found missing). The copy gives exactly what copying from the whole decoded chunk
 * gives.
 */
export async function readPart(
  target: PartialReadTarget,
  p: AnyChunkProjection,
  out: StridedView<TypedArray>,
  valuesPerElement: number,
  signal?: AbortSignal,
): Promise<boolean | "missing"> {
  const { store, codec } = target;
  if (!servesRanges(store)) return false;
  if (codec.decodesRegions) return readRegion(target, p, out, valuesPerElement, signal);
  if (!codec.decodesRanges) return false;
  const box = touchedBox(p);
  const span = box && spanOf(target, box);
  if (box === undefined || span === undefined) return false;
  const key = target.chunkKey(p.chunkCoords);
  const sync = syncRangeReader(store);
  // Read on this thread, the parts of the stored chunk go one after another into a reused buffer
  // (new arrays for every window would each be fresh memory, page-faulted in).
  const arena = sync === undefined ? undefined : takeArena();
  const read =
    sync === undefined
      ? (offset: number, length: number) => store.getRange!(key, { offset, length }, { signal })
      : async (offset: number, length: number) => {
          signal?.throwIfAborted();
          return arena!.read(length, (room) => sync(key, { offset, length }, room));
        };
  try {
    return await decodeAndPlace(target, p, out, valuesPerElement, read, box, span, key, signal);
  } finally {
    if (arena !== undefined) giveArena(arena);
  }
}

async function decodeAndPlace(
  target: PartialReadTarget,
  p: AnyChunkProjection,
  out: StridedView<TypedArray>,
  valuesPerElement: number,
  read: StoredRangeReader,
  box: ProjectionBox,
  [start, end]: [number, number],
  key: string,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const { codec, strides, dtype } = target;
  const itemsize = dtype.itemsize;
  const decoded = await codec.decodeRange(read, start, end, key, signal);
  if (decoded === undefined) return false;
  if (decoded.decodedSize !== codec.chunkBytes) {
    throw new ChunkError(
      `chunk ${key} decoded to ${decoded.decodedSize} bytes, expected ${codec.chunkBytes} ` +
        `(${codec.chunkBytes / itemsize} elements of ${itemsize} bytes)`,
      { key },
    );
  }
  // The span as a view of the box: the box's first corner is the span's first element.
  const view: StridedView<TypedArray> = {
    data: bytesToTyped(decoded.bytes, dtype),
    offset: 0,
    shape: box.lo.map((lo, d) => box.hi[d]! - lo + 1),
    strides,
  };
  copyProjection(out, view, shifted(p, box.lo), "read", valuesPerElement);
  return true;
}

/** `readPart` through `ChunkCodec.decodeRegion`: the box `p` touches, read by the codec. */
async function readRegion(
  target: PartialReadTarget,
  p: AnyChunkProjection,
  out: StridedView<TypedArray>,
  valuesPerElement: number,
  signal: AbortSignal | undefined,
): Promise<boolean | "missing"> {
  const box = touchedBox(p);
  if (box === undefined || !smallBox(target, box)) return false;
  const { store, codec, dtype } = target;
  const key = target.chunkKey(p.chunkCoords);
  const sync = syncRangeReader(store);
  // Each read in memory of its own: the codec may keep what it reads (a shard's index).
  const read: StoredPartReader =
    sync === undefined
      ? (part) => store.getRange!(key, part, { signal })
      : async (part) => {
          signal?.throwIfAborted();
          return sync(key, part);
        };
  const region = box.lo.map((lo, d) => ({ start: lo, stop: box.hi[d]! + 1 }));
  // A store read synchronously (a local file, memory) reads parts cheaply: the codec may read less.
  const bytes = await codec.decodeRegion(read, region, key, signal, !!sync);
  if (bytes === undefined) return "missing";
  const shape = region.map((r) => r.stop - r.start);
  const view: StridedView<TypedArray> = {
    data: bytesToTyped(bytes, dtype),
    offset: 0,
    shape,
    strides: cStrides(shape),
  };
  copyProjection(out, view, shifted(p, box.lo), "read", valuesPerElement);
  return true;
}

/** Whether `box` is small enough next to the chunk to be read by `decodeRegion` rather than whole. */
function smallBox(target: PartialReadTarget, box: ProjectionBox): boolean {
  let elements = 1;
  let chunk = 1;
  box.lo.forEach((lo, d) => {
    elements *= box.hi[d]! - lo + 1;
    chunk *= target.chunks[d]!;
  });
  return elements <= chunk * MAX_SHARE;
}

/** The decoded bytes `[start, end)` holding `box`, or undefined when they are too much of the chunk for a partial read. */
function spanOf(target: PartialReadTarget, box: ProjectionBox): [number, number] | undefined {
  let first = 0;
  let last = 0;
  box.lo.forEach((lo, d) => {
    first += lo * target.strides[d]!;
    last += box.hi[d]! * target.strides[d]!;
  });
  const start = first * target.dtype.itemsize;
  const end = (last + 1) * target.dtype.itemsize;
  return end - start > target.codec.chunkBytes * MAX_SHARE ? undefined : [start, end];
}

/** Reads of more chunks than this are not checked by `readsParts` (they go the ordinary way). */
const MAX_PARTS_CHECKED = 64;

/**
 * Whether every chunk of a selection would be read in part (`readPart`): such a read costs little
 * and stays on the calling thread instead of decoding whole chunks in a pool.
 */
export function readsParts(
  target: PartialReadTarget,
  projections: Iterable<AnyChunkProjection> & { readonly nchunks: number },
): boolean {
  const { codec } = target;
  if (projections.nchunks > MAX_PARTS_CHECKED || !servesRanges(target.store)) return false;
  if (!codec.decodesRegions && !codec.decodesRanges) return false;
  for (const p of projections) {
    const box = touchedBox(p);
    if (box === undefined) return false;
    if (codec.decodesRegions ? !smallBox(target, box) : spanOf(target, box) === undefined) return false;
  }
  return true;
}

/** `p` with its chunk indices counted from the box's first corner `lo`. */
function shifted(p: AnyChunkProjection, lo: readonly number[]): AnyChunkProjection {
  const shiftList = (list: Int32Array, d: number) => list.map((v) => v - lo[d]!);
  if (p.kind === "points") return { ...p, chunkSelection: p.chunkSelection.map(shiftList) };
  const chunkSelection = (p.chunkSelection as readonly OrthogonalDimSelection[]).map((sel, d) => {
    if (typeof sel === "number") return sel - lo[d]!;
    if (sel instanceof Int32Array) return shiftList(sel, d);
    return { start: sel.start - lo[d]!, stop: sel.stop - lo[d]!, step: sel.step };
  });
  return p.kind === "orthogonal"
    ? { ...p, chunkSelection }
    : { ...p, chunkSelection: chunkSelection as DimSelection[] };
}
