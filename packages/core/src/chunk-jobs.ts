import { adviseLargeBuffer, type BoxPlace } from "@z/codecs/registry";
import {
  copyProjection,
  selectionView,
  stridesFor,
  type AnyChunkProjection,
  type DimRange,
  type DimSelection,
  type StridedView,
} from "@z/indexing/basic";
import { needsByteSwap, valuesPerElement, type TypedArray } from "@z/meta";
import type { ArrayLayout } from "./array-layout.js";
import { type ChunkCodec, isPromise } from "./chunk-codec.js";
import { bytesToTyped, fillPattern, filledTyped, isAllPattern, typedToBytes } from "./chunk-data.js";

/**
 * What reading or writing one chunk of an array does, the same on the calling thread and in a pool
 * thread: decode and place a chunk into an output, or encode one. `ZarrArray` and the pool's
 * threads both call these, so the two paths cannot drift apart.
 */
export class ChunkJobs {
  readonly meta: ArrayLayout;
  readonly codec: ChunkCodec;
  /** One element of the fill value, little-endian. */
  readonly pattern: Uint8Array;
  /** Values per element (2 for complex, the item size for raw bytes). */
  readonly k: number;
  readonly #strides: readonly number[];
  readonly #zeroFill: boolean;
  #fillChunk: StridedView<TypedArray> | undefined;
  /** Whether chunks may be decoded straight into an output (held in memory as stored). */
  readonly #direct: boolean;
  /** Whether chunks may be decoded straight into a box of an output (see `#boxTarget`). */
  readonly #intoBox: boolean;
  readonly #elements: number;
  /** The chunk's shape and strides, for locating a projection in it (no data). */
  readonly #chunkLayout: StridedView<TypedArray>;

  constructor(meta: ArrayLayout, codec: ChunkCodec) {
    this.meta = meta;
    this.codec = codec;
    this.pattern = fillPattern(meta.fillValue, meta.dtype);
    this.k = valuesPerElement(meta.dtype);
    this.#strides = stridesFor(meta.chunks, meta.order);
    this.#zeroFill = this.pattern.every((b) => b === 0);
    this.#elements = meta.chunks.reduce((a, b) => a * b, 1);
    this.#direct = codec.decodesInto && heldAsStored(meta);
    this.#intoBox = this.#direct && codec.decodesIntoBox && meta.order === "C";
    this.#chunkLayout = { data: EMPTY, offset: 0, shape: meta.chunks, strides: this.#strides };
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
    return (this.#fillChunk ??= this.chunkView(
      filledTyped(
        this.pattern,
        this.meta.chunks.reduce((a, b) => a * b, 1),
        this.meta.dtype,
      ),
    ));
  }

  /** Decodes a stored chunk into a view in the array's order. */
  async decode(stored: Uint8Array, key: string, signal?: AbortSignal): Promise<StridedView<TypedArray>> {
    const raw = await this.codec.decode(stored, key, signal);
    return this.chunkView(bytesToTyped(raw, this.meta.dtype));
  }

  /**
   * Places one chunk's part of a selection into `out`. A missing chunk (`stored` undefined) gives
   * the fill value, which a zeroed output already holds when the fill value is zero. Runs
   * synchronously (returning undefined) when the codecs decode synchronously, else returns a
   * promise. A chunk that fills a contiguous stretch of `out` is decoded straight into it;
   * others are decoded into a reused buffer and copied from there.
   */
  place(
    out: StridedView<TypedArray>,
    outZeroed: boolean,
    stored: Uint8Array | undefined,
    key: string,
    p: AnyChunkProjection,
    signal?: AbortSignal,
  ): void | Promise<void> {
    if (stored === undefined) return this.placeDecoded(out, outZeroed, undefined, p);
    const codec = this.codec;
    if (!codec.decodesInto) {
      const raw = codec.decodeNow(stored, key, signal);
      const copy = (bytes: Uint8Array): void => this.placeDecoded(out, outZeroed, bytes, p);
      return isPromise(raw) ? raw.then(copy) : copy(raw);
    }
    const direct = this.#boxTarget(out, p) ?? this.#directTarget(out, p);
    if (direct !== undefined) {
      const done = codec.decodeInto(stored, direct[0], key, signal, direct[1]);
      return isPromise(done) ? done.then(() => undefined) : undefined;
    }
    const scratch = takeScratch(codec.chunkBytes);
    const copy = (bytes: Uint8Array): void => {
      try {
        copyProjection(out, this.chunkView(bytesToTyped(bytes, this.meta.dtype)), p, "read", this.k);
      } finally {
        releaseScratch(scratch);
      }
    };
    let raw: Uint8Array | Promise<Uint8Array>;
    try {
      raw = codec.decodeInto(stored, scratch, key, signal);
    } catch (error) {
      releaseScratch(scratch);
      throw error;
    }
    if (!isPromise(raw)) return copy(raw);
    return raw.then(copy, (error: unknown) => {
      releaseScratch(scratch);
      throw error;
    });
  }

  /**
   * Copies `p`'s part of a decoded chunk (as `decode` gives it; `undefined`: missing, the fill
   * value) into `out`.
   */
  placeDecoded(
    out: StridedView<TypedArray>,
    outZeroed: boolean,
    decoded: Uint8Array | undefined,
    p: AnyChunkProjection,
  ): void {
    if (decoded !== undefined)
      copyProjection(out, this.chunkView(bytesToTyped(decoded, this.meta.dtype)), p, "read", this.k);
    else if (!(outZeroed && this.#zeroFill)) copyProjection(out, this.fillChunk(), p, "read", this.k);
  }

  /** Whether `p` selects the whole chunk, each element once, in the chunk's memory order. */
  takesWholeChunk(p: AnyChunkProjection): boolean {
    if (!rangeProjection(p)) return false;
    const chunk = selectionView(this.#chunkLayout, p.chunkSelection as readonly DimSelection[]);
    return chunk.offset === 0 && denseStart(chunk) !== undefined && elements(chunk.shape) === this.#elements;
  }

  /**
   * The bytes of `out` a whole chunk goes to, when `p` takes all of it, in its memory order, to a
   * contiguous stretch of `out` held as the chunk holds it (no byte swap, no extension dtype).
   */
  #directTarget(out: StridedView<TypedArray>, p: AnyChunkProjection): [Uint8Array] | undefined {
    if (!this.#direct || !rangeProjection(p)) return undefined;
    if (!this.takesWholeChunk(p)) return undefined;
    const target = selectionView(out, p.outSelection as readonly DimRange[]);
    const start = denseStart(target);
    if (start === undefined || elements(target.shape) !== this.#elements) return undefined;
    const data = out.data;
    const bytes = data.BYTES_PER_ELEMENT * this.k;
    if (bytes !== this.meta.dtype.itemsize) return undefined; // held other than as stored
    return [new Uint8Array(data.buffer, data.byteOffset + start * bytes, this.#elements * bytes)];
  }

  /**
   * Where in `out` a whole chunk goes as a box, when its codec decodes into one (a shard: each
   * inner chunk straight to its place, with no chunk-sized buffer between) and `p` takes all of it
   * to a box of `out` held as the chunk holds it: `out` in C order, as many dimensions as a chunk,
   * its bytes as stored.
   */
  #boxTarget(out: StridedView<TypedArray>, p: AnyChunkProjection): [Uint8Array, BoxPlace] | undefined {
    const at = p.outSelection as readonly DimRange[];
    const { data, shape } = out;
    if (
      !this.#intoBox ||
      at.length !== this.meta.chunks.length || // (as many as `out` has: no dimension dropped)
      !at.every((r) => r.step === 1) || // (`out`, a result, is always dense in C order from 0: array.ts)
      data.BYTES_PER_ELEMENT * this.k !== this.meta.dtype.itemsize || // held other than as stored
      !this.takesWholeChunk(p) // a projection of ranges, too
    )
      return undefined;
    return [new Uint8Array(data.buffer, data.byteOffset), { shape, start: at.map((r) => r.start) }];
  }

  /** A whole chunk's stored bytes, or `"empty"` when `skipEmpty` and it is all fill value. */
  async encode(
    chunk: TypedArray,
    key: string,
    skipEmpty: boolean,
    signal?: AbortSignal,
  ): Promise<Uint8Array | "empty"> {
    if (skipEmpty && isAllPattern(chunk, this.pattern)) return "empty";
    return this.codec.encode(typedToBytes(chunk, this.meta.dtype), key, signal, !skipEmpty);
  }
}

const EMPTY = new Uint8Array(0);

/** An orthogonal selection of ranges only (as `a.get([slice(...), ...])` gives) places like a basic one. */
const rangesOnly = (selection: readonly unknown[]): boolean =>
  selection.every(
    (s) => typeof s === "object" && s !== null && !ArrayBuffer.isView(s) && !Array.isArray(s) && "step" in s,
  );

export const elements = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** Whether an array's values are held in memory as they are stored (no byte swap, no conversion). */
export const heldAsStored = (meta: Pick<ArrayLayout, "dtype">): boolean =>
  meta.dtype.kind !== "x" && !needsByteSwap(meta.dtype) && meta.dtype.kind !== "O";

/** A projection of ranges (and single indices) on both sides, which a strided view can describe. */
const rangeProjection = (p: AnyChunkProjection): boolean =>
  p.kind !== "points" && (p.kind !== "orthogonal" || (rangesOnly(p.chunkSelection) && rangesOnly(p.outSelection)));

/** Where a view starts when its elements lie one after another in C order (dimensions of 1 aside), else undefined. */
function denseStart(view: StridedView): number | undefined {
  let expected = 1;
  for (let d = view.shape.length - 1; d >= 0; d--) {
    const n = view.shape[d]!;
    if (n === 1) continue;
    if (view.strides[d] !== expected) return undefined;
    expected *= n;
  }
  return view.offset;
}

/**
 * One buffer per thread that chunks are decoded into before their part is copied out, so reading
 * many chunks allocates no chunk-sized buffer per chunk. A decode that waits (a codec still
 * loading) holds it; meanwhile others get buffers of their own. Buffers above `KEEP_SCRATCH`
 * are not kept.
 */
let scratch: Uint8Array | undefined;
let scratchBusy = false;
/** Scratch buffers up to this size are kept between chunks (chunk-batches.ts keeps its own to it too). */
export const KEEP_SCRATCH = 16 << 20;

function takeScratch(bytes: number): Uint8Array {
  if (scratchBusy || bytes > KEEP_SCRATCH) return adviseLargeBuffer(new Uint8Array(bytes));
  if (scratch === undefined || scratch.length < bytes) scratch = adviseLargeBuffer(new Uint8Array(bytes));
  scratchBusy = true;
  return scratch.subarray(0, bytes);
}

function releaseScratch(buffer: Uint8Array): void {
  if (scratch !== undefined && buffer.buffer === scratch.buffer) scratchBusy = false;
}
