/*
 * Reading chunks on the calling thread, the way a read takes when it does not go to the pool
 * (pooled.ts) and its array holds no objects (object-chunks.ts): per chunk, the part of it the
 * selection needs (partial-read.ts) when that is small, the stored bytes straight into the result
 * when chunks are stored raw and large (raw-reads.ts), else the whole chunk, read (synchronously
 * where the store can, `SyncReadableStore`), decoded and placed.
 */
import type { AnyChunkProjection, Indexer, StridedView } from "@z/indexing/basic";
import { valuesPerElement, type Store, type TypedArray } from "@z/meta";
import type { ChunkJobs } from "./chunk-jobs.js";
import { forEachConcurrent, type RunOptions } from "./concurrency.js";
import { readPart, type PartialReadTarget } from "./partial-read.js";
import { syncValueReader } from "@z/meta";

/** What a read on the calling thread needs of its array. */
export interface ReadHere {
  readonly store: Store;
  readonly jobs: ChunkJobs;
  readonly part: PartialReadTarget;
  chunkKey(coords: readonly number[]): string;
  /** `fillMissingChunks: false`: a missing chunk is this error. */
  readonly missing: ((p: AnyChunkProjection) => Error) | undefined;
  /** Whether to collect the chunks found missing (while it is unknown whether chunks are nested). */
  readonly collectAbsent: boolean;
  /** Reads a raw chunk's stored bytes straight into parts of the result (raw-reads.ts), when that pays. */
  readonly intoParts:
    | {
        readonly read: (
          key: string,
          parts: readonly Uint8Array[],
          signal?: AbortSignal,
        ) => Promise<boolean | undefined>;
        readonly targets: typeof import("./raw-reads.js").rawTargets;
      }
    | undefined;
}

/** What the read found: the chunks found missing (when collected), and whether any was stored. */
export interface ReadReport {
  readonly absent: AnyChunkProjection[] | undefined;
  readonly found: boolean;
}

/** Reads every chunk `indexer` touches into `out` (`zeroed`: it holds zeros), on this thread. */
export async function readHere(
  array: ReadHere,
  indexer: Indexer,
  out: StridedView<TypedArray>,
  zeroed: boolean,
  options: RunOptions,
): Promise<ReadReport> {
  const { store, jobs, missing, intoParts } = array;
  const { signal } = options;
  const k = valuesPerElement(jobs.meta.dtype);
  const readSync = syncValueReader(store);
  const absent: AnyChunkProjection[] | undefined = array.collectAbsent ? [] : undefined;
  let found = false;
  await forEachConcurrent(
    indexer,
    async (p: AnyChunkProjection) => {
      const part = await readPart(array.part, p, out, k, signal);
      if (part === true) return void (found = true); // only the part p needs
      const key = array.chunkKey(p.chunkCoords);
      if (part === "missing") {
        // Read by ranges and found missing (a shard's index): filled as any missing chunk.
        if (missing !== undefined) throw missing(p);
        absent?.push(p);
        return jobs.place(out, zeroed, undefined, key, p, signal);
      }
      signal?.throwIfAborted();
      const parts = intoParts?.targets(jobs, out, p);
      let placedZeroed = zeroed;
      if (parts !== undefined) {
        const filled = await intoParts!.read(key, parts, signal);
        if (filled === true) return void (found = true);
        if (filled === undefined) {
          if (missing !== undefined) throw missing(p);
          absent?.push(p);
          return jobs.place(out, zeroed, undefined, key, p, signal);
        }
        // A stored chunk of another length: read the usual way, which says what is wrong with it.
        placedZeroed = false;
      }
      const stored = readSync !== undefined ? readSync(key) : await store.get(key, { signal });
      if (stored === undefined) {
        if (missing !== undefined) throw missing(p);
        absent?.push(p);
      } else found = true;
      await jobs.place(out, placedZeroed, stored, key, p, signal);
    },
    options,
    indexer.nchunks,
  );
  return { absent, found };
}
