import type { ChunkContext, Codec, CodecData } from "@z/codecs/registry";
import { ZarrError } from "@z/meta";
import type { CodecChain, StageChunk } from "./array-format.js";
import { ChunkError } from "./errors.js";

/**
 * The codec chain of an object array: encoding takes a chunk's values (in the array's order)
 * through the chain, whose first value-to-bytes stage is the object codec (v2: the first filter;
 * v3: `vlen-utf8`, say, after any `transpose`); decoding must end in exactly one chunk's values.
 */
export class ObjectChunkCodec {
  private readonly codecs: readonly Codec[];
  private readonly stages: readonly StageChunk[];
  /** The stage that turns values into bytes: v3's array→bytes one, else (v2) the first filter. */
  private readonly objectStage: number;

  private constructor(chain: CodecChain) {
    this.codecs = chain.map((s) => s.codec);
    this.stages = chain.map((s) => s.chunk);
    this.objectStage = Math.max(
      0,
      chain.findIndex((s) => s.kind === "array-bytes"),
    );
  }

  /** The codec of a chain compiled elsewhere (v3's `codecs`). */
  static fromChain(chain: CodecChain): ObjectChunkCodec {
    return new ObjectChunkCodec(chain);
  }

  /** The chunk as the array holds it. */
  private get context(): StageChunk {
    return this.stages[0]!;
  }

  get elements(): number {
    return this.context.elements;
  }

  async decode(stored: Uint8Array, key: string, signal?: AbortSignal): Promise<unknown[]> {
    let data: CodecData = stored;
    for (let i = this.codecs.length - 1; i >= 0; i--) {
      data = await run(this.codecs[i]!, "decode", data, { ...this.stages[i]!, key, signal, maxDecodedSize: Infinity });
    }
    if (!Array.isArray(data)) throw new ChunkError(`chunk ${key} of an object array did not decode to values`, { key });
    if (data.length !== this.context.elements) {
      throw new ChunkError(`chunk ${key} decoded to ${data.length} values, expected ${this.context.elements}`, { key });
    }
    return data as unknown[];
  }

  async encode(values: readonly unknown[], key: string, signal?: AbortSignal): Promise<Uint8Array> {
    let data: CodecData = values;
    for (const [i, codec] of this.codecs.entries())
      data = await run(codec, "encode", data, { ...this.stages[i]!, key, signal });
    if (!(data instanceof Uint8Array)) throw new ChunkError(`chunk ${key} did not encode to bytes`, { key });
    return data;
  }

  /**
   * Runs only the object codec over `values`, as a one-dimensional chunk of them, so that a value
   * it cannot encode (a number in a string array) fails before any chunk is written.
   */
  async check(values: readonly unknown[], key: string, signal?: AbortSignal): Promise<void> {
    const first = this.codecs[this.objectStage];
    if (first === undefined || values.length === 0) return;
    // A shard encodes shards only, its object codec is inside: a value it cannot encode fails the
    // shard's encode instead (a ShardError naming the shard and the inner chunk).
    if (first.id === "sharding_indexed") return;
    await run(first, "encode", values, {
      ...this.stages[this.objectStage]!,
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
