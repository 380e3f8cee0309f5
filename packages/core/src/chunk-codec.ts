import type { Codec, ChunkContext, CodecData, CodecRegistry, DecodedRange, StoredRangeReader } from "@z/codecs";
import { ZarrError, type ArrayMetadata } from "@z/meta";
import { ChunkError } from "./errors.js";

/**
 * The filters and compressor of one array, applied as the spec orders them: filters in order then
 * the compressor to encode, the reverse to decode. It also guards the chunk size: a stored chunk
 * must decode to exactly one chunk's bytes, or the read fails naming the key.
 */
export class ChunkCodec {
  private constructor(
    private readonly codecs: readonly Codec[],
    private readonly context: Omit<ChunkContext, "key" | "signal">,
  ) {}

  static async create(meta: ArrayMetadata, registry: CodecRegistry, key: string): Promise<ChunkCodec> {
    const configs = [...(meta.filters ?? []), ...(meta.compressor ? [meta.compressor] : [])];
    const codecs = await Promise.all(configs.map((config) => registry.create(config, { key })));
    const elements = meta.chunks.reduce((a, b) => a * b, 1);
    return new ChunkCodec(codecs, { dtype: meta.dtype, itemsize: meta.dtype.itemsize, elements });
  }

  /**
   * The bound on what a codec under filters may decode to. Filters that widen (`astype`) or add
   * checksums stay well inside 8 chunks; object arrays have no bound.
   */
  private get innerLimit(): number {
    return this.context.dtype.kind === "O" ? Infinity : this.chunkBytes * 8 + 4096;
  }

  /** Bytes in one decoded chunk. */
  get chunkBytes(): number {
    return this.context.elements * this.context.itemsize;
  }

  async decode(stored: Uint8Array, key: string, signal?: AbortSignal): Promise<Uint8Array> {
    let data: CodecData = stored;
    for (let i = this.codecs.length - 1; i >= 0; i--) {
      // The last step must give one chunk; inner steps give the next filter's encoding.
      const limit = i === 0 ? this.chunkBytes : this.innerLimit;
      data = await run(this.codecs[i]!, "decode", data, { ...this.context, key, signal, maxDecodedSize: limit });
    }
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

  /**
   * Decodes a stored chunk into `out` (at least one chunk's bytes; the first `chunkBytes` are
   * written) and returns that part of it: straight into `out` when the array has no filters and
   * its compressor has `Codec.decodeInto` (blosc copies out of its WebAssembly memory), else by
   * `decode` and a copy. The same checks and errors as `decode`.
   */
  async decodeInto(stored: Uint8Array, out: Uint8Array, key: string, signal?: AbortSignal): Promise<Uint8Array> {
    if (out.length < this.chunkBytes) {
      throw new ChunkError(`a buffer of ${out.length} bytes cannot hold chunk ${key} (${this.chunkBytes} bytes)`, { key });
    }
    const codec = this.codecs.length === 1 ? this.codecs[0]! : undefined;
    if (codec?.decodeInto === undefined) {
      const decoded = await this.decode(stored, key, signal);
      out.set(decoded);
      return out.subarray(0, decoded.length);
    }
    const chunk = { ...this.context, key, signal, maxDecodedSize: this.chunkBytes };
    let n: number;
    try {
      n = await codec.decodeInto(stored, out.subarray(0, this.chunkBytes), chunk);
    } catch (error) {
      if (error instanceof ZarrError) throw error;
      throw new ChunkError(`codec ${codec.id} failed to decode chunk ${key}: ${String(error)}`, { key, cause: error });
    }
    if (n !== this.chunkBytes) {
      throw new ChunkError(
        `chunk ${key} decoded to ${n} bytes, expected ${this.chunkBytes} ` +
          `(${this.context.elements} elements of ${this.context.itemsize} bytes)`,
        { key },
      );
    }
    return out.subarray(0, n);
  }

  /** Whether `decodeInto` decodes straight into the buffer given (no filters; a compressor with `Codec.decodeInto`). */
  get decodesInto(): boolean {
    return this.codecs.length === 1 && this.codecs[0]!.decodeInto !== undefined;
  }

  /**
   * Whether `decodeRange` can decode part of a chunk: the array has no filters, and no compressor
   * or one with `Codec.decodeRange`.
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
  async decodeRange(read: StoredRangeReader, start: number, end: number, key: string, signal?: AbortSignal): Promise<DecodedRange | undefined> {
    const codec = this.codecs[0];
    if (codec === undefined) {
      const bytes = await read(start, end - start + (end === this.chunkBytes ? 1 : 0));
      if (bytes === undefined) return undefined;
      const decodedSize = bytes.length === end - start ? this.chunkBytes : start + bytes.length;
      return { bytes: bytes.subarray(0, end - start), decodedSize };
    }
    const chunk = { ...this.context, key, signal, maxDecodedSize: this.chunkBytes };
    try {
      return await codec.decodeRange!(read, start, end, chunk);
    } catch (error) {
      if (error instanceof ZarrError) throw error;
      throw new ChunkError(`codec ${codec.id} failed to decode part of chunk ${key}: ${String(error)}`, { key, cause: error });
    }
  }

  async encode(raw: Uint8Array, key: string, signal?: AbortSignal): Promise<Uint8Array> {
    const chunk = { ...this.context, key, signal };
    let data: CodecData = raw;
    for (const codec of this.codecs) data = await run(codec, "encode", data, chunk);
    if (!(data instanceof Uint8Array)) {
      throw new ChunkError(`chunk ${key} did not encode to bytes`, { key });
    }
    return data;
  }
}

/** Our codecs throw typed errors naming the key; a third-party codec's plain error gets wrapped so it does too. */
async function run(codec: Codec, step: "encode" | "decode", data: CodecData, chunk: ChunkContext): Promise<CodecData> {
  try {
    return await codec[step](data, chunk);
  } catch (error) {
    if (error instanceof ZarrError) throw error;
    const key = chunk.key ?? "";
    throw new ChunkError(`codec ${codec.id} failed to ${step} chunk ${key}: ${String(error)}`, { key, cause: error });
  }
}
