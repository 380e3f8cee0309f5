/*
 * BloscLZ (c-blosc's own LZ77 codec, format version 1), written for this package from the format:
 *
 * - a control byte below 32 starts a literal run of `ctrl + 1` bytes (the stream's first control
 *   byte has bit 5 set as a marker, which readers mask off);
 * - otherwise it is a match: `len = ctrl >> 5` (7 means more length bytes follow, each added, until
 *   one is not 255), the distance's high 5 bits are `ctrl & 31`, and the next byte is its low byte.
 *   A match copies `len + 2` bytes from `distance + 1` bytes back. A distance of `31 << 8 | 255`
 *   means two more bytes (big-endian) hold a far distance, to which 8191 is added.
 * - c-blosc's reader stops when the input ends right after a match's header, without copying the
 *   match, so a stream always ends with a literal run.
 */

const MAX_COPY = 32;
const MAX_DISTANCE = 8191;
const MAX_FAR_DISTANCE = 65535 + MAX_DISTANCE - 1;

/**
 * Decodes BloscLZ `src[srcStart, srcEnd)` into `dst[dstStart, dstEnd)` as c-blosc's
 * `blosclz_decompress` does; returns the end of the output, or -1 for malformed input (a match
 * before the start of the output, or output past `dstEnd`).
 */
export function blosclzDecode(
  src: Uint8Array,
  srcStart: number,
  srcEnd: number,
  dst: Uint8Array,
  dstStart: number,
  dstEnd: number,
): number {
  let ip = srcStart;
  let op = dstStart;
  if (ip >= srcEnd) return op;
  let ctrl = src[ip++]! & 31;
  for (;;) {
    if (ctrl >= 32) {
      let length = (ctrl >>> 5) - 1;
      let offset = (ctrl & 31) << 8;
      if (length === 6) {
        let code: number;
        do {
          if (ip + 1 >= srcEnd) return -1;
          code = src[ip++]!;
          length += code;
        } while (code === 255);
      } else if (ip + 1 >= srcEnd) {
        return -1;
      }
      const code = src[ip++]!;
      length += 3;
      let distance = offset + code;
      if (code === 255 && offset === 31 << 8) {
        if (ip + 1 >= srcEnd) return -1;
        offset = (src[ip]! << 8) | src[ip + 1]!;
        ip += 2;
        distance = offset + MAX_DISTANCE;
      }
      distance += 1;
      if (length > dstEnd - op) return -1;
      if (distance > op - dstStart) return -1;
      if (ip >= srcEnd) break;
      ctrl = src[ip++]!;
      let m = op - distance;
      if (distance === 1) {
        dst.fill(dst[m]!, op, op + length);
        op += length;
      } else if (distance >= length && length >= 32) {
        dst.copyWithin(op, m, m + length);
        op += length;
      } else {
        const end = op + length;
        while (op < end) dst[op++] = dst[m++]!;
      }
    } else {
      const length = ctrl + 1;
      if (length > dstEnd - op) return -1;
      if (length > srcEnd - ip) return -1;
      for (let i = 0; i < length; i++) dst[op++] = src[ip++]!;
      if (ip >= srcEnd) break;
      ctrl = src[ip++]!;
    }
  }
  return op;
}

/** The most bytes `blosclzEncode` can write for `n` input bytes. */
export function blosclzBound(n: number): number {
  return n + Math.ceil(n / MAX_COPY) + 16;
}

const HASH_LOG = 14;
let table = new Int32Array(1 << HASH_LOG);

function read32(a: Uint8Array, i: number): number {
  return a[i]! | (a[i + 1]! << 8) | (a[i + 2]! << 16) | (a[i + 3]! << 24);
}

/**
 * Compresses `src[srcStart, srcEnd)` as a BloscLZ stream into `dst` from `dstStart` (room for
 * `blosclzBound(n)` bytes) and returns the end of the output. A greedy single-hash matcher; with
 * `minLength` 3 or 4 (c-blosc uses 4 for split streams of compressible data, else 3).
 */
export function blosclzEncode(
  src: Uint8Array,
  srcStart: number,
  srcEnd: number,
  dst: Uint8Array,
  dstStart: number,
  minLength = 4,
): number {
  let op = dstStart;
  let anchor = srcStart;
  const n = srcEnd - srcStart;
  const literalsUpTo = (end: number): void => {
    while (anchor < end) {
      const run = Math.min(MAX_COPY, end - anchor);
      dst[op++] = run - 1;
      for (let i = 0; i < run; i++) dst[op++] = src[anchor++]!;
    }
  };
  if (n >= 16) {
    if (table.length < 1 << HASH_LOG) table = new Int32Array(1 << HASH_LOG);
    const shift = 32 - HASH_LOG;
    table.fill(-1);
    // Matches stop 12 bytes before the end so the stream ends with literals.
    const limit = srcEnd - 12;
    const matchEnd = srcEnd - 4;
    let ip = srcStart + 1;
    while (ip < limit) {
      const seq = read32(src, ip);
      const h = Math.imul(seq, 2654435761) >>> shift;
      const ref = table[h]!;
      table[h] = ip;
      const distance = ip - ref;
      if (ref < 0 || distance > MAX_FAR_DISTANCE || read32(src, ref) !== seq) {
        ip++;
        continue;
      }
      let a = ip + 4;
      let b = ref + 4;
      while (a < matchEnd && src[a] === src[b]) {
        a++;
        b++;
      }
      const length = a - ip;
      if (length < minLength || (distance > MAX_DISTANCE && length < 6)) {
        ip++;
        continue;
      }
      literalsUpTo(ip);
      // Encode `length` bytes from `distance` back: len field = length - 2, distance field = distance - 1.
      const d = distance - 1;
      let len = length - 2;
      if (d < MAX_DISTANCE) {
        if (len < 7) {
          dst[op++] = (len << 5) + (d >>> 8);
        } else {
          dst[op++] = (7 << 5) + (d >>> 8);
          for (len -= 7; len >= 255; len -= 255) dst[op++] = 255;
          dst[op++] = len;
        }
        dst[op++] = d & 255;
      } else {
        const far = d - MAX_DISTANCE;
        if (len < 7) {
          dst[op++] = (len << 5) + 31;
        } else {
          dst[op++] = (7 << 5) + 31;
          for (len -= 7; len >= 255; len -= 255) dst[op++] = 255;
          dst[op++] = len;
        }
        dst[op++] = 255;
        dst[op++] = far >>> 8;
        dst[op++] = far & 255;
      }
      ip += length;
      anchor = ip;
      if (ip < limit) {
        table[Math.imul(read32(src, ip - 1), 2654435761) >>> shift] = ip - 1;
      }
    }
  }
  literalsUpTo(srcEnd);
  // The first control byte carries BloscLZ's marker bit; a stream starting with a match cannot
  // occur (matches start at 1 or later, after a literal).
  if (dstStart < op) dst[dstStart] = dst[dstStart]! | (1 << 5);
  return op;
}
