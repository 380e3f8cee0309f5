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

// Results of the helpers below (high, low), to avoid allocating.
let rh = 0;
let rl = 0;

/** (ah, al) * (bh, bl) mod 2^64 into (rh, rl). */
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
  rl = ((mid << 16) | (p00 & 0xffff)) >>> 0;
  rh = (carry + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** (ah, al) + (bh, bl) mod 2^64 into (rh, rl). */
function add(ah: number, al: number, bh: number, bl: number): void {
  const low = al + bl;
  rl = low >>> 0;
  rh = (ah + bh + (low > 0xffffffff ? 1 : 0)) >>> 0;
}

/** Rotate left by r (0 < r < 32) into (rh, rl). */
function rotl(h: number, l: number, r: number): void {
  rh = ((h << r) | (l >>> (32 - r))) >>> 0;
  rl = ((l << r) | (h >>> (32 - r))) >>> 0;
}

function u32(d: Uint8Array, i: number): number {
  return (d[i]! | (d[i + 1]! << 8) | (d[i + 2]! << 16) | (d[i + 3]! << 24)) >>> 0;
}

/** The XXH64 of `data[start, end)` with seed 0, as [high 32 bits, low 32 bits]. */
export function xxh64(data: Uint8Array, start = 0, end = data.length): [number, number] {
  const length = end - start;
  let p = start;
  let hh: number;
  let hl: number;
  if (length >= 32) {
    // v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1
    add(P1H, P1L, P2H, P2L);
    let v1h = rh;
    let v1l = rl;
    let v2h = P2H;
    let v2l = P2L;
    let v3h = 0;
    let v3l = 0;
    add(~P1H >>> 0, ~P1L >>> 0, 0, 1);
    let v4h = rh;
    let v4l = rl;
    const limit = end - 32;
    while (p <= limit) {
      // v = rotl(v + lane * P2, 31) * P1
      mul(u32(data, p + 4), u32(data, p), P2H, P2L);
      add(v1h, v1l, rh, rl);
      rotl(rh, rl, 31);
      mul(rh, rl, P1H, P1L);
      v1h = rh;
      v1l = rl;
      mul(u32(data, p + 12), u32(data, p + 8), P2H, P2L);
      add(v2h, v2l, rh, rl);
      rotl(rh, rl, 31);
      mul(rh, rl, P1H, P1L);
      v2h = rh;
      v2l = rl;
      mul(u32(data, p + 20), u32(data, p + 16), P2H, P2L);
      add(v3h, v3l, rh, rl);
      rotl(rh, rl, 31);
      mul(rh, rl, P1H, P1L);
      v3h = rh;
      v3l = rl;
      mul(u32(data, p + 28), u32(data, p + 24), P2H, P2L);
      add(v4h, v4l, rh, rl);
      rotl(rh, rl, 31);
      mul(rh, rl, P1H, P1L);
      v4h = rh;
      v4l = rl;
      p += 32;
    }
    // h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)
    rotl(v1h, v1l, 1);
    hh = rh;
    hl = rl;
    rotl(v2h, v2l, 7);
    add(hh, hl, rh, rl);
    hh = rh;
    hl = rl;
    rotl(v3h, v3l, 12);
    add(hh, hl, rh, rl);
    hh = rh;
    hl = rl;
    rotl(v4h, v4l, 18);
    add(hh, hl, rh, rl);
    hh = rh;
    hl = rl;
    // merge each v: h = (h ^ (rotl(v * P2, 31) * P1)) * P1 + P4
    for (const [vh, vl] of [
      [v1h, v1l],
      [v2h, v2l],
      [v3h, v3l],
      [v4h, v4l],
    ] as const) {
      mul(vh, vl, P2H, P2L);
      rotl(rh, rl, 31);
      mul(rh, rl, P1H, P1L);
      mul((hh ^ rh) >>> 0, (hl ^ rl) >>> 0, P1H, P1L);
      add(rh, rl, P4H, P4L);
      hh = rh;
      hl = rl;
    }
  } else {
    hh = P5H;
    hl = P5L;
  }
  // h += length
  add(hh, hl, Math.floor(length / 2 ** 32) >>> 0, length >>> 0);
  hh = rh;
  hl = rl;
  while (p + 8 <= end) {
    // h = rotl(h ^ (rotl(lane * P2, 31) * P1), 27) * P1 + P4
    mul(u32(data, p + 4), u32(data, p), P2H, P2L);
    rotl(rh, rl, 31);
    mul(rh, rl, P1H, P1L);
    rotl((hh ^ rh) >>> 0, (hl ^ rl) >>> 0, 27);
    mul(rh, rl, P1H, P1L);
    add(rh, rl, P4H, P4L);
    hh = rh;
    hl = rl;
    p += 8;
  }
  if (p + 4 <= end) {
    // h = rotl(h ^ (lane32 * P1), 23) * P2 + P3
    mul(0, u32(data, p), P1H, P1L);
    rotl((hh ^ rh) >>> 0, (hl ^ rl) >>> 0, 23);
    mul(rh, rl, P2H, P2L);
    add(rh, rl, P3H, P3L);
    hh = rh;
    hl = rl;
    p += 4;
  }
  while (p < end) {
    // h = rotl(h ^ (byte * P5), 11) * P1
    mul(0, data[p]!, P5H, P5L);
    rotl((hh ^ rh) >>> 0, (hl ^ rl) >>> 0, 11);
    mul(rh, rl, P1H, P1L);
    hh = rh;
    hl = rl;
    p++;
  }
  // avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32
  hl = (hl ^ (hh >>> 1)) >>> 0;
  mul(hh, hl, P2H, P2L);
  hh = rh;
  hl = rl;
  {
    // h >> 29: high part hh >>> 29, low part (hl >>> 29) | (hh << 3)
    const sl = ((hl >>> 29) | (hh << 3)) >>> 0;
    const sh = hh >>> 29;
    hh = (hh ^ sh) >>> 0;
    hl = (hl ^ sl) >>> 0;
  }
  mul(hh, hl, P3H, P3L);
  hh = rh;
  hl = rl;
  hl = (hl ^ hh) >>> 0;
  return [hh, hl];
}
