/*
 * The BloscLZ encoder (see blosclz.ts for the format and the decoder), a module of its own: only
 * encoding loads it.
 */
import { MAX_COPY, MAX_DISTANCE, MAX_FAR_DISTANCE } from "./blosclz.js";

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
