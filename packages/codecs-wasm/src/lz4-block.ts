/*
 * LZ4 block format (as LZ4_compress_fast / LZ4_compress_HC write it and LZ4_decompress_safe reads
 * it): a sequence of [token][literal length extension][literals][2-byte offset][match length
 * extension], the last sequence being literals only. Written for this package from the format
 * description; no code of the reference library.
 */

/** The most bytes an LZ4 block of `n` input bytes can take (LZ4_compressBound). */
export function lz4Bound(n: number): number {
  return n + Math.floor(n / 255) + 16;
}

/** Decoder failures (negative results of `lz4DecodeBlock`). */
export const LZ4_TRUNCATED = -1;
export const LZ4_OVERFLOW = -2;
export const LZ4_BAD_OFFSET = -3;

/** A message for a negative `lz4DecodeBlock` result. */
export function lz4Problem(code: number): string {
  switch (code) {
    case LZ4_TRUNCATED:
      return "unexpected end of LZ4 data";
    case LZ4_OVERFLOW:
      return "LZ4 data decodes to more bytes than expected";
    default:
      return "LZ4 match offset points before the start of the output";
  }
}

/**
 * Decodes the LZ4 block `src[srcStart, srcEnd)` into `dst[dstStart, dstEnd)`. Returns the end of the
 * output written (so `result - dstStart` bytes), or a negative `LZ4_*` code when the block is
 * truncated, would write past `dstEnd`, or refers to bytes before `dstStart`. Never reads or writes
 * outside the given ranges; runs in time linear in input plus output.
 */
export function lz4DecodeBlock(
  src: Uint8Array,
  srcStart: number,
  srcEnd: number,
  dst: Uint8Array,
  dstStart: number,
  dstEnd: number,
): number {
  let ip = srcStart;
  let op = dstStart;
  for (;;) {
    if (ip >= srcEnd) return LZ4_TRUNCATED;
    const token = src[ip++]!;
    let literals = token >>> 4;
    if (literals === 15) {
      let b: number;
      do {
        if (ip >= srcEnd) return LZ4_TRUNCATED;
        b = src[ip++]!;
        literals += b;
      } while (b === 255);
    }
    if (literals !== 0) {
      if (literals > srcEnd - ip) return LZ4_TRUNCATED;
      if (literals > dstEnd - op) return LZ4_OVERFLOW;
      if (literals < 24) {
        const end = op + literals;
        while (op < end) dst[op++] = src[ip++]!;
      } else {
        dst.set(src.subarray(ip, ip + literals), op);
        op += literals;
        ip += literals;
      }
    }
    if (ip === srcEnd) return op;
    if (ip + 2 > srcEnd) return LZ4_TRUNCATED;
    const offset = src[ip]! | (src[ip + 1]! << 8);
    ip += 2;
    if (offset === 0 || offset > op - dstStart) return LZ4_BAD_OFFSET;
    let length = (token & 15) + 4;
    if (length === 19) {
      let b: number;
      do {
        if (ip >= srcEnd) return LZ4_TRUNCATED;
        b = src[ip++]!;
        length += b;
      } while (b === 255);
    }
    if (length > dstEnd - op) return LZ4_OVERFLOW;
    let m = op - offset;
    if (offset >= length) {
      if (length < 32) {
        const end = op + length;
        while (op < end) dst[op++] = dst[m++]!;
      } else {
        dst.copyWithin(op, m, m + length);
        op += length;
      }
    } else if (offset === 1) {
      dst.fill(dst[m]!, op, op + length);
      op += length;
    } else {
      // Overlapping copy: repeats the last `offset` bytes. Copy in doubling runs.
      const end = op + length;
      if (length < 64) {
        while (op < end) dst[op++] = dst[m++]!;
      } else {
        let run = offset;
        while (op < end) {
          const n = Math.min(run, end - op);
          dst.copyWithin(op, m, m + n);
          op += n;
          run += n;
        }
      }
    }
  }
}
