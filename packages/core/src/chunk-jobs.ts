import type { CodecRegistry } from "@z/codecs";
import { copyProjection, stridesFor, type AnyChunkProjection, type StridedView } from "@z/indexing";
import {
  needsByteSwap,
  parseArrayMetadata,
  typedArrayConstructor,
  valuesPerElement,
  ZarrError,
  type ArrayMetadata,
  type Store,
  type TypedArray,
  type WritableStore,
} from "@z/meta";
import { ChunkCodec } from "./chunk-codec.js";
import { bytesToTyped, fillPattern, filledTyped, isAllPattern, typedToBytes } from "./chunk-data.js";
import type { EncodedItem, PoolBatch, SerializedError } from "./chunk-pool.js";
import { cStrides } from "./nd-array.js";
import { ScratchBuffers } from "./scratch-buffers.js";
import { contiguousTarget } from "./contiguous-target.js";

/**
 * What reading or writing one chunk of an array does, the same on the calling thread and in a pool
 * thread: decode and place a chunk into an output, or encode one. `ZarrArray` and the pool's
 * threads both call these, so the two paths cannot drift apart.
 */
export class ChunkJobs {
  readonly meta: ArrayMetadata;
  readonly codec: ChunkCodec;
  /** One element of the fill value, little-endian. */
  readonly pattern: Uint8Array;
  /** Values per element (2 for complex, the item size for raw bytes). */
  readonly k: number;
  readonly #strides: readonly number[];
  readonly #zeroFill: boolean;
  #fillChunk: StridedView<TypedArray> | undefined;
  readonly #scratch = new ScratchBuffers();
  /** Decoded bytes are the output's values as they are (one value per element, no byte swap). */
  readonly #direct: boolean;

  constructor(meta: ArrayMetadata, codec: ChunkCodec) {
    this.meta = meta;
    this.codec = codec;
    this.pattern = fillPattern(meta.fillValue, meta.dtype);
    this.k = valuesPerElement(meta.dtype);
    this.#strides = stridesFor(meta.chunks, meta.order);
    this.#zeroFill = this.pattern.every((b) => b === 0);
    this.#direct = this.k === 1 && meta.dtype.kind !== "x" && !needsByteSwap(meta.dtype);
  }

  static async create(meta: ArrayMetadata, registry: CodecRegistry, key: string): Promise<ChunkJobs> {
    return new ChunkJobs(meta, await ChunkCodec.create(meta, registry, key));
  }

  /** True when a fresh (zeroed) buffer already holds the fill value. */
  get zeroFill(): boolean {
    return this.#zeroFill;
  }

  /** A typed array of a chunk's data as a view in the array's order. */
  chunkView(data: TypedArray): StridedView<TypedArray> {
    return { data, offset: 0, shape: this.meta.chunks, strides: this.#strides };
  }

  /** A chunk of the fill value, made once. */
  fillChunk(): StridedView<TypedArray> {
    return (this.#fillChunk ??= this.chunkView(filledTyped(this.pattern, this.meta.chunks.reduce((a, b) => a * b, 1), this.meta.dtype)));
  }

  /** Decodes a stored chunk into a view in the array's order. */
  async decode(stored: Uint8Array, key: string, signal?: AbortSignal): Promise<StridedView<TypedArray>> {
    const raw = await this.codec.decode(stored, key, signal);
    return this.chunkView(bytesToTyped(raw, this.meta.dtype));
  }

  /**
   * Places one chunk's part of a selection into `out`. A missing chunk (`stored` undefined) gives
   * the fill value, which a zeroed output already holds when the fill value is zero.
   */
  async place(out: StridedView<TypedArray>, outZeroed: boolean, stored: Uint8Array | undefined, key: string, p: AnyChunkProjection, signal?: AbortSignal): Promise<void> {
    if (stored === undefined) {
      if (!(outZeroed && this.#zeroFill)) copyProjection(out, this.fillChunk(), p, "read", this.k);
      return;
    }
    if (!this.codec.decodesInto) {
      copyProjection(out, await this.decode(stored, key, signal), p, "read", this.k);
      return;
    }
    const at = this.#direct ? contiguousTarget(out, p, this.meta.chunks, this.#strides) : undefined;
    if (at !== undefined) {
      // The whole chunk is one run of the output in the chunk's own layout: decoded right there.
      const data = out.data;
      await this.codec.decodeInto(stored, new Uint8Array(data.buffer, data.byteOffset + at * data.BYTES_PER_ELEMENT, this.codec.chunkBytes), key, signal);
      return;
    }
    // Decoded into a reused buffer: a new one per chunk would cost, over a read, page faults and
    // garbage as large as the whole array.
    const scratch = this.#scratch.take(this.codec.chunkBytes);
    try {
      const raw = await this.codec.decodeInto(stored, scratch, key, signal);
      copyProjection(out, this.chunkView(bytesToTyped(raw, this.meta.dtype)), p, "read", this.k);
    } finally {
      this.#scratch.give(scratch);
    }
  }

  /** A whole chunk's stored bytes, or `"empty"` when `skipEmpty` and it is all fill value. */
  async encode(chunk: TypedArray, key: string, skipEmpty: boolean, signal?: AbortSignal): Promise<Uint8Array | "empty"> {
    if (skipEmpty && isAllPattern(chunk, this.pattern)) return "empty";
    return this.codec.encode(typedToBytes(chunk, this.meta.dtype), key, signal);
  }
}

/** Runs one pool batch: what a pool thread does with each message. */
export async function runBatch(
  batch: PoolBatch,
  jobsFor: (meta: string) => Promise<ChunkJobs>,
  storeFor: (spec: NonNullable<PoolBatch["store"]>) => Store & Partial<WritableStore>,
): Promise<readonly EncodedItem[] | undefined> {
  const jobs = await jobsFor(batch.meta);
  const store = batch.store === undefined ? undefined : storeFor(batch.store);
  const Ctor = typedArrayConstructor(jobs.meta.dtype);
  if (batch.op === "read") {
    const { buffer, shape } = batch.out;
    const out: StridedView<TypedArray> = { data: new Ctor(buffer as unknown as ArrayBuffer), offset: 0, shape, strides: cStrides(shape) };
    for (const item of batch.items) {
      checkAbort(batch.abort);
      const stored = item.bytes === undefined ? await store!.get(item.key) : (item.bytes ?? undefined);
      await jobs.place(out, true, stored, item.key, item.projection);
    }
    return undefined;
  }
  const results: EncodedItem[] = [];
  for (const item of batch.items) {
    checkAbort(batch.abort);
    const typed = new Ctor(item.data.buffer as ArrayBuffer, item.data.byteOffset, item.data.byteLength / Ctor.BYTES_PER_ELEMENT);
    const encoded = await jobs.encode(typed, item.key, batch.skipEmpty);
    if (store === undefined) {
      results.push(encoded === "empty" ? { key: item.key, kind: "empty" } : { key: item.key, kind: "encoded", bytes: encoded });
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
  const direct = store as WritableStore & { getSync?: (key: string) => Uint8Array | undefined };
  if (typeof direct.getSync !== "function") return store;
  return {
    get: async (key) => direct.getSync!(key),
    set: (key, value, options) => store.set(key, value, options),
    delete: (key, options) => store.delete(key, options),
  };
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

/** Caches `ChunkJobs` by `.zarray` text, for pool threads that serve many arrays. */
export function jobsCache(registry: () => CodecRegistry, limit = 16): (meta: string) => Promise<ChunkJobs> {
  const cache = new Map<string, Promise<ChunkJobs>>();
  return (text) => {
    let jobs = cache.get(text);
    if (jobs === undefined) {
      if (cache.size >= limit) cache.delete(cache.keys().next().value!);
      jobs = ChunkJobs.create(parseArrayMetadata(text), registry(), ".zarray");
      cache.set(text, jobs);
      jobs.catch(() => cache.delete(text));
    }
    return jobs;
  };
}

/** An error as plain data, to cross a thread boundary. */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof ZarrError) {
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
