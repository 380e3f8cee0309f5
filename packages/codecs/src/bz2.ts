import type { ChunkContext } from "./codec.js";
import { DecodeFailure } from "./bounded-output.js";
import { decodedTooLarge, maxDecodedSize, requireBytes } from "./chunk-bytes.js";
import { integer } from "./config-schema.js";
import { decodeBzip2 } from "./bz2-decode.js";
import type { encodeBzip2 } from "./bz2-encode.js";
import { defineCodec, withEncoder } from "./define-codec.js";
import { CodecError, inChunk } from "./errors.js";

/** numcodecs `BZ2(level=1)`: `{"id": "bz2", "level": 1}`; levels 1 to 9 are block sizes of 100k to 900k. */
export const bz2Config = { level: integer({ min: 1, max: 9, default: 1 }) };

/**
 * numcodecs `BZ2`: a bzip2 stream, as Python's `bz2.compress(buf, level)` writes and
 * `bz2.decompress(buf)` reads, in pure TypeScript.
 *
 * Encoding writes one stream with blocks of `level` × 100 000 bytes; the bytes differ from
 * libbzip2's (its block sort and Huffman tables are chosen differently) but any bzip2 decoder reads
 * them. Decoding reads what `bz2.decompress` reads: concatenated streams, randomised blocks, every
 * block and stream CRC checked; an empty input is empty output; after a complete stream, bytes that
 * are not a valid stream are ignored, as Python ignores them, but a truncated stream is an error.
 * Output larger than the chunk is refused.
 */
export const bz2 = defineCodec({
  id: "bz2",
  config: bz2Config,
  create: ({ level }) => ({
    encode: (data, chunk) => {
      const bytes = requireBytes(data, "bz2", chunk);
      return withEncoder("bz2", "bz2", chunk, (m: { encodeBzip2: typeof encodeBzip2 }) => m.encodeBzip2(bytes, level));
    },
    decode: (data, chunk) => decodeBz2Chunk(requireBytes(data, "bz2", chunk), chunk),
  }),
});

function decodeBz2Chunk(data: Uint8Array, chunk: ChunkContext): Uint8Array {
  const limit = maxDecodedSize(chunk);
  try {
    return decodeBzip2(data, limit, Number.isFinite(limit) ? limit : data.length * 4);
  } catch (error) {
    if (!(error instanceof DecodeFailure)) throw error;
    if (error.problem === "too-large") throw decodedTooLarge("bz2", chunk, limit);
    throw new CodecError(`corrupt bz2 data${inChunk(chunk.key)}: ${error.message}`, {
      codecId: "bz2",
      key: chunk.key,
      cause: error,
    });
  }
}
