/*
 * What the parts of `ZarrArray` that load on first use (array-write.ts: writing and resizing;
 * array-stored.ts: checksums, chunk counts, `info`; array-islice.ts; array-views.ts) reach of an array: its public face and its
 * private state, handed over by the class (see `ZarrArray`'s static block). A page that only reads
 * never loads those parts.
 */
import type { ChunksSpec, CodecConfig, DataType, FillValue, Store, Synchronizer, TypedArray } from "@z/meta";
import type { ArrayFormat } from "./array-format.js";
import type { ArrayLayout } from "./array-layout.js";
import type { ChunkJobs } from "./chunk-jobs.js";
import type { ChunkPool, StoreSpec } from "./chunk-pool.js";
import type { RunOptions } from "./concurrency.js";
import type { ArrayInfoSource } from "./array-info.js";
import type { NdArray, NdData } from "./nd-array.js";
import type { ObjectChunkCodec } from "./object-codec.js";
import type { SelectionOptions } from "./selection-options.js";

/** A pool, and what its threads need to know about an array. */
export interface PoolJob {
  readonly pool: ChunkPool;
  /** The array's `.zarray` text. */
  readonly meta: string;
  /** Set when the pool's threads can reach the store themselves. */
  readonly spec: StoreSpec | undefined;
  /** A write's report of each chunk encoded on this thread, with how long it took (see `threadStarter`). */
  encodedHere?: (ms: number) => void;
}

/** The public face of a `ZarrArray` its parts use. */
export interface ArrayFace extends ArrayInfoSource {
  readonly path: string;
  readonly store: Store;
  readonly synchronizer: Synchronizer | undefined;
  readonly writeEmptyChunks: boolean;
  readonly isView: boolean;
  readonly fillValue: FillValue;
  readonly ndim: number;
  readonly itemsize: number;
  readonly cdataShape: number[];
  readonly attrs: { readonly key: string };
  readonly dimensionSeparator: "." | "/";
  chunkKey(coords: readonly number[]): string;
  set(selection: null, value: unknown, options?: SelectionOptions): Promise<void>;
  resize(shape: readonly number[], options?: RunOptions): Promise<void>;
  nbytesStored(options?: RunOptions): Promise<number | undefined>;
  nchunksInitialized(options?: RunOptions): Promise<number>;
  initializedChunkKeys(options?: RunOptions): Promise<string[]>;
  get<T extends NdData = TypedArray>(selection?: unknown, options?: SelectionOptions): Promise<NdArray<T>>;
}

/** An array's private state and operations, for its parts loaded on first use. */
export interface ArrayInternals {
  readonly array: ArrayFace;
  /** What the engine works from (the format's layout, or a view's). */
  readonly meta: ArrayLayout;
  /** The array's documents, keys and chain; setting it (`resize`) sets `meta` to its layout. */
  format: ArrayFormat;
  /** Where the metadata document is: `.zarray`, or a v1 array's `meta`. */
  readonly metaKey: string;
  readonly jobs: ChunkJobs;
  /** The fill value's bytes, one element. */
  readonly pattern: Uint8Array;
  /** Whether the chunks are nested under `/` keys; undefined while unasked. */
  nested: boolean | undefined;
  /** Asks the store, once, whether the chunks are nested (`coords`: a chunk found missing). */
  settleNested(coords: readonly number[] | undefined, signal?: AbortSignal): Promise<void>;
  /** Whether the chunks are nested, asked by a read that found the chunk at `coords` missing. */
  nestedAfter(found: boolean, coords: readonly number[], signal?: AbortSignal): Promise<boolean>;
  /** Object-array support and the array's object codec pipeline. */
  objectArrays(): Promise<{ objects: typeof import("./object-chunks.js"); codec: ObjectChunkCodec }>;
  /** The pool a read or write of `nchunks` chunks should use, if any. */
  poolFor(nchunks: number, choice: ChunkPool | false | undefined): Promise<PoolJob | undefined>;
}

/** What `ZarrArray.view` may change (each left out stays the array's). */
export interface ViewOptions {
  dtype?: string | DataType;
  shape?: number | readonly number[];
  chunks?: ChunksSpec;
  fillValue?: unknown;
  filters?: readonly CodecConfig[] | null;
  readOnly?: boolean;
}
