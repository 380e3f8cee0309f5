/*
 * Pool batches: what a pool thread does with each message, and the calling thread with a batch it
 * takes itself (see chunk-pool.ts), loaded with the pool (pooled.ts, node/chunk-worker.ts): a page
 * without a pool never loads it.
 */
import { adviseLargeBuffer, type CodecRegistry } from "@z/codecs/registry";
import type { StridedView } from "@z/indexing/basic";
import {
  parseArrayMetadata,
  typedArrayConstructor,
  ZarrError,
  readsSynchronously,
  type Store,
  type SyncReadableStore,
  type TypedArray,
  type WritableStore,
} from "@z/meta";
import { formatV2 } from "./array-format.js";
import { ChunkCodec, isPromise } from "./chunk-codec.js";
import { ChunkJobs, KEEP_SCRATCH } from "./chunk-jobs.js";
import type { EncodedItem, PoolBatch, SerializedError } from "./chunk-pool.js";

/**
 * One buffer per thread that stored chunks are read into (`getSyncInto`), the same way: taken
 * while a chunk is decoded, grown to the largest chunk read (up to `KEEP_INPUT`). It starts with
 * room for a chunk stored uncompressed, and a little more: a store growing it by doubling would
 * write (and page-fault) every size on the way, and the part a chunk does not fill costs nothing.
 */
let input: Uint8Array | undefined;
let inputBusy = false;
/**
 * The largest read buffer kept: more than the scratch buffers, for a v3 shard is one stored
 * chunk of tens of MB (R8: 4 of ~52 MB; 66 MiB holds a 64 MiB one stored raw), and a fresh buffer that size for every shard read cost
 * more in page faults than decoding it (2026-12-02: 0.3-1.1 s of system time per 256 MiB read).
 */
const KEEP_INPUT = 66 << 20;
const NO_INPUT = new Uint8Array(0);

function takeInput(chunkBytes: number): Uint8Array {
  if (inputBusy) return NO_INPUT;
  inputBusy = true;
  const room = Math.min(KEEP_INPUT, chunkBytes + (chunkBytes >> 6) + (1 << 16));
  if (input === undefined || input.length < room) input = adviseLargeBuffer(new Uint8Array(room));
  return input;
}

function releaseInput(buffer: Uint8Array, read: Uint8Array | undefined): void {
  if (buffer === NO_INPUT) return;
  inputBusy = false;
  // A value too large for the buffer came in an array of its own: keep that for the next one.
  if (
    read !== undefined &&
    read.buffer !== buffer.buffer &&
    read.buffer.byteLength > buffer.length &&
    read.buffer.byteLength <= KEEP_INPUT
  ) {
    input = new Uint8Array(read.buffer as ArrayBuffer);
  }
}

/**
 * Buffers a pool thread decodes whole chunks into for the caller, handed back by the caller once
 * their part is copied out (`PoolBatch.spare`), so a long read does not allocate (and page-fault)
 * a new buffer per chunk. A few are kept, up to `KEEP_SCRATCH` bytes together (or four chunks of
 * a larger size), as the scratch buffers are; a buffer serves chunks it fits without wasting half.
 */
const spares = {
  kept: [] as ArrayBuffer[],
  give(buffers: readonly ArrayBuffer[]): void {
    for (const buffer of buffers) {
      const bytes = this.kept.reduce((n, b) => n + b.byteLength, 0);
      if (bytes + buffer.byteLength <= Math.max(KEEP_SCRATCH, buffer.byteLength * 4)) this.kept.push(buffer);
    }
  },
  take(bytes: number): Uint8Array {
    const i = this.kept.findIndex((b) => b.byteLength >= bytes && b.byteLength < 2 * bytes);
    if (i < 0) return adviseLargeBuffer(new Uint8Array(bytes));
    return new Uint8Array(this.kept.splice(i, 1)[0]!, 0, bytes);
  },
};

/** Where the calling thread places a read batch it runs itself (a pool thread returns chunks instead). */
export interface ReadTarget {
  readonly out: StridedView<TypedArray>;
  /** Whether `out` was zeroed (a fill value of zeros needs no writing). */
  readonly zeroed: boolean;
}

/**
 * What a read batch returns: in a pool thread each chunk decoded (`null`: not stored) and the
 * buffers to transfer; on either side the indices of the items whose chunk was not stored (placed
 * as the fill value), which legacy nested arrays are looked for by.
 */
export interface DecodedBatch {
  readonly decoded: (Uint8Array | null)[];
  readonly buffers: ArrayBuffer[];
  readonly missing: number[];
}

/**
 * Runs one pool batch: what a pool thread does with each message, and what the calling thread does
 * with a batch it takes itself. A read batch places its chunks into `target` when given (the
 * calling thread); a pool thread decodes each whole chunk into a buffer of its own, which goes to
 * the caller (`DecodedBatch`).
 */
export async function runBatch(
  batch: PoolBatch,
  jobsFor: (meta: string) => Promise<ChunkJobs>,
  storeFor: (spec: NonNullable<PoolBatch["store"]>) => Store & Partial<WritableStore>,
  target?: ReadTarget,
): Promise<readonly EncodedItem[] | DecodedBatch> {
  const jobs = await jobsFor(batch.meta);
  const store = batch.store === undefined ? undefined : storeFor(batch.store);
  const Ctor = typedArrayConstructor(jobs.meta.dtype);
  if (batch.op === "read") {
    const sync = store !== undefined && readsSynchronously(store) ? store : undefined;
    const chunkBytes = jobs.codec.chunkBytes;
    const result: DecodedBatch = { decoded: [], buffers: [], missing: [] };
    if (batch.spare !== undefined) spares.give(batch.spare);
    for (const [index, item] of batch.items.entries()) {
      checkAbort(batch.abort);
      let stored: Uint8Array | undefined;
      let readBuffer: Uint8Array | undefined;
      // Synchronous end to end when the store reads and the codecs decode synchronously: no
      // promise per chunk. The read buffer is free again once the chunk is placed (or failed).
      try {
        if (item.bytes !== undefined) stored = item.bytes ?? undefined;
        else if (sync?.getSyncInto !== undefined)
          stored = sync.getSyncInto(item.key, (readBuffer = takeInput(chunkBytes)));
        else if (sync?.getSync !== undefined) stored = sync.getSync(item.key);
        else stored = await store!.get(item.key);
        if (stored === undefined) result.missing.push(index);
        if (target !== undefined) {
          const placed = jobs.place(target.out, target.zeroed, stored, item.key, item.projection);
          if (placed !== undefined) await placed;
        } else if (stored === undefined) {
          result.decoded.push(null);
        } else {
          const buffer = spares.take(chunkBytes);
          const done = jobs.codec.decodeInto(stored, buffer, item.key);
          if (isPromise(done)) await done;
          result.decoded.push(buffer);
          result.buffers.push(buffer.buffer as ArrayBuffer);
        }
      } finally {
        if (readBuffer !== undefined) releaseInput(readBuffer, stored);
      }
    }
    return result;
  }
  const results: EncodedItem[] = [];
  for (const item of batch.items) {
    checkAbort(batch.abort);
    const typed = new Ctor(
      item.data.buffer as ArrayBuffer,
      item.data.byteOffset,
      item.data.byteLength / Ctor.BYTES_PER_ELEMENT,
    );
    const encoded = await jobs.encode(typed, item.key, batch.skipEmpty);
    if (store === undefined) {
      results.push(
        encoded === "empty" ? { key: item.key, kind: "empty" } : { key: item.key, kind: "encoded", bytes: encoded },
      );
    } else if (encoded === "empty") {
      await store.delete!(item.key);
      results.push({ key: item.key, kind: "empty" });
    } else {
      await store.set!(item.key, encoded);
      results.push({ key: item.key, kind: "stored" });
    }
  }
  return results;
}

/**
 * `store` as a thread working through pool batches reads it: synchronously where the store can
 * (a directory store's `getSync`), since nothing else waits on that thread meanwhile.
 */
export function withSyncReads(store: WritableStore): WritableStore {
  if (!readsSynchronously(store)) return store;
  const direct: SyncReadableStore = store;
  const getSync = (key: string): Uint8Array | undefined => direct.getSync(key);
  const into = direct.getSyncInto;
  const wrapped: WritableStore & SyncReadableStore = {
    readsSync: true,
    get: async (key) => getSync(key),
    getSync,
    getRangeSync: (key, range) => direct.getRangeSync(key, range),
    ...(typeof into === "function"
      ? { getSyncInto: (key: string, buffer: Uint8Array) => into.call(direct, key, buffer) }
      : {}),
    set: (key, value, options) => store.set(key, value, options),
    delete: (key, options) => store.delete(key, options),
  };
  return wrapped;
}

/** Thrown in a pool thread when the caller gave up; the caller reports its own signal's reason. */
export class PoolAborted extends Error {
  constructor() {
    super("aborted");
    this.name = "PoolAborted";
  }
}

function checkAbort(flag: Int32Array): void {
  if (Atomics.load(flag, 0) !== 0) throw new PoolAborted();
}

/**
 * The chunk jobs of an array's metadata document as `ArrayFormat.threadText` gives it: a v3
 * `zarr.json` or a v2 `.zarray`, which say which they are.
 */
async function jobsFromText(text: string, registry: CodecRegistry): Promise<ChunkJobs> {
  const doc: unknown = JSON.parse(text);
  const format =
    (doc as { zarr_format?: unknown }).zarr_format === 3
      ? (await import("./format-v3.js")).openedV3(new TextEncoder().encode(text), "")
      : formatV2(parseArrayMetadata(text), "");
  const { chain } = await format.chain(format.layout, registry);
  return new ChunkJobs(format.layout, ChunkCodec.fromChain(chain, format.layout));
}

/** Caches `ChunkJobs` by metadata text, for pool threads that serve many arrays. */
export function jobsCache(registry: () => CodecRegistry, limit = 16): (meta: string) => Promise<ChunkJobs> {
  const cache = new Map<string, Promise<ChunkJobs>>();
  return (text) => {
    let jobs = cache.get(text);
    if (jobs === undefined) {
      if (cache.size >= limit) cache.delete(cache.keys().next().value!);
      jobs = jobsFromText(text, registry());
      cache.set(text, jobs);
      jobs.catch(() => cache.delete(text));
    }
    return jobs;
  };
}

/** An error as plain data, to cross a thread boundary. */
export function serializeError(error: unknown): SerializedError {
  // By shape as well as by class: a store a thread reopens through a module of its own (a bundle,
  // see `ThreadStoreSpec`) throws errors of its own copy of @z/meta's classes.
  if (error instanceof ZarrError || isZarrErrorLike(error)) {
    const extra = error as ZarrError & { codecId?: unknown; field?: unknown };
    return {
      name: error.name,
      code: error.code,
      message: error.message,
      ...(error.key === undefined ? {} : { key: error.key }),
      ...(typeof extra.codecId === "string" ? { codecId: extra.codecId } : {}),
      ...(typeof extra.field === "string" ? { field: extra.field } : {}),
    };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

/** An error with a `ZARR_` code and a string or absent key, as every `ZarrError` has. */
function isZarrErrorLike(error: unknown): error is ZarrError {
  if (!(error instanceof Error)) return false;
  const { code, key } = error as { code?: unknown; key?: unknown };
  return typeof code === "string" && code.startsWith("ZARR_") && (key === undefined || typeof key === "string");
}
