/*
 * A write to part of a chunk whose codecs encode it again keeping the rest as stored
 * (`Codec.encodeRegion`: v3's `sharding_indexed` alone, where the chunk is a shard). Instead of
 * decoding the whole shard, writing the selection into it and encoding every inner chunk again,
 * only the inner chunks the selection touches are decoded (those it does not cover whole) and
 * encoded; the others' stored bytes are copied into the new shard. Runs on the calling thread:
 * the work is that of the touched inner chunks only.
 */
import {
  copyProjection,
  fillProjection,
  touchedBox,
  type AnyChunkProjection,
  type ChunkProjection,
  type ProjectionBox,
} from "@z/indexing";
import { heldAsStored } from "./chunk-jobs.js";
import { typedArrayConstructor, type WritableStore } from "@z/meta";
import type { ArrayInternals } from "./array-internals.js";
import type { RegionBounds } from "@z/codecs/registry";
import { writeBuffers } from "./scratch-buffers.js";
import type { WriteSource } from "./values.js";

/**
 * The box of the chunk `p` writes when `updateRegion` is to write it (its codecs encode regions,
 * and its dtype is held in memory as stored, so `data` is both); `undefined` to build and encode
 * the whole chunk instead.
 */
export function regionToWrite(self: ArrayInternals, p: AnyChunkProjection): ProjectionBox | undefined {
  return self.jobs.codec.encodesRegions && heldAsStored(self.meta) ? touchedBox(p) : undefined;
}

/**
 * Writes `source`'s part `p` into the stored chunk at `key` by `Codec.encodeRegion`, and stores
 * the result (or deletes the chunk when nothing of it is left to store). `box` is `regionToWrite`'s.
 */
export async function updateRegion(
  self: ArrayInternals,
  store: WritableStore,
  key: string,
  p: AnyChunkProjection,
  box: ProjectionBox,
  source: WriteSource,
  signal?: AbortSignal,
): Promise<void> {
  const { array, jobs } = self;
  const region: RegionBounds[] = box.lo.map((start, d) => ({ start, stop: box.hi[d]! + 1 }));
  const previous = await store.get(key, { signal });
  const bytes = writeBuffers.take(jobs.codec.chunkBytes);
  const Ctor = typedArrayConstructor(array.dtype);
  const chunk = jobs.chunkView(
    new Ctor(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength / Ctor.BYTES_PER_ELEMENT),
  );
  const change = (): void => {
    if (source.kind === "scalar") fillProjection(chunk, p, source.element, jobs.k);
    else copyProjection(source.view, chunk, p, "write", jobs.k);
  };
  try {
    const encoded = await jobs.codec.encodeRegion(
      previous,
      bytes,
      region,
      coversBox(p),
      change,
      key,
      signal,
      array.writeEmptyChunks,
    );
    signal?.throwIfAborted();
    if (encoded !== undefined) await store.set(key, encoded, { signal });
    else if (previous !== undefined) await store.delete(key, { signal });
  } finally {
    jobs.codec.forget(key);
    writeBuffers.give(bytes);
  }
}

/** Whether `p` writes every element of its touched box: ranges of step ±1 and single indices. */
function coversBox(p: AnyChunkProjection): boolean {
  if (p.kind === "points" || p.kind === "orthogonal") return false;
  return (p as ChunkProjection).chunkSelection.every((s) => typeof s === "number" || Math.abs(s.step) === 1);
}
