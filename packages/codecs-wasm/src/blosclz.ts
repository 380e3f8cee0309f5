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

export const MAX_COPY = 32;
export const MAX_DISTANCE = 8191;
export const MAX_FAR_DISTANCE = 65535 + MAX_DISTANCE - 1;

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
