/*
 * The 32-bit checksum codecs (crc32, crc32c, adler32, fletcher32, jenkins_lookup3): the checksum functions
 * and the framing they share. Internal to the package; each codec has its own module.
 */
import type { ChunkContext, CodecData } from "./codec.js";
import { requireBytes } from "./chunk-bytes.js";
import { optional, string } from "./config-schema.js";
import type { CodecImplementation } from "./define-codec.js";
import { CodecError, inChunk } from "./errors.js";

/**
 * The 8 tables of slicing-by-8 for a reflected CRC-32 polynomial: table 0 is the byte-at-a-time
 * table, table `k` advances a byte's contribution past `k` more zero bytes. 8 KiB each.
 */
function slicingTables(poly: number): Uint32Array {
  const t = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? poly ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n]!;
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff]! ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
}

/**
 * A reflected CRC-32 (initial value and final xor 0xffffffff) with slicing-by-8: 8 bytes per step,
 * read byte by byte so it works at any offset and in any runtime (several times faster than a
 * byte at a time).
 */
function crc32Sliced(t: Uint32Array, data: Uint8Array): number {
  let crc = 0xffffffff;
  const n = data.length;
  let i = 0;
  for (const end = n - 7; i < end; i += 8) {
    const a = crc ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24));
    const b = data[i + 4]! | (data[i + 5]! << 8) | (data[i + 6]! << 16) | (data[i + 7]! << 24);
    crc =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + (b & 0xff)]! ^
      t[512 + ((b >>> 8) & 0xff)]! ^
      t[256 + ((b >>> 16) & 0xff)]! ^
      t[b >>> 24]!;
  }
  for (; i < n; i++) crc = t[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

let crcTables: Uint32Array | undefined;
let crc32cTables: Uint32Array | undefined;

/** CRC-32 (ISO-HDLC, polynomial 0x04c11db7 reflected, as zlib's `crc32`). */
export function crc32(data: Uint8Array): number {
  return crc32Sliced((crcTables ??= slicingTables(0xedb88320)), data);
}

/**
 * CRC-32C (Castagnoli, polynomial 0x1edc6f41 reflected, as iSCSI, ext4 and google-crc32c compute
 * it; numcodecs' `crc32c` and Zarr v3's checksum codec). `crc32c("123456789")` is 0xe3069283.
 */
export function crc32c(data: Uint8Array): number {
  return crc32Sliced((crc32cTables ??= slicingTables(0x82f63b78)), data);
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
    let run = Math.min(words, 360);
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
    a = (a - c) | 0;
    a ^= rot(c, 4);
    c = (c + b) | 0;
    b = (b - a) | 0;
    b ^= rot(a, 6);
    a = (a + c) | 0;
    c = (c - b) | 0;
    c ^= rot(b, 8);
    b = (b + a) | 0;
    a = (a - c) | 0;
    a ^= rot(c, 16);
    c = (c + b) | 0;
    b = (b - a) | 0;
    b ^= rot(a, 19);
    a = (a + c) | 0;
    c = (c - b) | 0;
    c ^= rot(b, 4);
    b = (b + a) | 0;
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
  c ^= b;
  c = (c - rot(b, 14)) | 0;
  a ^= c;
  a = (a - rot(c, 11)) | 0;
  b ^= a;
  b = (b - rot(a, 25)) | 0;
  c ^= b;
  c = (c - rot(b, 16)) | 0;
  a ^= c;
  a = (a - rot(c, 4)) | 0;
  b ^= a;
  b = (b - rot(a, 14)) | 0;
  c ^= b;
  c = (c - rot(b, 24)) | 0;
  return c >>> 0;
}

/** Where the 4 checksum bytes go (the `location` of numcodecs 0.13 and later; 0.11 always puts them first). */
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
