import type { ChunkContext, CodecData } from "./codec.js";
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
 * of the array. Decoders refuse to produce more (corrupt data or a decompression bomb) instead of
 * allocating without bound. `Infinity` when there is no such bound: object arrays, whose encoded
 * values have no fixed size, or a context without a usable size.
 */
export function maxDecodedSize(chunk: Pick<ChunkContext, "dtype" | "elements" | "itemsize" | "maxDecodedSize">): number {
  if (chunk.maxDecodedSize !== undefined) return chunk.maxDecodedSize;
  if (chunk.dtype?.kind === "O") return Infinity;
  const size = chunk.elements * chunk.itemsize;
  return Number.isFinite(size) && size >= 0 ? size : Infinity;
}

/** The `CodecError` for a decoder whose output would exceed `maxDecodedSize(chunk)`. */
export function decodedTooLarge(codecId: string, chunk: ChunkContext, limit: number = maxDecodedSize(chunk)): CodecError {
  return new CodecError(
    `${codecId} data${inChunk(chunk.key)} decodes to more than ${limit} bytes, the size of a chunk ` +
      `(${chunk.elements} elements of ${chunk.itemsize} bytes): corrupt data or a decompression bomb`,
    { codecId, key: chunk.key },
  );
}
