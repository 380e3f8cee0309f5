import { ZarrError, type CodecConfig } from "@z/meta";
import type { ChunkContext, Codec, CodecData } from "../codec.js";
import { CodecError, inChunk } from "../errors.js";

type Step = (data: CodecData, chunk: ChunkContext) => CodecData;

/**
 * A codec of this entry's own (`transpose`, `bytes`): synchronous steps whose failures (data of the
 * wrong size or kind) become `CodecError`s naming the codec and the chunk, as `defineCodec`'s do.
 */
export function stageCodec(id: string, config: CodecConfig, encode: Step, decode: Step): Codec {
  const guard =
    (name: string, step: Step): Step =>
    (data, chunk) => {
      chunk.signal?.throwIfAborted();
      try {
        return step(data, chunk);
      } catch (error) {
        if (error instanceof ZarrError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new CodecError(`codec ${id} failed to ${name}${inChunk(chunk.key)}: ${message}`, {
          codecId: id,
          key: chunk.key,
          cause: error,
        });
      }
    };
  return Object.freeze({
    id,
    encode: guard("encode", encode),
    decode: guard("decode", decode),
    toJSON: () => config,
  });
}

/** What `data` is, for messages. */
export function describeData(data: CodecData): string {
  return data instanceof Uint8Array ? `${data.length} bytes` : `an array of ${data.length} values`;
}
