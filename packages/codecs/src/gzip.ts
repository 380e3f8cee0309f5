/**
 * `@z/codecs/gzip`: numcodecs' `GZip` codec (and its config declaration) alone, as a module a
 * registry loads when an array first uses it. The package's index has it too.
 *
 * @packageDocumentation
 */

import type { ChunkContext } from "./codec.js";
import { decodedTooLarge, maxDecodedSize, requireBytes } from "./chunk-bytes.js";
import { integer } from "./config-schema.js";
import { crc32, inflateInto, inflateRaw, InflateFailure, inflateWhole, readUint32LE } from "./deflate-stream.js";
import { defineCodec, withEncoder } from "./define-codec.js";
import { CodecError, inChunk } from "./errors.js";
import type { encodeGzip } from "./gzip-encode.js";

/** numcodecs `GZip(level=1)`: `{"id": "gzip", "level": 1}`; levels -1 (zlib's default, 6) to 9. */
export const gzipConfig = { level: integer({ min: -1, max: 9, default: 1 }) };

/**
 * numcodecs `GZip`: a gzip file (RFC 1952) as Python's `gzip.GzipFile` writes and reads it.
 *
 * Encoding writes a single member with the header Python writes for an unnamed file object (no
 * FNAME, XFL 4 for level 1 / 2 for level 9 / else 0, OS 255) except the mtime, which is 0 so that
 * equal chunks are equal bytes (numcodecs 0.11 writes the current time; later versions write 0).
 * Decoding reads what `GzipFile` reads: any number of members, each checked against its CRC-32 and
 * length, optional FEXTRA/FNAME/FCOMMENT/FHCRC header fields, zero padding after a member, and an
 * empty input as empty output; anything else after a member is an error.
 */
export const gzip = defineCodec({
  id: "gzip",
  config: gzipConfig,
  create: ({ level }) => ({
    encode: (data, chunk) => {
      const bytes = requireBytes(data, "gzip", chunk);
      return withEncoder("gzip", "gzip", chunk, (m: { encodeGzip: typeof encodeGzip }) => m.encodeGzip(bytes, level));
    },
    decode: (data, chunk) => decodeGzip(requireBytes(data, "gzip", chunk), chunk),
    decodeInto: (data, out, chunk) => decodeGzipInto(requireBytes(data, "gzip", chunk), out, chunk),
  }),
});

const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

function decodeGzip(data: Uint8Array, chunk: ChunkContext): Uint8Array {
  const corrupt = (detail: string, cause?: unknown): never => {
    throw new CodecError(`corrupt gzip data${inChunk(chunk.key)}: ${detail}`, {
      codecId: "gzip",
      key: chunk.key,
      cause,
    });
  };
  const limit = maxDecodedSize(chunk);
  const fail = (error: unknown, at = ""): never => {
    if (!(error instanceof InflateFailure)) throw error;
    if (error.problem === "too-large") throw decodedTooLarge("gzip", chunk, limit);
    return corrupt(error.message + at, error);
  };
  // CPython's GzipFile reads an empty file as no members: empty output.
  if (data.length === 0) return data.slice();
  if (data.length < 2 || data[0] !== 0x1f || data[1] !== 0x8b) corrupt("not gzip data (bad magic bytes)");
  const body = skipHeader(data, 0, corrupt);

  // Fast path: one member, whose trailer ends the input (as numcodecs writes it). The trailer's
  // length field sizes the output; another member would start with the magic bytes, so if they
  // appear anywhere after the header, take the exact path.
  // (A length over the limit means a bomb, or bytes after the member: the exact path tells which.)
  if (body + 8 <= data.length && !hasMagic(data, body) && readUint32LE(data, data.length - 4) <= limit) {
    const storedSize = readUint32LE(data, data.length - 4);
    let fast: { output: Uint8Array; overflow: boolean };
    try {
      fast = inflateWhole(data.subarray(body, data.length - 8), limit, storedSize);
    } catch (error) {
      return fail(error);
    }
    if (fast.overflow && storedSize === limit) throw decodedTooLarge("gzip", chunk, limit);
    if (
      !fast.overflow &&
      fast.output.length === storedSize &&
      crc32(fast.output) === readUint32LE(data, data.length - 8)
    ) {
      return fast.output;
    }
  }
  return decodeMembers(data, chunk, limit, corrupt, fail);
}

/**
 * `decode` into `out`: straight into it for one member whose trailer ends the input and whose
 * CRC-32 and length match what it wrote (as numcodecs writes chunks), else by `decode` and a copy,
 * which gives the same bytes or the same error.
 */
function decodeGzipInto(data: Uint8Array, out: Uint8Array, chunk: ChunkContext): number {
  const body = data.length >= 18 && data[0] === 0x1f && data[1] === 0x8b ? headerEnd(data) : undefined;
  if (body !== undefined && body + 8 <= data.length && !hasMagic(data, body)) {
    const storedSize = readUint32LE(data, data.length - 4);
    const written =
      storedSize <= out.length
        ? inflateInto(data.subarray(body, data.length - 8), out.subarray(0, storedSize))
        : undefined;
    if (
      written !== undefined &&
      written.length === storedSize &&
      crc32(written) === readUint32LE(data, data.length - 8)
    )
      return storedSize;
  }
  const decoded = decodeGzip(data, chunk);
  if (decoded.length > out.length) {
    throw new CodecError(
      `gzip data${inChunk(chunk.key)} decodes to ${decoded.length} bytes, more than the ${out.length} of the buffer given`,
      {
        codecId: "gzip",
        key: chunk.key,
      },
    );
  }
  out.set(decoded);
  return decoded.length;
}

/** Where the first member's DEFLATE data starts, or `undefined` if its header is malformed. */
function headerEnd(data: Uint8Array): number | undefined {
  try {
    return skipHeader(data, 0, (detail) => {
      throw new Error(detail);
    });
  } catch {
    return undefined;
  }
}

/** Whether the gzip magic and method (1f 8b 08) occur at or after `from`. */
function hasMagic(data: Uint8Array, from: number): boolean {
  for (let i = data.indexOf(0x1f, from); i !== -1 && i + 2 < data.length; i = data.indexOf(0x1f, i + 1)) {
    if (data[i + 1] === 0x8b && data[i + 2] === 8) return true;
  }
  return false;
}

/** The exact path: member by member, as CPython's `_GzipReader` reads them. */
function decodeMembers(
  data: Uint8Array,
  chunk: ChunkContext,
  limit: number,
  corrupt: (detail: string) => never,
  fail: (error: unknown, at?: string) => never,
): Uint8Array {
  const members: Uint8Array[] = [];
  let total = 0;
  let pos = 0;
  for (let member = 1; pos < data.length; member++) {
    const at = member === 1 ? "" : ` (member ${member}, offset ${pos})`;
    if (data.length - pos < 2 || data[pos] !== 0x1f || data[pos + 1] !== 0x8b) {
      corrupt(member === 1 ? "not gzip data (bad magic bytes)" : `unexpected bytes after the end of the data${at}`);
    }
    pos = skipHeader(data, pos, (detail) => corrupt(detail + at));
    let output: Uint8Array;
    let end: number;
    try {
      ({ output, end } = inflateRaw(data, pos, limit - total, chunk.signal));
    } catch (error) {
      return fail(error, at);
    }
    if (end + 8 > data.length) corrupt(`unexpected end of data (truncated CRC-32/length trailer)${at}`);
    const storedCrc = readUint32LE(data, end);
    const actualCrc = crc32(output);
    if (storedCrc !== actualCrc) {
      corrupt(`CRC-32 checksum mismatch (stored 0x${hex32(storedCrc)}, computed 0x${hex32(actualCrc)})${at}`);
    }
    const storedSize = readUint32LE(data, end + 4);
    if (storedSize !== output.length % 2 ** 32) {
      corrupt(`length mismatch (stored ${storedSize}, decoded ${output.length} bytes)${at}`);
    }
    members.push(output);
    total += output.length;
    pos = end + 8;
    // CPython's GzipFile skips zero padding after a member.
    while (pos < data.length && data[pos] === 0) pos++;
  }
  if (members.length === 1) return members[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of members) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Returns the offset of the DEFLATE data after the member header at `pos` (magic already checked). */
function skipHeader(data: Uint8Array, pos: number, corrupt: (detail: string) => never): number {
  const truncated = () => corrupt("unexpected end of data (truncated header)");
  if (pos + 10 > data.length) truncated();
  if (data[pos + 2] !== 8) corrupt(`unknown compression method ${data[pos + 2]} (only 8, deflate, exists)`);
  const flags = data[pos + 3]!;
  pos += 10;
  if (flags & FEXTRA) {
    if (pos + 2 > data.length) truncated();
    pos += 2 + (data[pos]! | (data[pos + 1]! << 8));
    if (pos > data.length) truncated();
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (flags & flag) {
      while (pos < data.length && data[pos] !== 0) pos++;
      if (pos >= data.length) truncated();
      pos++;
    }
  }
  if (flags & FHCRC) {
    pos += 2; // CPython skips the header CRC without checking it; so do we.
    if (pos > data.length) truncated();
  }
  return pos;
}

function hex32(value: number): string {
  return value.toString(16).padStart(8, "0");
}
