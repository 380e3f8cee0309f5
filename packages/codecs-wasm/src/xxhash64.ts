/*
 * XXH64 (seed 0), for Zstandard's content checksum: the frame stores the low 32 bits of the
 * XXH64 of the decoded content. Written for this package from the algorithm's description, with
 * 64-bit words held as two 32-bit halves (no BigInt, so it is fast).
 */

// Primes, as [high, low] halves.
const P1H = 0x9e3779b1;
const P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d;
const P2L = 0x27d4eb4f;
const P3H = 0x165667b1;
const P3L = 0x9e3779f9;
const P4H = 0x85ebca77;
const P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f;
const P5L = 0x165667c5;

// Results of the helpers below, [high, low]: in a typed array, whose elements are plain 32-bit
// words, where module-level `let`s would hold numbers past 2^30 as a heap number per assignment.
const r = new Uint32Array(2);

/** (ah, al) * (bh, bl) mod 2^64 into r. */
function mul(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const p11 = a1 * b1;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const carry = p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  r[1] = (mid << 16) | (p00 & 0xffff);
  r[0] = carry + Math.imul(ah, bl) + Math.imul(al, bh);
}

/** (ah, al) + (bh, bl) mod 2^64 into r. */
function add(ah: number, al: number, bh: number, bl: number): void {
  const low = al + bl;
  r[1] = low;
  r[0] = ah + bh + (low > 0xffffffff ? 1 : 0);
}

/** Rotate left by n (0 < n < 32) into r. */
function rotl(h: number, l: number, n: number): void {
  r[0] = (h << n) | (l >>> (32 - n));
  r[1] = (l << n) | (h >>> (32 - n));
}

function u32(d: Uint8Array, i: number): number {
  return (d[i]! | (d[i + 1]! << 8) | (d[i + 2]! << 16) | (d[i + 3]! << 24)) >>> 0;
}

/**
 * The accumulators' rounds over every 32-byte stripe of `data` from `p` while one starts at or
 * before `limit`: v = rotl(v + lane * P2, 31) * P1 for each of the four (`v`: their [high, low]
 * halves). Returns where the stripes end. Written out without calls: through the helpers above,
 * V8 boxes every word past 2^30 it passes as a heap number (65 MB/s of CPU time against 430 MB/s
 * written out, apps/bench/micro/xxhash64.mjs).
 */
function stripes(d: Uint8Array, p: number, limit: number, v: Uint32Array): number {
  while (p <= limit) {
    for (let j = 0; j < 8; j += 2) {
      const q = p + 4 * j;
      const al = (d[q]! | (d[q + 1]! << 8) | (d[q + 2]! << 16) | (d[q + 3]! << 24)) >>> 0;
      const ah = (d[q + 4]! | (d[q + 5]! << 8) | (d[q + 6]! << 16) | (d[q + 7]! << 24)) >>> 0;
      // (hi, lo) = lane * P2, as mul() computes it
      let a0 = al & 0xffff;
      let a1 = al >>> 16;
      let p00 = a0 * (P2L & 0xffff);
      let p01 = a0 * (P2L >>> 16);
      let p10 = a1 * (P2L & 0xffff);
      let p11 = a1 * (P2L >>> 16);
      let mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
      let lo = ((mid << 16) | (p00 & 0xffff)) >>> 0;
      let hi = (p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(ah, P2L) + Math.imul(al, P2H)) >>> 0;
      // += v
      const sum = v[j + 1]! + lo;
      lo = sum >>> 0;
      hi = (v[j]! + hi + (sum > 0xffffffff ? 1 : 0)) >>> 0;
      // rotl 31
      const rh = ((hi << 31) | (lo >>> 1)) >>> 0;
      const rl = ((lo << 31) | (hi >>> 1)) >>> 0;
      // v = that * P1
      a0 = rl & 0xffff;
      a1 = rl >>> 16;
      p00 = a0 * (P1L & 0xffff);
      p01 = a0 * (P1L >>> 16);
      p10 = a1 * (P1L & 0xffff);
      p11 = a1 * (P1L >>> 16);
      mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
      v[j + 1] = (mid << 16) | (p00 & 0xffff);
      v[j] = p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(rh, P1L) + Math.imul(rl, P1H);
    }
    p += 32;
  }
  return p;
}

/** The XXH64 of `data[start, end)` with seed 0, as [high 32 bits, low 32 bits]. */
export function xxh64(data: Uint8Array, start = 0, end = data.length): [number, number] {
  const length = end - start;
  let p = start;
  let hh: number;
  let hl: number;
  if (length >= 32) {
    // v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1
    const v = new Uint32Array(8);
    add(P1H, P1L, P2H, P2L);
    v.set([r[0]!, r[1]!, P2H, P2L, 0, 0]);
    add(~P1H >>> 0, ~P1L >>> 0, 0, 1);
    v[6] = r[0]!;
    v[7] = r[1]!;
    p = stripes(data, p, end - 32, v);
    const v1h = v[0]!;
    const v1l = v[1]!;
    const v2h = v[2]!;
    const v2l = v[3]!;
    const v3h = v[4]!;
    const v3l = v[5]!;
    const v4h = v[6]!;
    const v4l = v[7]!;
    // h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)
    rotl(v1h, v1l, 1);
    hh = r[0]!;
    hl = r[1]!;
    rotl(v2h, v2l, 7);
    add(hh, hl, r[0]!, r[1]!);
    hh = r[0]!;
    hl = r[1]!;
    rotl(v3h, v3l, 12);
    add(hh, hl, r[0]!, r[1]!);
    hh = r[0]!;
    hl = r[1]!;
    rotl(v4h, v4l, 18);
    add(hh, hl, r[0]!, r[1]!);
    hh = r[0]!;
    hl = r[1]!;
    // merge each v: h = (h ^ (rotl(v * P2, 31) * P1)) * P1 + P4
    for (const [vh, vl] of [
      [v1h, v1l],
      [v2h, v2l],
      [v3h, v3l],
      [v4h, v4l],
    ] as const) {
      mul(vh, vl, P2H, P2L);
      rotl(r[0]!, r[1]!, 31);
      mul(r[0]!, r[1]!, P1H, P1L);
      mul((hh ^ r[0]!) >>> 0, (hl ^ r[1]!) >>> 0, P1H, P1L);
      add(r[0]!, r[1]!, P4H, P4L);
      hh = r[0]!;
      hl = r[1]!;
    }
  } else {
    hh = P5H;
    hl = P5L;
  }
  // h += length
  add(hh, hl, Math.floor(length / 2 ** 32) >>> 0, length >>> 0);
  hh = r[0]!;
  hl = r[1]!;
  while (p + 8 <= end) {
    // h = rotl(h ^ (rotl(lane * P2, 31) * P1), 27) * P1 + P4
    mul(u32(data, p + 4), u32(data, p), P2H, P2L);
    rotl(r[0]!, r[1]!, 31);
    mul(r[0]!, r[1]!, P1H, P1L);
    rotl((hh ^ r[0]!) >>> 0, (hl ^ r[1]!) >>> 0, 27);
    mul(r[0]!, r[1]!, P1H, P1L);
    add(r[0]!, r[1]!, P4H, P4L);
    hh = r[0]!;
    hl = r[1]!;
    p += 8;
  }
  if (p + 4 <= end) {
    // h = rotl(h ^ (lane32 * P1), 23) * P2 + P3
    mul(0, u32(data, p), P1H, P1L);
    rotl((hh ^ r[0]!) >>> 0, (hl ^ r[1]!) >>> 0, 23);
    mul(r[0]!, r[1]!, P2H, P2L);
    add(r[0]!, r[1]!, P3H, P3L);
    hh = r[0]!;
    hl = r[1]!;
    p += 4;
  }
  while (p < end) {
    // h = rotl(h ^ (byte * P5), 11) * P1
    mul(0, data[p]!, P5H, P5L);
    rotl((hh ^ r[0]!) >>> 0, (hl ^ r[1]!) >>> 0, 11);
    mul(r[0]!, r[1]!, P1H, P1L);
    hh = r[0]!;
    hl = r[1]!;
    p++;
  }
  // avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
  hl = (hl ^ (hh >>> 1)) >>> 0;
  mul(hh, hl, P2H, P2L);
  hh = r[0]!;
  hl = r[1]!;
  {
    // h >> 29: high part hh >>> 29, low part (hl >>> 29) | (hh << 3)
    const sl = ((hl >>> 29) | (hh << 3)) >>> 0;
    const sh = hh >>> 29;
    hh = (hh ^ sh) >>> 0;
    hl = (hl ^ sl) >>> 0;
  }
  mul(hh, hl, P3H, P3L);
  hh = r[0]!;
  hl = r[1]!;
  hl = (hl ^ hh) >>> 0;
  return [hh, hl];
}
