import type { AnyChunkProjection } from "@z/indexing/basic";
import type { Store, ThreadStoreSpec } from "@z/meta";

/**
 * A pool of threads that decode and encode chunks off the caller's thread. It is only a transport:
 * what a batch means is decided by `chunk-jobs.ts`, which runs the same code on either side.
 * `@z/core` in Node uses one backed by `worker_threads` (see `@z/core/node`); elsewhere arrays work
 * on the calling thread unless given a pool.
 */
export interface ChunkPool {
  /** Threads in the pool: batches in flight are bounded by a small multiple of it. */
  readonly size: number;
  /**
   * Reads and writes of fewer decoded bytes than this stay on the calling thread, where they are
   * cheaper than a round trip to a thread (default 4 MiB).
   */
  readonly minBytes?: number;
  /**
   * Threads loaded and ready for work. While none is (the pool is starting), callers do the work
   * themselves rather than wait: starting a thread takes longer than many reads.
   */
  readonly ready?: number;
  /**
   * Starts the threads now. Reads and writes call it once their pace shows enough work left to
   * repay starting threads; until a pool has one ready, they work on the calling thread.
   */
  warm?(): void;
  /** Runs one batch on some thread; `transfer` lists buffers handed over rather than copied. */
  run(batch: PoolBatch, transfer?: readonly ArrayBuffer[]): Promise<PoolReply>;
  /**
   * Plain data from which the pool's threads open `store` themselves, when they can (a plain
   * directory store): they then read and write chunks without this thread touching the bytes.
   */
  storeSpec?(store: Store): StoreSpec | undefined;
  /** Stops the threads. Batches already queued fail. */
  close(): Promise<void>;
}

/**
 * Where a pool thread can read and write chunks by itself, so the calling thread sends keys rather
 * than bytes: what a store's `threadStore()` gives (`@z/meta`'s contract; a plain `DirectoryStore`
 * of `@z/store-fs` has one). Only stores that can be opened again from plain data offer one.
 */
export type StoreSpec = ThreadStoreSpec;

export interface ReadItem {
  readonly key: string;
  /**
   * The stored chunk when the calling thread read it (`null`: it is missing); absent when the
   * pool's thread reads it itself.
   */
  readonly bytes?: Uint8Array | null;
  readonly projection: AnyChunkProjection;
}

export interface EncodeItem {
  readonly key: string;
  /** One whole chunk in memory order (little-endian), handed over to the thread. */
  readonly data: Uint8Array;
}

export type PoolBatch =
  | {
      readonly op: "read";
      /** The array's `.zarray` text: everything decoding needs. */
      readonly meta: string;
      readonly store?: StoreSpec;
      readonly items: readonly ReadItem[];
      /**
       * Buffers of decoded chunks the caller has placed and hands back, transferred, for the
       * thread to decode into again (optional: a thread allocates what it lacks).
       */
      readonly spare?: readonly ArrayBuffer[];
      /** Set to 1 by the caller to stop the batch between chunks. */
      readonly abort: Int32Array;
    }
  | {
      readonly op: "encode";
      readonly meta: string;
      /** When given, the thread stores (or deletes) each chunk itself. */
      readonly store?: StoreSpec;
      /** Chunks equal to the fill value everywhere are deleted rather than stored. */
      readonly skipEmpty: boolean;
      readonly items: readonly EncodeItem[];
      readonly abort: Int32Array;
    };

/** What a thread returns for each item of an encode batch. */
export type EncodedItem =
  | { readonly key: string; readonly kind: "encoded"; readonly bytes: Uint8Array }
  | { readonly key: string; readonly kind: "stored" | "empty" };

export type PoolReply =
  | {
      readonly ok: true;
      /**
       * A read batch's chunks, each item's whole chunk decoded (as `ChunkJobs.decode` gives it;
       * `null`: the chunk is missing), in buffers transferred to the caller, which copies its part
       * into the output. Outputs are never shared with threads: an output the caller drops is then
       * freed like any other memory (V8 does not count a `SharedArrayBuffer` towards the memory
       * that makes it collect garbage, so dropped shared outputs stayed in memory: issue 16).
       */
      readonly decoded?: readonly (Uint8Array | null)[];
      readonly encoded?: readonly EncodedItem[];
      /** The buffers of an encode batch's items, transferred back for reuse (optional: a pool may keep them). */
      readonly returned?: readonly ArrayBuffer[];
    }
  | { readonly ok: false; readonly error: SerializedError };

/** An error crossing threads: enough to rebuild the typed error on the other side. */
export interface SerializedError {
  readonly name: string;
  readonly code?: string;
  readonly message: string;
  readonly key?: string;
  readonly codecId?: string;
  readonly field?: string;
}

/** Makes the default pool, when the platform has one (set by `@z/core`'s Node entry). */
export type ChunkPoolFactory = () => ChunkPool;

let defaultFactory: ChunkPoolFactory | undefined;
let defaultPool: ChunkPool | undefined;

/**
 * Sets how the default pool is made (`undefined`: no default pool). `@z/core` in Node sets one that
 * starts `os.availableParallelism()` worker threads on first use.
 */
export function setDefaultChunkPool(factory: ChunkPoolFactory | undefined): void {
  defaultFactory = factory;
  defaultPool = undefined;
}

/** The pool arrays use when not told otherwise, started on first call; `undefined` when there is none. */
export function defaultChunkPool(): ChunkPool | undefined {
  if (defaultPool === undefined && defaultFactory !== undefined) defaultPool = defaultFactory();
  return defaultPool;
}
