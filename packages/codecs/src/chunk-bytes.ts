import type { ChunkContext, CodecData } from "./codec.js";
import { MAX_CHUNK_BYTES } from "@z/meta";
import { CodecError, inChunk } from "./errors.js";

/**
 * The bytes of `data`, for codecs that work on bytes (compressors, byte filters). Typed arrays and
 * `DataView`s are viewed as bytes without copying; JS values (an object array before its object
 * codec) are refused with a `CodecError` naming the codec and the chunk.
 */
export function requireBytes(data: CodecData, codecId: string, chunk: Pick<ChunkContext, "key">): Uint8Array {
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const what = Array.isArray(data) ? `an array of ${data.length} values` : typeof data;
  throw new CodecError(
    `codec ${codecId} works on bytes but got ${what}${inChunk(chunk.key)} ` +
      `(an object array needs an object codec such as vlen-utf8 first in its filters)`,
    { codecId, key: chunk.key },
  );
}

/**
 * The most bytes a decoder may produce for this chunk: `elements * itemsize`, the size of one chunk
 * of the array (or `chunk.maxDecodedSize`), and never more than `MAX_CHUNK_BYTES` (from `@z/meta`),
 * the largest buffer a decoder may allocate. Decoders refuse to produce more (corrupt data or a
 * decompression bomb) instead of allocating without bound. `Infinity` when there is no such bound:
 * object arrays, whose encoded values have no fixed size, or a context without a usable size
 * (decoders then grow their output as they go, never allocating it up front).
 */
export function maxDecodedSize(
  chunk: Pick<ChunkContext, "dtype" | "elements" | "itemsize" | "maxDecodedSize">,
): number {
  if (chunk.maxDecodedSize !== undefined) return capped(chunk.maxDecodedSize);
  if (chunk.dtype?.kind === "O") return Infinity;
  const size = chunk.elements * chunk.itemsize;
  return Number.isFinite(size) && size >= 0 ? capped(size) : Infinity;
}

const capped = (size: number): number => (Number.isFinite(size) ? Math.min(size, MAX_CHUNK_BYTES) : size);

/** The `CodecError` for a decoder whose output would exceed `maxDecodedSize(chunk)`. */
export function decodedTooLarge(
  codecId: string,
  chunk: ChunkContext,
  limit: number = maxDecodedSize(chunk),
): CodecError {
  const what =
    limit === chunk.elements * chunk.itemsize
      ? `the size of a chunk (${chunk.elements} elements of ${chunk.itemsize} bytes)`
      : limit === MAX_CHUNK_BYTES
        ? "the most a decoder may allocate"
        : "the most this step of the pipeline may decode to";
  return new CodecError(
    `${codecId} data${inChunk(chunk.key)} decodes to more than ${limit} bytes, ${what}: corrupt data or a decompression bomb`,
    {
      codecId,
      key: chunk.key,
    },
  );
}

/**
 * Throws a `CodecError` when the chunk `chunk` describes is more than `MAX_CHUNK_BYTES` (from
 * metadata such as `chunks: [2**40, 16]`): decoding it would need a buffer that large. Object
 * arrays' chunks (no fixed size) pass.
 */
export function checkChunkContext(
  codecId: string,
  chunk: Pick<ChunkContext, "dtype" | "elements" | "itemsize" | "key">,
): void {
  if (chunk.dtype?.kind === "O") return;
  const bytes = chunk.elements * chunk.itemsize;
  if (!(bytes > MAX_CHUNK_BYTES)) return;
  throw new CodecError(
    `codec ${codecId} cannot decode${inChunk(chunk.key)}: a chunk of ${chunk.elements} elements of ${chunk.itemsize} bytes ` +
      `is more than the ${MAX_CHUNK_BYTES} bytes a chunk can have`,
    { codecId, key: chunk.key },
  );
}
