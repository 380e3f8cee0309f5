/*
 * The 32-bit checksum codecs (crc32, adler32, fletcher32, jenkins_lookup3): the checksum functions
 * and the framing they share. Internal to the package; each codec has its own module.
 */
import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { optional, string } from "./config-schema.js";
import type { CodecImplementation } from "./define-codec.js";
import { CodecError, inChunk } from "./errors.js";

let crcTable: Uint32Array | undefined;

/** CRC-32 (ISO-HDLC, as zlib's `crc32`). */
export function crc32(data: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const table = crcTable;
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Adler-32 (as zlib's `adler32`). */
export function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  // 5552 bytes is the longest run whose sums cannot overflow before the modulo (zlib's NMAX).
  for (let start = 0; start < data.length; start += 5552) {
    const end = Math.min(start + 5552, data.length);
    for (let i = start; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * Fletcher-32 as HDF5 (and netCDF-C, and numcodecs >= 0.12) compute it: 16-bit big-endian words,
 * sums folded every 360 words, an odd last byte taken as the high byte of a word.
 */
export function fletcher32(data: Uint8Array): number {
  let sum1 = 0;
  let sum2 = 0;
  let words = data.length >>> 1;
  let i = 0;
  while (words > 0) {
    let run = words > 360 ? 360 : words;
    words -= run;
    do {
      sum1 += (data[i]! << 8) | data[i + 1]!;
      i += 2;
      sum2 += sum1;
    } while (--run);
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  if (data.length % 2 === 1) {
    sum1 += data[i]! << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  return ((sum2 << 16) | sum1) >>> 0;
}

const rot = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

/** Bob Jenkins' lookup3 `hashlittle` (as HDF5's `H5_checksum_lookup3`), seeded with `initval`. */
export function lookup3Hash(data: Uint8Array, initval = 0): number {
  let length = data.length;
  let a = (0xdeadbeef + length + initval) | 0;
  let b = a;
  let c = a;
  if (length === 0) return c >>> 0;
  let k = 0;
  const word = (at: number) => data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24);
  while (length > 12) {
    a = (a + word(k)) | 0;
    b = (b + word(k + 4)) | 0;
    c = (c + word(k + 8)) | 0;
    // mix(a, b, c)
    a = (a - c) | 0; a ^= rot(c, 4); c = (c + b) | 0;
    b = (b - a) | 0; b ^= rot(a, 6); a = (a + c) | 0;
    c = (c - b) | 0; c ^= rot(b, 8); b = (b + a) | 0;
    a = (a - c) | 0; a ^= rot(c, 16); c = (c + b) | 0;
    b = (b - a) | 0; b ^= rot(a, 19); a = (a + c) | 0;
    c = (c - b) | 0; c ^= rot(b, 4); b = (b + a) | 0;
    length -= 12;
    k += 12;
  }
  // The last 1 to 12 bytes, little-endian into a, b, c (the switch with fall-through of lookup3.c).
  const tail = [0, 0, 0];
  for (let j = 0; j < length; j++) tail[j >> 2]! += data[k + j]! << ((j & 3) * 8);
  a = (a + tail[0]!) | 0;
  b = (b + tail[1]!) | 0;
  c = (c + tail[2]!) | 0;
  // final(a, b, c)
  c ^= b; c = (c - rot(b, 14)) | 0;
  a ^= c; a = (a - rot(c, 11)) | 0;
  b ^= a; b = (b - rot(a, 25)) | 0;
  c ^= b; c = (c - rot(b, 16)) | 0;
  a ^= c; a = (a - rot(c, 4)) | 0;
  b ^= a; b = (b - rot(a, 14)) | 0;
  c ^= b; c = (c - rot(b, 24)) | 0;
  return c >>> 0;
}

/** Where the 4 checksum bytes go (numcodecs >= 0.13's `location`; 0.11 always puts them first). */
export type ChecksumLocation = "start" | "end";

/** The optional `location` parameter of numcodecs >= 0.13's crc32 and adler32 (0.11 has none). */
export const locationField = optional(string({ enum: ["start", "end"] }));

/**
 * The encode/decode pair of a checksum codec: the data with its little-endian 32-bit checksum at
 * `location`; decoding checks it and throws a CodecError naming the codec and chunk on mismatch.
 */
export function checksumCodec(
  id: string,
  checksum: (data: Uint8Array) => number,
  location: ChecksumLocation,
): CodecImplementation {
  return {
    encode(data: CodecData, chunk: ChunkContext) {
      const bytes = requireBytes(data, id, chunk);
      const out = new Uint8Array(bytes.length + 4);
      const at = location === "start" ? 0 : bytes.length;
      out.set(bytes, location === "start" ? 4 : 0);
      new DataView(out.buffer).setUint32(at, checksum(bytes), true);
      return out;
    },
    decode(data: CodecData, chunk: ChunkContext) {
      const bytes = requireBytes(data, id, chunk);
      if (bytes.length < 4) {
        throw new CodecError(
          `corrupt ${id} data${inChunk(chunk.key)}: ${bytes.length} bytes are too few to hold a 4-byte checksum`,
          { codecId: id, key: chunk.key },
        );
      }
      const payload = location === "start" ? bytes.subarray(4) : bytes.subarray(0, bytes.length - 4);
      const at = location === "start" ? 0 : bytes.length - 4;
      const stored = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, true);
      const computed = checksum(payload);
      if (stored !== computed) {
        throw new CodecError(
          `${id} checksum mismatch${inChunk(chunk.key)}: stored 0x${hex(stored)}, computed 0x${hex(computed)} ` +
            `(the chunk is corrupt)`,
          { codecId: id, key: chunk.key },
        );
      }
      return payload.slice();
    },
  };
}

function hex(value: number): string {
  return value.toString(16).padStart(8, "0");
}
