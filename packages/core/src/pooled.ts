import { CodecError } from "@z/codecs/registry";
import type { AnyChunkProjection, StridedView } from "@z/indexing/basic";
import { MetadataError, StoreError, ZarrError, type Store, type TypedArray, type WritableStore } from "@z/meta";
import { runBatch, withSyncReads } from "./chunk-batches.js";
import type { ChunkJobs } from "./chunk-jobs.js";
import type {
  ChunkPool,
  EncodedItem,
  PoolBatch,
  PoolReply,
  ReadItem,
  SerializedError,
  StoreSpec,
} from "./chunk-pool.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent, type RunOptions } from "./concurrency.js";
import { writeBuffers } from "./scratch-buffers.js";
import { ChunkError } from "./errors.js";

/** Decoded bytes per read batch: small chunks travel together, so a message carries real work. */
const BATCH_BYTES = 1 << 20;

/** Batches each pool thread holds at once: one running, one waiting so it never idles. */
const PER_THREAD = 2;

/**
 * How long, by this thread's pace so far, an operation must still have to go before it starts the
 * pool's threads. A thread takes ~110 ms to load on an idle core and ~180 ms while this thread is
 * busy, and while it loads it takes the core this thread's compiler and collector use. On two
 * cores, R7 (4,096 chunks of 8 KiB, ~0.3 s on one thread, whose second batch's pace says ~370 ms
 * to go) took 0.36-0.45 s when that started a thread and 0.24-0.36 s when it did not; reads and
 * writes of 64 MiB of 4 MiB chunks (~0.35 s) also ended sooner without one. Larger operations start
 * threads as they begin (see `ZarrArray`'s START_THREADS_BYTES).
 */
const START_THREADS_MS = 450;

export interface PooledRead {
  readonly pool: ChunkPool;
  /** The array's `.zarray` text. */
  readonly meta: string;
  readonly store: Store;
  /** Set when the pool's threads can read the store themselves. */
  readonly spec: StoreSpec | undefined;
  readonly keyOf: (coords: readonly number[]) => string;
  /** Report the chunks found missing (see `ZarrArray.dimensionSeparatorFound`). */
  readonly reportAbsent?: boolean;
  readonly projections: Iterable<AnyChunkProjection>;
  readonly nchunks: number;
  readonly chunkBytes: number;
  /** Where the selection goes: this thread copies each chunk's part in, whichever thread decoded it. */
  readonly out: StridedView<TypedArray>;
  /** Whether `out` is freshly zeroed. */
  readonly zeroed: boolean;
  /** This thread's own jobs for the array: batches run here while the pool is still starting. */
  readonly jobs: ChunkJobs;
}

/** What a pooled read found, when asked (`reportAbsent`): the chunks it placed as the fill value, and whether any other was stored. */
export interface PooledReadReport {
  readonly absent: AnyChunkProjection[];
  found: boolean;
}

/**
 * Reads a selection through a pool: threads decode whole chunks and hand them over (transferred,
 * not copied), and this thread copies each one's part into the output, then hands the buffers back
 * for the next chunks. At most two batches per thread are in flight, so memory stays a few chunks
 * whatever the selection's size. Chunk bytes are read here only when the threads cannot read the
 * store. The output is the caller's alone, never shared with a thread: once dropped it is freed as
 * any memory is (a `SharedArrayBuffer` output was not, as V8 does not count one towards the memory
 * that makes it collect garbage: issue 16).
 */
export async function readPooled(job: PooledRead, options: RunOptions): Promise<PooledReadReport> {
  const { pool, signal, progress } = { pool: job.pool, ...options };
  const abort = new Int32Array(new SharedArrayBuffer(4));
  const perBatch = Math.max(
    1,
    Math.min(Math.floor(BATCH_BYTES / Math.max(1, job.chunkBytes)), Math.ceil(job.nchunks / (2 * pool.size))),
  );
  // Batches shrink towards the end (to a share of what is left for every thread, this one
  // included), so the last ones finish together rather than one thread finishing a full batch
  // while the others wait.
  let batched = 0;
  const batchSize = (): number =>
    Math.max(1, Math.min(perBatch, Math.ceil((job.nchunks - batched) / (2 * (pool.size + 1)))));
  const startIfWorth = threadStarter(pool);
  const lanes = new Lanes(abort);
  const here = withSyncReads(job.store as WritableStore);
  let done = 0;
  /** Buffers of chunks threads decoded, placed and ready to go back to a thread. */
  const spare: ArrayBuffer[] = [];
  const target = { out: job.out, zeroed: job.zeroed };
  const report: PooledReadReport = { absent: [], found: false };
  const note = (items: readonly ReadItem[], missing: readonly number[] = []): void => {
    if (!job.reportAbsent) return;
    for (const i of missing) report.absent.push(items[i]!.projection);
    if (missing.length < items.length) report.found = true;
  };
  const send = async (items: ReadItem[]): Promise<void> => {
    if (lanes.failed) lanes.throw();
    const batch: PoolBatch = { op: "read", meta: job.meta, store: job.spec, items, abort };
    const counted = (): void => {
      done += items.length;
      progress?.(done, job.nchunks);
    };
    const sent = offer(pool, () => {
      const back = spare.splice(0, items.length);
      // Bytes read here that nothing else keeps go to the thread without a copy.
      const transfer = job.store.freshValues === true ? ownedBuffers(items) : [];
      return [back.length > 0 ? { ...batch, spare: back } : batch, [...transfer, ...back]];
    });
    if (sent !== undefined) {
      lanes.add(
        sent.then((reply) => {
          check(reply);
          const decoded = reply.decoded;
          // A pool that answers a read without its chunks would leave the output unfilled.
          if (decoded?.length !== items.length) {
            throw new ZarrError(
              "ZARR_POOL",
              `the pool answered a read batch of ${items.length} chunks with ${decoded?.length ?? "no"} decoded chunks`,
            );
          }
          const missing: number[] = [];
          items.forEach((item, i) => {
            const chunk = decoded[i];
            job.jobs.placeDecoded(job.out, job.zeroed, chunk ?? undefined, item.projection);
            if (chunk) spare.push(chunk.buffer as ArrayBuffer);
            else missing.push(i);
          });
          note(items, missing);
          counted();
        }),
      );
      return;
    }
    // Every thread is busy, or none has started yet: this thread takes the batch, then lets the
    // threads' replies in (a batch read synchronously never yields to them by itself).
    const began = now();
    const result = await runBatch(
      batch,
      async () => job.jobs,
      () => here,
      target,
    );
    if ("missing" in result) note(items, result.missing);
    startIfWorth(items.length, now() - began, job.nchunks - batched);
    counted();
    await yieldToEvents();
  };
  const onAbort = (): void => {
    Atomics.store(abort, 0, 1);
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    signal?.throwIfAborted();
    let items: ReadItem[] = [];
    if (job.spec !== undefined) {
      for (const projection of job.projections) {
        if (lanes.failed || signal?.aborted) break;
        items.push({ key: job.keyOf(projection.chunkCoords), projection });
        if (items.length >= batchSize()) {
          batched += items.length;
          await send(items);
          items = [];
        }
      }
    } else {
      // The threads cannot read this store: read here, several at a time, and hand the bytes over.
      await forEachConcurrent(
        job.projections,
        async (projection) => {
          const key = job.keyOf(projection.chunkCoords);
          const bytes = await job.store.get(key, { signal });
          if (lanes.failed) return;
          items.push({ key, bytes: bytes ?? null, projection });
          if (items.length >= batchSize()) {
            const full = items;
            items = [];
            batched += full.length;
            await send(full);
          }
        },
        { signal, concurrency: options.concurrency ?? DEFAULT_CONCURRENCY },
      );
    }
    if (items.length > 0 && !lanes.failed) await send(items);
    await lanes.drain();
    signal?.throwIfAborted();
    return report;
  } catch (error) {
    Atomics.store(abort, 0, 1);
    await lanes.settle();
    signal?.throwIfAborted();
    throw error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * What an operation calls with the pace of the work it did on this thread (`items` chunks in `ms`,
 * `remaining` chunks still to go): it starts the pool's threads once that pace says the rest is
 * worth them (START_THREADS_MS). Threads already started (by an earlier call, or by a large
 * operation as it began: see `ZarrArray`'s START_THREADS_BYTES) are used at once.
 */
export function threadStarter(pool: ChunkPool): (items: number, ms: number, remaining: number) => void {
  let starting = (pool.ready ?? pool.size) > 0 || pool.warm === undefined;
  // The first work done carries one-off costs (codecs loading, WebAssembly compiling): the pace
  // is that of everything after it.
  let first = true;
  let paceItems = 0;
  let paceMs = 0;
  return (items, ms, remaining) => {
    if (starting || items === 0) return;
    if (first) {
      first = false;
      return;
    }
    paceItems += items;
    paceMs += ms;
    if ((paceMs / paceItems) * remaining < START_THREADS_MS) return;
    starting = true;
    pool.warm!();
  };
}

/** Milliseconds, for pacing. */
export const now = (): number => performance.now();

/**
 * Encodes one whole chunk in a pool thread, which also stores it when it can reach the store;
 * `undefined` when every thread is busy, for the caller to encode it itself.
 */
export async function encodePooled(
  pool: ChunkPool,
  meta: string,
  spec: StoreSpec | undefined,
  key: string,
  data: Uint8Array,
  skipEmpty: boolean,
  owned: boolean,
): Promise<EncodedItem | undefined> {
  // Bytes this thread owns are handed over; others are copied, but only once a thread takes them.
  const sent = offer(pool, () => {
    const items = [{ key, data: owned ? data : data.slice() }];
    const abort = new Int32Array(new SharedArrayBuffer(4));
    return [{ op: "encode", meta, store: spec, skipEmpty, items, abort }, owned ? [data.buffer as ArrayBuffer] : []];
  });
  if (sent === undefined) return undefined;
  const reply = await sent;
  check(reply);
  for (const buffer of reply.returned ?? []) writeBuffers.give(new Uint8Array(buffer));
  return reply.encoded![0]!;
}

/** Batches this thread has in flight in each pool. */
const inFlight = new WeakMap<ChunkPool, number>();

/**
 * Sends the batch `make` builds to the pool if a thread is ready and has room; `undefined`
 * otherwise (nothing built), when the calling thread does better to do the work itself than to
 * queue it.
 */
function offer(
  pool: ChunkPool,
  make: () => readonly [PoolBatch, readonly ArrayBuffer[]],
): Promise<PoolReply> | undefined {
  const busy = inFlight.get(pool) ?? 0;
  if ((pool.ready ?? pool.size) === 0 || busy >= PER_THREAD * pool.size) return undefined;
  const [batch, transfer] = make();
  inFlight.set(pool, busy + 1);
  return pool.run(batch, transfer).finally(() => inFlight.set(pool, (inFlight.get(pool) ?? 1) - 1));
}

function check(reply: PoolReply): asserts reply is PoolReply & { ok: true } {
  if (!reply.ok) throw rebuildError(reply.error);
}

/** The typed error a pool thread threw, rebuilt on this side (same class, code, key, message). */
export function rebuildError(e: SerializedError): Error {
  switch (e.name) {
    case "CodecError":
      return new CodecError(e.message, { codecId: e.codecId ?? "", key: e.key });
    case "ChunkError":
      return new ChunkError(e.message, { key: e.key ?? "" });
    case "StoreError":
      return new StoreError(e.message, { key: e.key });
    case "MetadataError":
      return new MetadataError(e.message, { key: e.key, field: e.field });
  }
  if (e.code !== undefined) {
    const error = new ZarrError(e.code, e.message, { key: e.key });
    error.name = e.name;
    return error;
  }
  const error = new Error(e.message);
  error.name = e.name;
  return error;
}

/** The plain buffers that items' bytes fill whole, once each. */
function ownedBuffers(items: readonly ReadItem[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const { bytes } of items) {
    if (
      bytes &&
      bytes.buffer instanceof ArrayBuffer &&
      bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength
    )
      buffers.add(bytes.buffer);
  }
  return [...buffers];
}

/** Resolves after pending events (pool replies) have run. */
function yieldToEvents(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (f: () => void) => void }).setImmediate;
  return new Promise((resolve) => (immediate === undefined ? setTimeout(resolve, 0) : immediate(resolve)));
}

/**
 * Batches in flight in the pool. The first failure stops the rest (through the shared abort flag)
 * and is what `drain` throws.
 */
class Lanes {
  readonly #running = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;

  constructor(private readonly abort: Int32Array) {}

  get failed(): boolean {
    return this.#failure !== undefined;
  }

  get size(): number {
    return this.#running.size;
  }

  throw(): never {
    throw this.#failure!.error;
  }

  add(task: Promise<void>): void {
    const tracked = task.then(
      () => void this.#running.delete(tracked),
      (error: unknown) => {
        this.#running.delete(tracked);
        this.#failure ??= { error };
        Atomics.store(this.abort, 0, 1);
      },
    );
    this.#running.add(tracked);
  }

  async drain(): Promise<void> {
    await this.settle();
    if (this.#failure) throw this.#failure.error;
  }

  async settle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }
}
