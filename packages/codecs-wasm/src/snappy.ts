/*
 * Snappy raw format (what snappy_compress writes and snappy_uncompress reads), written for this
 * package from the format description: a varint of the uncompressed length, then elements whose
 * tag's low 2 bits say what they are: 0 literal (length - 1 in the upper 6 bits, or 60-63 for 1-4
 * more length bytes), 1 copy of 4-11 bytes with an 11-bit offset, 2 copy of 1-64 bytes with a
 * 16-bit offset, 3 the same with a 32-bit offset.
 */

/**
 * Decodes the Snappy stream `src[srcStart, srcEnd)` into `dst` from `dstStart`, refusing more than
 * `maxLength` bytes of output. Returns the number of bytes decoded, or -1 for malformed input
 * (truncated, a bad offset, output not matching the stated length or above `maxLength`).
 */
export function snappyDecode(
  src: Uint8Array,
  srcStart: number,
  srcEnd: number,
  dst: Uint8Array,
  dstStart: number,
  maxLength: number,
): number {
  let ip = srcStart;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (ip >= srcEnd || shift > 28) return -1;
    const b = src[ip++]!;
    length += (b & 127) * 2 ** shift;
    if (b < 128) break;
  }
  if (length > maxLength) return -1;
  const end = dstStart + length;
  let op = dstStart;
  while (ip < srcEnd) {
    const tag = src[ip++]!;
    const kind = tag & 3;
    if (kind === 0) {
      let n = tag >>> 2;
      if (n >= 60) {
        const bytes = n - 59;
        if (ip + bytes > srcEnd) return -1;
        n = 0;
        for (let i = 0; i < bytes; i++) n += src[ip + i]! * 2 ** (8 * i);
        ip += bytes;
      }
      n += 1;
      if (n > srcEnd - ip || n > end - op) return -1;
      if (n < 24) {
        for (let i = 0; i < n; i++) dst[op++] = src[ip++]!;
      } else {
        dst.set(src.subarray(ip, ip + n), op);
        op += n;
        ip += n;
      }
      continue;
    }
    let n: number;
    let offset: number;
    if (kind === 1) {
      if (ip >= srcEnd) return -1;
      n = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[ip++]!;
    } else if (kind === 2) {
      if (ip + 2 > srcEnd) return -1;
      n = (tag >>> 2) + 1;
      offset = src[ip]! | (src[ip + 1]! << 8);
      ip += 2;
    } else {
      if (ip + 4 > srcEnd) return -1;
      n = (tag >>> 2) + 1;
      offset = (src[ip]! | (src[ip + 1]! << 8) | (src[ip + 2]! << 16) | (src[ip + 3]! << 24)) >>> 0;
      ip += 4;
    }
    if (offset === 0 || offset > op - dstStart || n > end - op) return -1;
    let m = op - offset;
    const stop = op + n;
    while (op < stop) dst[op++] = dst[m++]!;
  }
  return op === end ? length : -1;
}

/** The most bytes `snappyEncode` writes for `n` input bytes (snappy_max_compressed_length). */
export function snappyBound(n: number): number {
  return 32 + n + Math.floor(n / 6);
}
