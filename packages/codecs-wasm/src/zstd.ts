import {
  boolean,
  CodecError,
  decodedTooLarge,
  defineCodec,
  inChunk,
  integer,
  maxDecodedSize,
  optional,
  requireBytes,
  withEncoder,
  type ChunkContext,
} from "@z/codecs/define";
import { corruptData, MalformedInput, OutputTooLarge } from "./errors.js";
import {
  kernelsUnavailable,
  loadKernels,
  readyKernels,
  release,
  reserve,
  ZSTD_READ_SLACK,
  type Kernels,
} from "./kernels.js";
import { declaredContentSize, zstdDecode } from "./zstd-decode.js";
import type { encodeZstd } from "./zstd-encode.js";
import { NO_CONTENT_SIZE, zstdDecodeIn, zstdProblem } from "./zstd-wasm.js";

/**
 * numcodecs `Zstd(level=1)`: `{"id": "zstd", "level": 1}`. Newer numcodecs also writes
 * `"checksum": false|true`; it is accepted and written back only when given. numcodecs 0.11 takes
 * any integer level (it treats levels of 0 or less as 1 and above 22 as 22); later versions pass levels
 * down to -131072 (zstd's fast levels) to libzstd.
 */
export const zstdConfig = {
  level: integer({ min: -131072, default: 1 }),
  checksum: optional(boolean()),
};

/**
 * numcodecs `Zstd`: one Zstandard frame with its content size (libzstd in WebAssembly, as
 * numcodecs 0.11 writes it; with `checksum: true` the frame carries a content checksum). Decoding
 * is this package's decoder (in WebAssembly where it loads, else in TypeScript): frames with or
 * without a content size (as streaming writers such as TensorStore produce), several frames,
 * skippable frames, and content checksums, which are verified. `decodeInto` decodes into the
 * caller's buffer.
 */
export const zstd = defineCodec({
  id: "zstd",
  config: zstdConfig,
  create: ({ level, checksum }) => ({
    encode: (data, chunk) => {
      const bytes = requireBytes(data, "zstd", chunk);
      return withEncoder("zstd", "zstd", chunk, (m: { encodeZstd: typeof encodeZstd }) =>
        m.encodeZstd(bytes, level, checksum === true),
      );
    },
    decode: (data, chunk) => decodeZstd(requireBytes(data, "zstd", chunk), chunk),
    decodeInto: (data, out, chunk) => decodeZstdInto(requireBytes(data, "zstd", chunk), out, chunk),
  }),
});

function decodeZstd(data: Uint8Array, chunk: ChunkContext, into?: Uint8Array): Uint8Array | Promise<Uint8Array> {
  const kernels = readyKernels(true);
  if (kernels === undefined && !kernelsUnavailable(true))
    return loadKernels(true).then(() => decodeZstd(data, chunk, into));
  const limit = maxDecodedSize(chunk);
  try {
    const declared = declaredContentSize(data, limit);
    if (into !== undefined && declared > into.length) {
      throw bufferTooSmall(chunk, declared, into.length);
    }
    const decoded =
      (kernels !== undefined && declared >= 0 && decodeInKernels(kernels, data, declared, into)) ||
      zstdDecode(data, limit);
    if (into === undefined || decoded.buffer === into.buffer) return decoded;
    if (decoded.length > into.length) {
      throw bufferTooSmall(chunk, decoded.length, into.length);
    }
    into.set(decoded);
    return into.subarray(0, decoded.length);
  } catch (error) {
    if (error instanceof OutputTooLarge) throw decodedTooLarge("zstd", chunk, limit);
    if (error instanceof MalformedInput) throw corruptData("zstd", chunk, error.message, error);
    throw error;
  }
}

const bufferTooSmall = (chunk: ChunkContext, size: number, room: number) =>
  new CodecError(`zstd data${inChunk(chunk.key)} decodes to ${size} bytes, more than the ${room} of the buffer given`, {
    codecId: "zstd",
    key: chunk.key,
  });

function decodeZstdInto(data: Uint8Array, out: Uint8Array, chunk: ChunkContext): number | Promise<number> {
  const decoded = decodeZstd(data, chunk, out);
  return decoded instanceof Promise ? decoded.then((d) => d.length) : decoded.length;
}

const align = (n: number) => Math.ceil(n / 16) * 16;

/**
 * Decodes frames that declare `size` bytes in all in the kernels' memory, into `into` when given.
 * Returns `undefined` when the kernels cannot take them (memory that cannot grow so far, a frame
 * without its content size): the TypeScript decoder does.
 */
function decodeInKernels(
  kernels: Kernels,
  data: Uint8Array,
  size: number,
  into: Uint8Array | undefined,
): Uint8Array | undefined {
  let memory: Uint8Array;
  try {
    memory = reserve(kernels, align(data.length) + align(size) + ZSTD_READ_SLACK);
  } catch {
    return undefined;
  }
  try {
    const input = memory.subarray(kernels.heapBase, kernels.heapBase + data.length);
    input.set(data);
    const outAt = kernels.heapBase + align(data.length);
    const r = zstdDecodeIn(kernels, input, 0, data.length, memory, outAt, size);
    if (r === NO_CONTENT_SIZE) return undefined;
    if (r < 0) throw new MalformedInput(zstdProblem(r));
    if (r !== size) throw new MalformedInput(`the frames decode to ${r} bytes but declare ${size}`);
    const decoded = memory.subarray(outAt, outAt + size);
    if (into === undefined) return decoded.slice();
    into.set(decoded);
    return into.subarray(0, size);
  } finally {
    release(kernels);
  }
}
