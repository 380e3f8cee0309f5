import type { ChunkContext, Codec, CodecData, CodecRegistry } from "@z/codecs/registry";
import { ZarrError, type ArrayMetadata } from "@z/meta";
import { ChunkError } from "./errors.js";

/**
 * The filters and compressor of an object array: encoding takes a chunk's values (in the array's
 * order) through the filters, the first of which is the object codec, then the compressor;
 * decoding must end in exactly one chunk's values.
 */
export class ObjectChunkCodec {
  private constructor(
    private readonly codecs: readonly Codec[],
    private readonly context: Omit<ChunkContext, "key" | "signal">,
  ) {}

  static async create(meta: ArrayMetadata, registry: CodecRegistry, key: string): Promise<ObjectChunkCodec> {
    const configs = [...(meta.filters ?? []), ...(meta.compressor ? [meta.compressor] : [])];
    const codecs = await Promise.all(configs.map((config) => registry.create(config, { key })));
    const elements = meta.chunks.reduce((a, b) => a * b, 1);
    // json2 and msgpack2 record the chunk's shape; numcodecs sees it as the chunk's numpy shape.
    return new ObjectChunkCodec(codecs, {
      dtype: meta.dtype,
      itemsize: meta.dtype.itemsize,
      elements,
      shape: meta.chunks,
    });
  }

  get elements(): number {
    return this.context.elements;
  }

  async decode(stored: Uint8Array, key: string, signal?: AbortSignal): Promise<unknown[]> {
    let data: CodecData = stored;
    for (let i = this.codecs.length - 1; i >= 0; i--) {
      data = await run(this.codecs[i]!, "decode", data, { ...this.context, key, signal, maxDecodedSize: Infinity });
    }
    if (!Array.isArray(data)) throw new ChunkError(`chunk ${key} of an object array did not decode to values`, { key });
    if (data.length !== this.context.elements) {
      throw new ChunkError(`chunk ${key} decoded to ${data.length} values, expected ${this.context.elements}`, { key });
    }
    return data as unknown[];
  }

  async encode(values: readonly unknown[], key: string, signal?: AbortSignal): Promise<Uint8Array> {
    let data: CodecData = values;
    for (const codec of this.codecs) data = await run(codec, "encode", data, { ...this.context, key, signal });
    if (!(data instanceof Uint8Array)) throw new ChunkError(`chunk ${key} did not encode to bytes`, { key });
    return data;
  }

  /**
   * Runs only the object codec over `values`, as a one-dimensional chunk of them, so that a value
   * it cannot encode (a number in a string array) fails before any chunk is written.
   */
  async check(values: readonly unknown[], key: string, signal?: AbortSignal): Promise<void> {
    const first = this.codecs[0];
    if (first === undefined || values.length === 0) return;
    await run(first, "encode", values, {
      ...this.context,
      elements: values.length,
      shape: [values.length],
      key,
      signal,
    });
  }
}

async function run(codec: Codec, step: "encode" | "decode", data: CodecData, chunk: ChunkContext): Promise<CodecData> {
  try {
    return await codec[step](data, chunk);
  } catch (error) {
    if (error instanceof ZarrError) throw error;
    const key = chunk.key ?? "";
    throw new ChunkError(`codec ${codec.id} failed to ${step} chunk ${key}: ${String(error)}`, { key, cause: error });
  }
}
