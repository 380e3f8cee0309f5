import { CodecError, inChunk, type ChunkContext } from "@z/codecs/define";

/** The `CodecError` for input a decoder cannot read: `corrupt blosc data in chunk a/0.0: …`. */
export function corruptData(
  codecId: string,
  chunk: Pick<ChunkContext, "key">,
  detail: string,
  cause?: unknown,
): CodecError {
  return new CodecError(`corrupt ${codecId} data${inChunk(chunk.key)}: ${detail}`, { codecId, key: chunk.key, cause });
}

/**
 * Thrown inside the decoders of this package for malformed input; the codec turns it into a
 * `CodecError` naming the codec and the chunk (see `corruptData`).
 */
export class MalformedInput extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedInput";
  }
}

/** Thrown inside decoders when the output would exceed the allowed size. */
export class OutputTooLarge extends Error {
  constructor(message = "output larger than allowed") {
    super(message);
    this.name = "OutputTooLarge";
  }
}
