import {
  CodecError,
  decodedTooLarge,
  defineCodec,
  inChunk,
  integer,
  maxDecodedSize,
  requireBytes,
  withEncoder,
  type ChunkContext,
} from "@z/codecs/define";
import { corruptData } from "./errors.js";
import { kernelsUnavailable, loadKernels, readyKernels, release, reserve } from "./kernels.js";
import { lz4DecodeBlock, lz4Problem } from "./lz4-block.js";
import type { encodeLz4 } from "./lz4-encode.js";

/**
 * numcodecs `LZ4(acceleration=1)`: `{"id": "lz4", "acceleration": 1}`. numcodecs accepts any
 * integer and treats values of 0 or less as 1.
 */
export const lz4Config = { acceleration: integer({ default: 1 }) };

/**
 * numcodecs `LZ4`: the uncompressed size as a 4-byte little-endian integer, then one LZ4 block
 * (what `LZ4_compress_fast` writes and `LZ4_decompress_safe` reads).
 */
export const lz4 = defineCodec({
  id: "lz4",
  config: lz4Config,
  create: ({ acceleration }) => ({
    encode: (data, chunk) => {
      const bytes = requireBytes(data, "lz4", chunk);
      return withEncoder("lz4", "lz4", chunk, (m: { encodeLz4: typeof encodeLz4 }) => m.encodeLz4(bytes, acceleration));
    },
    decode: (data, chunk) => decodeLz4When(requireBytes(data, "lz4", chunk), chunk, undefined),
    decodeInto: (data, out, chunk) => {
      const decoded = decodeLz4When(requireBytes(data, "lz4", chunk), chunk, out);
      return decoded instanceof Promise ? decoded.then((d) => d.length) : decoded.length;
    },
  }),
});

/** Decodes now, or once the kernels have loaded when they are worth waiting for. */
function decodeLz4When(
  bytes: Uint8Array,
  chunk: ChunkContext,
  into: Uint8Array | undefined,
): Uint8Array | Promise<Uint8Array> {
  if (readyKernels() !== undefined || kernelsUnavailable() || bytes.length < 4096) return decodeLz4(bytes, chunk, into);
  return loadKernels().then(() => decodeLz4(bytes, chunk, into));
}

/** Decodes into `into` (from its start, returning that part of it) when given, else into new memory. */
function decodeLz4(data: Uint8Array, chunk: ChunkContext, into: Uint8Array | undefined): Uint8Array {
  if (data.length < 4) {
    throw corruptData("lz4", chunk, data.length === 0 ? "no data" : "unexpected end of data (truncated size header)");
  }
  const size = (data[0]! | (data[1]! << 8) | (data[2]! << 16) | (data[3]! << 24)) >>> 0;
  const limit = maxDecodedSize(chunk);
  if (size > limit) throw decodedTooLarge("lz4", chunk, limit);
  if (into !== undefined && size > into.length) {
    throw new CodecError(
      `lz4 data${inChunk(chunk.key)} decodes to ${size} bytes, more than the ${into.length} of the buffer given`,
      { codecId: "lz4", key: chunk.key },
    );
  }
  const kernels = readyKernels();
  let out: Uint8Array;
  let end: number;
  // The kernels pay off on compressible data; mostly-literal blocks are as fast in TypeScript.
  if (kernels !== undefined && size >= 4096 && data.length < 0.9 * size) {
    // Decode in the WebAssembly kernels' memory: input at the heap base, output after it.
    const inputSize = Math.ceil(data.length / 16) * 16;
    const memory = reserve(kernels, inputSize + size);
    const base = kernels.heapBase;
    memory.set(data, base);
    end = kernels.exports.lz4_decode(base + 4, data.length - 4, base + inputSize, size);
    out = into ?? new Uint8Array(end === size ? size : 0);
    if (end === size) out.set(memory.subarray(base + inputSize, base + inputSize + size));
    release(kernels);
  } else {
    out = into ?? new Uint8Array(size);
    end = lz4DecodeBlock(data, 4, data.length, out, 0, size);
  }
  if (end < 0) throw corruptData("lz4", chunk, lz4Problem(end));
  if (end !== size) {
    throw corruptData("lz4", chunk, `the header says ${size} bytes but the data decodes to ${end} (truncated?)`);
  }
  return into === undefined ? out : into.subarray(0, size);
}
