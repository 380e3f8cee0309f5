/*
 * LZ4 block encoders (as LZ4_compress_fast and LZ4_compress_HC write blocks; see lz4-block.ts for
 * the format and the decoder), a module of its own: only encoding loads it.
 */
const MIN_MATCH = 4;
/** A match may not start in the last 12 bytes of the input (LZ4's MFLIMIT). */
const MF_LIMIT = 12;
/** The last 5 bytes are always literals (LZ4's LASTLITERALS). */
const LAST_LITERALS = 5;
const MAX_DISTANCE = 65535;
const SKIP_TRIGGER = 6;

let fastTable = new Int32Array(1 << 14);

function read32(a: Uint8Array, i: number): number {
  return a[i]! | (a[i + 1]! << 8) | (a[i + 2]! << 16) | (a[i + 3]! << 24);
}

/** How many bytes, from `a` and `b` on, are equal, without reaching `limit` (for `a`). */
function matchLength(src: Uint8Array, a: number, b: number, limit: number): number {
  const start = a;
  while (a + 4 <= limit) {
    const diff = read32(src, a) ^ read32(src, b);
    if (diff !== 0) return a - start + ((31 - Math.clz32(diff & -diff)) >>> 3);
    a += 4;
    b += 4;
  }
  while (a < limit && src[a] === src[b]) {
    a++;
    b++;
  }
  return a - start;
}

/** Writes one sequence; returns the new output position. */
function writeSequence(
  dst: Uint8Array,
  op: number,
  src: Uint8Array,
  anchor: number,
  literals: number,
  offset: number,
  length: number,
): number {
  const tokenAt = op++;
  let token: number;
  if (literals >= 15) {
    token = 15 << 4;
    let rest = literals - 15;
    while (rest >= 255) {
      dst[op++] = 255;
      rest -= 255;
    }
    dst[op++] = rest;
  } else {
    token = literals << 4;
  }
  if (literals < 24) {
    for (let i = 0; i < literals; i++) dst[op++] = src[anchor + i]!;
  } else {
    dst.set(src.subarray(anchor, anchor + literals), op);
    op += literals;
  }
  if (length === 0) {
    dst[tokenAt] = token;
    return op;
  }
  dst[op++] = offset & 255;
  dst[op++] = offset >>> 8;
  let rest = length - MIN_MATCH;
  if (rest >= 15) {
    token |= 15;
    rest -= 15;
    while (rest >= 255) {
      dst[op++] = 255;
      rest -= 255;
    }
    dst[op++] = rest;
  } else {
    token |= rest;
  }
  dst[tokenAt] = token;
  return op;
}

/**
 * Compresses `src[srcStart, srcEnd)` as one LZ4 block into `dst` from `dstStart` (which must have
 * `lz4Bound(srcEnd - srcStart)` bytes of room) and returns the end of what it wrote. A greedy
 * single-hash matcher like LZ4_compress_fast: `acceleration` (>= 1) makes the search skip faster
 * through incompressible data, trading ratio for speed.
 */
export function lz4EncodeBlock(
  src: Uint8Array,
  srcStart: number,
  srcEnd: number,
  dst: Uint8Array,
  dstStart: number,
  acceleration = 1,
): number {
  const n = srcEnd - srcStart;
  let op = dstStart;
  let anchor = srcStart;
  if (n >= MF_LIMIT + 1) {
    // As LZ4: inputs up to 64 KiB hash 4 bytes into 2^13 slots; larger ones hash 5 bytes.
    const small = n < 65536 + 11;
    const hashLog = small ? 13 : 14;
    const shift = 32 - hashLog;
    if (fastTable.length < 1 << hashLog) fastTable = new Int32Array(1 << hashLog);
    const table = fastTable;
    table.fill(-1, 0, 1 << hashLog);
    const mfLimit = srcEnd - MF_LIMIT;
    const matchLimit = srcEnd - LAST_LITERALS;
    const accel = Math.max(1, Math.min(acceleration | 0, 65537));
    let ip = srcStart;
    const hashAt = (i: number, seq: number): number =>
      small
        ? Math.imul(seq, 2654435761) >>> shift
        : (Math.imul(seq, 2654435761) ^ Math.imul(src[i + 4]!, 0x85ebca77)) >>> shift;
    table[hashAt(ip, read32(src, ip))] = ip;
    ip++;
    search: for (;;) {
      let searches = accel << SKIP_TRIGGER;
      let step = 1;
      let match: number;
      for (;;) {
        if (ip > mfLimit) break search;
        const seq = read32(src, ip);
        const h = hashAt(ip, seq);
        match = table[h]!;
        table[h] = ip;
        if (match >= 0 && ip - match <= MAX_DISTANCE && read32(src, match) === seq) break;
        ip += step;
        step = searches++ >> SKIP_TRIGGER;
      }
      // Extend the match backwards over pending literals.
      while (ip > anchor && match > srcStart && src[ip - 1] === src[match - 1]) {
        ip--;
        match--;
      }
      for (;;) {
        const length = MIN_MATCH + matchLength(src, ip + MIN_MATCH, match + MIN_MATCH, matchLimit);
        op = writeSequence(dst, op, src, anchor, ip - anchor, ip - match, length);
        ip += length;
        anchor = ip;
        if (ip > mfLimit) break search;
        table[hashAt(ip - 2, read32(src, ip - 2))] = ip - 2;
        // Try for an immediate match at the new position.
        const seq = read32(src, ip);
        const h = hashAt(ip, seq);
        match = table[h]!;
        table[h] = ip;
        if (match >= 0 && ip - match <= MAX_DISTANCE && read32(src, match) === seq) continue;
        ip++;
        continue search;
      }
    }
  }
  return writeSequence(dst, op, src, anchor, srcEnd - anchor, 0, 0);
}

const chainHead = new Int32Array(1 << 15);
let chainPrev = new Int32Array(1 << 16);

/**
 * Compresses like `lz4EncodeBlock`, searching harder (as LZ4_compress_HC does): a hash chain over
 * the 64 KiB window, up to `1 << (level - 1)` candidates per position (level 1 to 12), and lazy
 * matching (a match is deferred when the next position has a longer one).
 */
export function lz4hcEncodeBlock(
  src: Uint8Array,
  srcStart: number,
  srcEnd: number,
  dst: Uint8Array,
  dstStart: number,
  level = 9,
): number {
  const n = srcEnd - srcStart;
  let op = dstStart;
  let anchor = srcStart;
  if (n >= MF_LIMIT + 1) {
    const hashLog = 15;
    const shift = 32 - hashLog;
    const head = chainHead;
    head.fill(-1);
    if (chainPrev.length < 65536) chainPrev = new Int32Array(65536);
    const prev = chainPrev;
    const maxAttempts = 1 << (Math.max(1, Math.min(level, 12)) - 1);
    const mfLimit = srcEnd - MF_LIMIT;
    const matchLimit = srcEnd - LAST_LITERALS;
    let inserted = srcStart;
    const insertUpTo = (target: number) => {
      for (; inserted < target; inserted++) {
        const h = Math.imul(read32(src, inserted), 2654435761) >>> shift;
        prev[inserted & 0xffff] = head[h]!;
        head[h] = inserted;
      }
    };
    // Best match at `ip`: sets bestLength / bestMatch.
    let bestLength = 0;
    let bestMatch = 0;
    const find = (ip: number): void => {
      insertUpTo(ip);
      bestLength = 0;
      const seq = read32(src, ip);
      let candidate = head[Math.imul(seq, 2654435761) >>> shift]!;
      for (let attempts = maxAttempts; candidate >= 0 && ip - candidate <= MAX_DISTANCE && attempts > 0; attempts--) {
        if (src[candidate + bestLength] === src[ip + bestLength] && read32(src, candidate) === seq) {
          const length = MIN_MATCH + matchLength(src, ip + MIN_MATCH, candidate + MIN_MATCH, matchLimit);
          if (length > bestLength) {
            bestLength = length;
            bestMatch = candidate;
            if (ip + length >= matchLimit) break;
          }
        }
        const next = prev[candidate & 0xffff]!;
        if (next >= candidate) break;
        candidate = next;
      }
    };
    let ip = srcStart;
    while (ip <= mfLimit) {
      find(ip);
      if (bestLength < MIN_MATCH) {
        ip++;
        continue;
      }
      let length = bestLength;
      let match = bestMatch;
      // Lazy: prefer a longer match starting one byte later.
      while (ip + 1 <= mfLimit) {
        find(ip + 1);
        if (bestLength > length + 1) {
          ip++;
          length = bestLength;
          match = bestMatch;
        } else {
          break;
        }
      }
      while (ip > anchor && match > srcStart && src[ip - 1] === src[match - 1]) {
        ip--;
        match--;
        length++;
      }
      op = writeSequence(dst, op, src, anchor, ip - anchor, ip - match, length);
      ip += length;
      anchor = ip;
    }
  }
  return writeSequence(dst, op, src, anchor, srcEnd - anchor, 0, 0);
}
