/*
 * The Snappy encoder (see snappy.ts for the format and the decoder), a module of its own: only
 * encoding loads it.
 */
const HASH_LOG = 14;
let table = new Int32Array(1 << HASH_LOG);

function read32(a: Uint8Array, i: number): number {
  return a[i]! | (a[i + 1]! << 8) | (a[i + 2]! << 16) | (a[i + 3]! << 24);
}

/** Compresses `src[srcStart, srcEnd)` as a Snappy stream into `dst` from `dstStart`; returns the end. */
export function snappyEncode(
  src: Uint8Array,
  srcStart: number,
  srcEnd: number,
  dst: Uint8Array,
  dstStart: number,
): number {
  let op = dstStart;
  const n = srcEnd - srcStart;
  let rest = n;
  while (rest >= 128) {
    dst[op++] = (rest & 127) | 128;
    rest = Math.floor(rest / 128);
  }
  dst[op++] = rest;

  let anchor = srcStart;
  const literal = (end: number): void => {
    const count = end - anchor;
    if (count === 0) return;
    const m = count - 1;
    if (m < 60) {
      dst[op++] = m << 2;
    } else if (m < 256) {
      dst[op++] = 60 << 2;
      dst[op++] = m;
    } else if (m < 65536) {
      dst[op++] = 61 << 2;
      dst[op++] = m & 255;
      dst[op++] = m >>> 8;
    } else if (m < 1 << 24) {
      dst[op++] = 62 << 2;
      dst[op++] = m & 255;
      dst[op++] = (m >>> 8) & 255;
      dst[op++] = m >>> 16;
    } else {
      dst[op++] = 63 << 2;
      dst[op++] = m & 255;
      dst[op++] = (m >>> 8) & 255;
      dst[op++] = (m >>> 16) & 255;
      dst[op++] = m >>> 24;
    }
    dst.set(src.subarray(anchor, end), op);
    op += count;
    anchor = end;
  };
  const copy = (offset: number, length: number): void => {
    while (length > 0) {
      // Pieces of at most 64 bytes, never leaving fewer than 4 for the last one.
      const piece = length > 64 ? (length - 64 < 4 ? 60 : 64) : length;
      if (piece >= 4 && piece <= 11 && offset < 2048) {
        dst[op++] = 1 | ((piece - 4) << 2) | ((offset >>> 8) << 5);
        dst[op++] = offset & 255;
      } else {
        dst[op++] = 2 | ((piece - 1) << 2);
        dst[op++] = offset & 255;
        dst[op++] = offset >>> 8;
      }
      length -= piece;
    }
  };

  if (n >= 16) {
    if (table.length < 1 << HASH_LOG) table = new Int32Array(1 << HASH_LOG);
    table.fill(-1);
    const shift = 32 - HASH_LOG;
    const limit = srcEnd - 4;
    let ip = srcStart;
    let misses = 32;
    while (ip < limit) {
      const seq = read32(src, ip);
      const h = Math.imul(seq, 0x1e35a7bd) >>> shift;
      const ref = table[h]!;
      table[h] = ip;
      if (ref < 0 || ip - ref > 65535 || read32(src, ref) !== seq) {
        ip += misses++ >>> 5;
        continue;
      }
      misses = 32;
      let a = ip + 4;
      let b = ref + 4;
      while (a < srcEnd && src[a] === src[b]) {
        a++;
        b++;
      }
      literal(ip);
      copy(ip - ref, a - ip);
      ip = a;
      anchor = a;
      if (ip < limit) table[Math.imul(read32(src, ip - 1), 0x1e35a7bd) >>> shift] = ip - 1;
    }
  }
  literal(srcEnd);
  return op;
}
