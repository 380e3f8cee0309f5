import { boolean, decodedTooLarge, defineCodec, integer, maxDecodedSize, optional, requireBytes, type ChunkContext } from "@z/codecs";
import { corruptData, MalformedInput, OutputTooLarge } from "./errors.js";
import { xxh64 } from "./xxhash64.js";
import { zstdDecode } from "./zstd-decode.js";
import { zstdCompress } from "./zstd-encode.js";

/**
 * numcodecs `Zstd(level=1)`: `{"id": "zstd", "level": 1}`. Newer numcodecs also writes
 * `"checksum": false|true`; it is accepted and written back only when given. numcodecs 0.11 takes
 * any integer level (it treats levels <= 0 as 1 and above 22 as 22); later versions pass levels
 * down to -131072 (zstd's fast levels) to libzstd.
 */
export const zstdConfig = {
  level: integer({ min: -131072, default: 1 }),
  checksum: optional(boolean()),
};

/**
 * numcodecs `Zstd`: one Zstandard frame with its content size (libzstd in WebAssembly, as
 * numcodecs 0.11 writes it; with `checksum: true` the frame carries a content checksum). Decoding
 * is this package's decoder: frames with or without a content size (as streaming writers such as
 * TensorStore produce), several frames, skippable frames, and content checksums, which are
 * verified.
 */
export const zstd = defineCodec({
  id: "zstd",
  config: zstdConfig,
  create: ({ level, checksum }) => ({
    encode: async (data, chunk) => encodeZstd(requireBytes(data, "zstd", chunk), level, checksum === true),
    decode: (data, chunk) => decodeZstd(requireBytes(data, "zstd", chunk), chunk),
  }),
});

async function encodeZstd(bytes: Uint8Array, level: number, checksum: boolean): Promise<Uint8Array> {
  const frame = await zstdCompress(bytes, level);
  if (!checksum) return frame;
  // Set the frame header's Content_Checksum_flag and append the low 32 bits of XXH64(content).
  const out = new Uint8Array(frame.length + 4);
  out.set(frame);
  out[4] = out[4]! | 4;
  const [, low] = xxh64(bytes);
  new DataView(out.buffer).setUint32(frame.length, low, true);
  return out;
}

function decodeZstd(data: Uint8Array, chunk: ChunkContext): Uint8Array {
  const limit = maxDecodedSize(chunk);
  try {
    return zstdDecode(data, limit);
  } catch (error) {
    if (error instanceof OutputTooLarge) throw decodedTooLarge("zstd", chunk, limit);
    if (error instanceof MalformedInput) throw corruptData("zstd", chunk, error.message, error);
    throw error;
  }
}
