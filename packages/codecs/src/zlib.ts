/**
 * `@z/codecs/zlib`: numcodecs' `Zlib` codec (and its config declaration) alone, as a module a
 * registry loads when an array first uses it. The package's index has it too.
 *
 * @packageDocumentation
 */

import type { ChunkContext } from "./codec.js";
import { decodedTooLarge, maxDecodedSize, requireBytes } from "./chunk-bytes.js";
import { integer } from "./config-schema.js";
import { adler32, inflateInto, inflateRaw, InflateFailure, inflateWhole, readUint32BE } from "./deflate-stream.js";
import { defineCodec, withEncoder } from "./define-codec.js";
import { CodecError, inChunk } from "./errors.js";
import type { encodeZlib } from "./zlib-encode.js";

/** numcodecs `Zlib(level=1)`: `{"id": "zlib", "level": 1}`; zlib accepts levels -1 (its default, 6) to 9. */
export const zlibConfig = { level: integer({ min: -1, max: 9, default: 1 }) };

/**
 * numcodecs `Zlib`: a zlib stream (RFC 1950), as Python's `zlib.compress(buf, level)` writes and
 * `zlib.decompress(buf)` reads. Encoding uses fflate, so the compressed bytes differ from zlib's
 * (the two header bytes match); any inflater reads them.
 */
export const zlib = defineCodec({
  id: "zlib",
  config: zlibConfig,
  create: ({ level }) => ({
    encode: (data, chunk) => {
      const bytes = requireBytes(data, "zlib", chunk);
      return withEncoder("zlib", "zlib", chunk, (m: { encodeZlib: typeof encodeZlib }) => m.encodeZlib(bytes, level));
    },
    decode: (data, chunk) => decodeZlib(requireBytes(data, "zlib", chunk), chunk),
    decodeInto: (data, out, chunk) => decodeZlibInto(requireBytes(data, "zlib", chunk), out, chunk),
  }),
});

function decodeZlib(data: Uint8Array, chunk: ChunkContext): Uint8Array {
  const corrupt = (detail: string, cause?: unknown): never => {
    throw new CodecError(`corrupt zlib data${inChunk(chunk.key)}: ${detail}`, {
      codecId: "zlib",
      key: chunk.key,
      cause,
    });
  };
  if (data.length < 2) corrupt(data.length === 0 ? "no data" : "unexpected end of data (truncated header)");
  const cmf = data[0]!;
  const flg = data[1]!;
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0) {
    corrupt(`invalid header 0x${hex(cmf)}${hex(flg)} (not zlib data)`);
  }
  if (flg & 0x20) corrupt("the stream needs a preset dictionary, which numcodecs never writes");

  const limit = maxDecodedSize(chunk);
  const fail = (error: unknown): never => {
    if (!(error instanceof InflateFailure)) throw error;
    if (error.problem === "too-large") throw decodedTooLarge("zlib", chunk, limit);
    return corrupt(error.message, error);
  };
  if (data.length < 6) corrupt("unexpected end of data (truncated)");

  // Fast path: the stream fills the input up to its 4-byte Adler-32 trailer (as zlib writes it).
  let fast: { output: Uint8Array; overflow: boolean };
  try {
    fast = inflateWhole(data.subarray(2, data.length - 4), limit);
  } catch (error) {
    return fail(error);
  }
  if (fast.overflow) throw decodedTooLarge("zlib", chunk, limit);
  const actual = adler32(fast.output);
  if (actual === readUint32BE(data, data.length - 4)) return fast.output;

  // Otherwise find where the stream really ends: Python's zlib.decompress ignores bytes after the
  // trailer, so a stream followed by other bytes is fine if its own trailer matches.
  let end: number;
  try {
    ({ end } = inflateRaw(data, 2, limit, chunk.signal));
  } catch (error) {
    return fail(error);
  }
  if (end + 4 > data.length) corrupt("unexpected end of data (truncated Adler-32 trailer)");
  const stored = readUint32BE(data, end);
  if (stored !== actual) corrupt(`Adler-32 checksum mismatch (stored 0x${hex32(stored)}, computed 0x${hex32(actual)})`);
  return fast.output;
}

/**
 * `decode` into `out`: straight into it when the stream fills the input up to its trailer and the
 * Adler-32 of what it wrote matches (as zlib writes chunks), else by `decode` and a copy, which
 * gives the same bytes or the same error.
 */
function decodeZlibInto(data: Uint8Array, out: Uint8Array, chunk: ChunkContext): number {
  if (data.length >= 6 && isZlibHeader(data[0]!, data[1]!)) {
    const written = inflateInto(data.subarray(2, data.length - 4), out);
    if (written !== undefined && adler32(written) === readUint32BE(data, data.length - 4)) return written.length;
  }
  const decoded = decodeZlib(data, chunk);
  if (decoded.length > out.length) {
    throw new CodecError(
      `zlib data${inChunk(chunk.key)} decodes to ${decoded.length} bytes, more than the ${out.length} of the buffer given`,
      {
        codecId: "zlib",
        key: chunk.key,
      },
    );
  }
  out.set(decoded);
  return decoded.length;
}

/** A zlib header without a preset dictionary, as `decodeZlib` accepts. */
const isZlibHeader = (cmf: number, flg: number): boolean =>
  (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0 && (flg & 0x20) === 0;

function hex(byte: number): string {
  return byte.toString(16).padStart(2, "0");
}

function hex32(value: number): string {
  return value.toString(16).padStart(8, "0");
}
