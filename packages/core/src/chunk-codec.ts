import type {
  BoxPlace,
  Codec,
  ChunkContext,
  CodecData,
  DecodedRange,
  RegionBounds,
  StoredPartReader,
  StoredRangeReader,
} from "@z/codecs/registry";
import { ZarrError } from "@z/meta";
import type { ArrayLayout } from "./array-layout.js";
import type { CodecChain, StageChunk } from "./array-format.js";
import { ChunkError } from "./errors.js";

/**
 * An array's codec chain (see array-format.ts), applied in order to encode and in reverse to
 * decode. It knows nothing of the format the chain came from. It also guards the chunk size: a
 * stored chunk must decode to exactly one chunk's bytes, or the read fails naming the key.
 */
export class ChunkCodec {
  private readonly codecs: readonly Codec[];
  /** What each stage is told about the chunk it encodes. */
  private readonly stages: readonly StageChunk[];
  /** The chunk as the array holds it (the first stage's input). */
  private readonly context: StageChunk;

  private constructor(chain: CodecChain, context: StageChunk) {
    this.codecs = chain.map((s) => s.codec);
    this.stages = chain.map((s) => s.chunk);
    this.context = context;
  }

  /** The codec of a chain compiled for chunks of `layout` (v3's `codecs`, say). */
  static fromChain(chain: CodecChain, layout: Pick<ArrayLayout, "chunks" | "dtype">): ChunkCodec {
    const elements = layout.chunks.reduce((a, b) => a * b, 1);
    return new ChunkCodec(chain, { dtype: layout.dtype, itemsize: layout.dtype.itemsize, elements });
  }

  /**
   * The bound on what a codec under filters may decode to. Filters that widen (`astype`) or add
   * checksums stay well inside 8 chunks; object arrays have no bound.
   */
  private get innerLimit(): number {
    return this.context.dtype.kind === "O" ? Infinity : this.chunkBytes * 8 + 4096;
  }

  /**
   * What stage `i` is told about the chunk at `key`: a literal rather than a spread, as this runs
   * for every chunk.
   */
  #chunk(
    i: number,
    key: string,
    signal: AbortSignal | undefined,
    maxDecodedSize: number | undefined,
    writeEmptyChunks?: boolean,
    cheapReads?: boolean,
  ): ChunkContext {
    const { dtype, itemsize, elements, shape } = this.stages[i]!;
    return { dtype, itemsize, elements, shape, maxDecodedSize, key, signal, writeEmptyChunks, cheapReads };
  }

  /** Bytes in one decoded chunk. */
  get chunkBytes(): number {
    return this.context.elements * this.context.itemsize;
  }

  async decode(stored: Uint8Array, key: string, signal?: AbortSignal): Promise<Uint8Array> {
    return this.decodeNow(stored, key, signal);
  }

  /**
   * `decode`, synchronously when every codec decodes this chunk synchronously (the usual case once
   * a codec's code is loaded): reading many small chunks then costs no promise per chunk. Errors
   * are thrown, or the promise rejects, as `decode` would.
   */
  decodeNow(stored: Uint8Array, key: string, signal?: AbortSignal): Uint8Array | Promise<Uint8Array> {
    return this.#decodeFrom(this.codecs.length - 1, stored, key, signal);
  }

  #decodeFrom(
    i: number,
    data: CodecData,
    key: string,
    signal: AbortSignal | undefined,
  ): Uint8Array | Promise<Uint8Array> {
    for (; i >= 0; i--) {
      // The last step must give one chunk; inner steps give the next filter's encoding.
      const limit = i === 0 ? this.chunkBytes : this.innerLimit;
      const step = runNow(this.codecs[i]!, "decode", data, this.#chunk(i, key, signal, limit));
      if (isPromise(step)) {
        const next = i - 1;
        return step.then((d) => this.#decodeFrom(next, d, key, signal));
      }
      data = step;
    }
    return this.#checkDecoded(data, key);
  }

  #checkDecoded(data: CodecData, key: string): Uint8Array {
    if (!(data instanceof Uint8Array)) {
      throw new ChunkError(`chunk ${key} did not decode to bytes`, { key });
    }
    if (data.length !== this.chunkBytes) {
      throw new ChunkError(
        `chunk ${key} decoded to ${data.length} bytes, expected ${this.chunkBytes} ` +
          `(${this.context.elements} elements of ${this.context.itemsize} bytes)`,
        { key },
      );
    }
    return data;
  }

  /** Whether chunks are stored as they are held: an empty chain (no filters, no compressor; v3: `bytes` alone). */
  get storesRaw(): boolean {
    return this.codecs.length === 0;
  }

  /** Whether `decodeInto` decodes straight into the buffer given (one stage, with `Codec.decodeInto`). */
  get decodesInto(): boolean {
    return this.codecs.length === 1 && this.codecs[0]!.decodeInto !== undefined;
  }

  /**
   * Decodes a stored chunk into `out` (at least one chunk's bytes; the first `chunkBytes` are
   * written) and returns that part of it: straight into `out` when `decodesInto` (blosc copies out
   * of its WebAssembly memory), else by `decode` and a copy. Synchronously when the codec decodes
   * synchronously, as `decodeNow`. The same checks and errors as `decode`; on an error, `out` may
   * have been written to. With `place` (only when `decodesIntoBox`), decodes straight into the box
   * of `out` it names instead (see `Codec.decodeIntoBox`) and returns `out`.
   */
  decodeInto(
    stored: Uint8Array,
    out: Uint8Array,
    key: string,
    signal?: AbortSignal,
    place?: BoxPlace,
  ): Uint8Array | Promise<Uint8Array> {
    if (out.length < this.chunkBytes) {
      throw new ChunkError(`a buffer of ${out.length} bytes cannot hold chunk ${key} (${this.chunkBytes} bytes)`, {
        key,
      });
    }
    // With a place the chain decodes into boxes, so also into buffers: `decodesInto` holds.
    if (!this.decodesInto) {
      const copy = (decoded: Uint8Array): Uint8Array => {
        out.set(decoded);
        return out.subarray(0, decoded.length);
      };
      const decoded = this.decodeNow(stored, key, signal);
      return isPromise(decoded) ? decoded.then(copy) : copy(decoded);
    }
    const codec = this.codecs[0]!;
    const chunk = this.#chunk(0, key, signal, this.chunkBytes);
    // With a place, nothing to count (the codec checks the box): undefined.
    let n: number | undefined | Promise<number | undefined>;
    try {
      n = place
        ? (codec.decodeIntoBox!(stored, out, place, chunk) as Promise<undefined> | undefined)
        : codec.decodeInto!(stored, out.subarray(0, this.chunkBytes), chunk);
    } catch (error) {
      throw wrapped(codec, "decode", chunk, error);
    }
    if (isPromise(n)) {
      return n.then(
        (m) => this.#decodedInto(out, m, key),
        (error: unknown) => Promise.reject(wrapped(codec, "decode", chunk, error)),
      );
    }
    return this.#decodedInto(out, n, key);
  }

  #decodedInto(out: Uint8Array, n: number | undefined, key: string): Uint8Array {
    if (n === undefined) return out;
    if (n !== this.chunkBytes) {
      throw new ChunkError(
        `chunk ${key} decoded to ${n} bytes, expected ${this.chunkBytes} ` +
          `(${this.context.elements} elements of ${this.context.itemsize} bytes)`,
        { key },
      );
    }
    return out.subarray(0, n);
  }

  /** Whether `decodeIntoBox` can decode: a chain of one stage with `Codec.decodeIntoBox`. */
  get decodesIntoBox(): boolean {
    return this.codecs.length === 1 && this.codecs[0]!.decodeIntoBox !== undefined;
  }

  /**
   * Whether `decodeRange` can decode part of a chunk: an empty chain, or one stage with
   * `Codec.decodeRange`.
   */
  get decodesRanges(): boolean {
    return this.codecs.length === 0 || (this.codecs.length === 1 && this.codecs[0]!.decodeRange !== undefined);
  }

  /**
   * Bytes `start` to `end` of the decoded chunk that `read` reads, reading only what they need
   * (only when `decodesRanges`); `undefined` when the chunk is not stored. Without a compressor
   * the stored bytes are the chunk's; the byte after `end` is read too, so a stored chunk longer
   * than a chunk is noticed when the range reaches its end.
   */
  async decodeRange(
    read: StoredRangeReader,
    start: number,
    end: number,
    key: string,
    signal?: AbortSignal,
  ): Promise<DecodedRange | undefined> {
    const codec = this.codecs[0];
    if (codec === undefined) {
      const bytes = await read(start, end - start + (end === this.chunkBytes ? 1 : 0));
      if (bytes === undefined) return undefined;
      const decodedSize = bytes.length === end - start ? this.chunkBytes : start + bytes.length;
      return { bytes: bytes.subarray(0, end - start), decodedSize };
    }
    const chunk = this.#chunk(0, key, signal, this.chunkBytes);
    try {
      return await codec.decodeRange!(read, start, end, chunk);
    } catch (error) {
      throw wrapped(codec, "decode part of", chunk, error);
    }
  }

  /**
   * Whether `decodeRegion` can decode a box of a chunk by ranges: a chain of one stage with
   * `Codec.decodeRegion` (v3's `sharding_indexed` alone).
   */
  get decodesRegions(): boolean {
    return this.codecs.length === 1 && this.codecs[0]!.decodeRegion !== undefined;
  }

  /**
   * The elements of `region` of the chunk that `read` reads, in C order (only when
   * `decodesRegions`): `undefined` when the chunk is not stored. The same errors as `decode`.
   * `cheapReads`: `read` costs about its bytes, not a round trip (see `ChunkContext.cheapReads`).
   */
  async decodeRegion(
    read: StoredPartReader,
    region: readonly RegionBounds[],
    key: string,
    signal?: AbortSignal,
    cheapReads?: boolean,
  ): Promise<Uint8Array | undefined> {
    const codec = this.codecs[0]!;
    const chunk = this.#chunk(0, key, signal, this.chunkBytes, undefined, cheapReads);
    try {
      return await codec.decodeRegion!(read, region, chunk);
    } catch (error) {
      throw wrapped(codec, "decode part of", chunk, error);
    }
  }

  /**
   * Whether `encodeRegion` can encode a chunk again after a change to part of it, keeping the rest
   * as stored: a chain of one stage with `Codec.encodeRegion` (v3's `sharding_indexed` alone).
   */
  get encodesRegions(): boolean {
    return this.codecs.length === 1 && this.codecs[0]!.encodeRegion !== undefined;
  }

  /**
   * The chunk at `key` encoded again after `change` wrote `region` of it (only when
   * `encodesRegions`; see `Codec.encodeRegion`): `undefined` when nothing of it is left to store.
   */
  async encodeRegion(
    previous: Uint8Array | undefined,
    data: Uint8Array,
    region: readonly RegionBounds[],
    covered: boolean,
    change: () => void,
    key: string,
    signal?: AbortSignal,
    writeEmptyChunks?: boolean,
  ): Promise<Uint8Array | undefined> {
    const codec = this.codecs[0]!;
    const chunk = this.#chunk(0, key, signal, undefined, writeEmptyChunks);
    try {
      return await codec.encodeRegion!(previous, data, region, covered, change, chunk);
    } catch (error) {
      throw wrapped(codec, "encode part of", chunk, error);
    }
  }

  /**
   * Tells the codecs the chunk at `key` was stored or deleted: what they cached of it (a shard's
   * index) is stale.
   */
  forget(key: string): void {
    for (const codec of this.codecs) codec.forget?.(key);
  }

  /**
   * Encodes one chunk. `writeEmptyChunks` tells a codec storing chunks of its own (a shard's inner
   * chunks) whether to store those equal to the fill value (the array's `writeEmptyChunks`).
   */
  async encode(raw: Uint8Array, key: string, signal?: AbortSignal, writeEmptyChunks?: boolean): Promise<Uint8Array> {
    let data: CodecData = raw;
    for (const [i, codec] of this.codecs.entries())
      data = await run(codec, "encode", data, this.#chunk(i, key, signal, undefined, writeEmptyChunks));
    if (!(data instanceof Uint8Array)) {
      throw new ChunkError(`chunk ${key} did not encode to bytes`, { key });
    }
    return data;
  }
}

/** `run`, synchronously when the codec is. */
function runNow(
  codec: Codec,
  step: "encode" | "decode",
  data: CodecData,
  chunk: ChunkContext,
): CodecData | Promise<CodecData> {
  let result: CodecData | Promise<CodecData>;
  try {
    result = codec[step](data, chunk);
  } catch (error) {
    throw wrapped(codec, step, chunk, error);
  }
  return isPromise(result)
    ? Promise.resolve(result).catch((error: unknown) => Promise.reject(wrapped(codec, step, chunk, error)))
    : result;
}

/** Our codecs throw typed errors naming the key; a third-party codec's plain error gets wrapped so it does too. */
function wrapped(codec: Codec, step: string, chunk: ChunkContext, error: unknown): unknown {
  if (error instanceof ZarrError) return error;
  const key = chunk.key ?? "";
  return new ChunkError(`codec ${codec.id} failed to ${step} chunk ${key}: ${String(error)}`, { key, cause: error });
}

async function run(codec: Codec, step: "encode" | "decode", data: CodecData, chunk: ChunkContext): Promise<CodecData> {
  try {
    return await codec[step](data, chunk);
  } catch (error) {
    throw wrapped(codec, step, chunk, error);
  }
}

/** True for a promise (or any thenable) rather than a value: what a maybe-synchronous step gave. */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
