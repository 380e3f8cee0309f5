/*
 * Blosc's byte shuffle and bit shuffle of one block, as c-blosc 1.x lays them out:
 *
 * - byte shuffle: the block's `n = floor(size / typesize)` items are split into `typesize` streams,
 *   stream `j` holding byte `j` of every item; the `size % typesize` trailing bytes follow as they
 *   are.
 * - bit shuffle (only when `n` is a multiple of 8, else the block is copied as is): `8 * typesize`
 *   rows of `n / 8` bytes; row `8 * j + b` holds bit `b` of byte `j` of every item, item `i` at bit
 *   `i % 8` of byte `i / 8`. Trailing bytes follow as they are.
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Byte-shuffles `src[s, s + size)` into `dst[d, d + size)`. */
export function shuffleBytes(
  typesize: number,
  size: number,
  src: Uint8Array,
  s: number,
  dst: Uint8Array,
  d: number,
): void {
  const n = Math.floor(size / typesize);
  for (let j = 0; j < typesize; j++) {
    let o = d + j * n;
    let i = s + j;
    const end = o + n;
    while (o < end) {
      dst[o++] = src[i]!;
      i += typesize;
    }
  }
  const done = n * typesize;
  for (let k = done; k < size; k++) dst[d + k] = src[s + k]!;
}

/** Undoes `shuffleBytes`: `src[s, s + size)` (shuffled) into `dst[d, d + size)`. */
export function unshuffleBytes(
  typesize: number,
  size: number,
  src: Uint8Array,
  s: number,
  dst: Uint8Array,
  d: number,
): void {
  const n = Math.floor(size / typesize);
  const aligned = LITTLE_ENDIAN && (dst.byteOffset + d) % 4 === 0;
  if (typesize === 4 && aligned) {
    const out = new Uint32Array(dst.buffer, dst.byteOffset + d, n);
    const s1 = s + n;
    const s2 = s1 + n;
    const s3 = s2 + n;
    for (let i = 0; i < n; i++) {
      out[i] = src[s + i]! | (src[s1 + i]! << 8) | (src[s2 + i]! << 16) | (src[s3 + i]! << 24);
    }
  } else if (typesize === 8 && aligned) {
    const out = new Uint32Array(dst.buffer, dst.byteOffset + d, 2 * n);
    const s1 = s + n;
    const s2 = s1 + n;
    const s3 = s2 + n;
    const s4 = s3 + n;
    const s5 = s4 + n;
    const s6 = s5 + n;
    const s7 = s6 + n;
    for (let i = 0, k = 0; i < n; i++, k += 2) {
      out[k] = src[s + i]! | (src[s1 + i]! << 8) | (src[s2 + i]! << 16) | (src[s3 + i]! << 24);
      out[k + 1] = src[s4 + i]! | (src[s5 + i]! << 8) | (src[s6 + i]! << 16) | (src[s7 + i]! << 24);
    }
  } else if (typesize === 2 && LITTLE_ENDIAN && (dst.byteOffset + d) % 2 === 0) {
    const out = new Uint16Array(dst.buffer, dst.byteOffset + d, n);
    const s1 = s + n;
    for (let i = 0; i < n; i++) out[i] = src[s + i]! | (src[s1 + i]! << 8);
  } else {
    for (let j = 0; j < typesize; j++) {
      let i = s + j * n;
      let o = d + j;
      const end = i + n;
      while (i < end) {
        dst[o] = src[i++]!;
        o += typesize;
      }
    }
  }
  const done = n * typesize;
  for (let k = done; k < size; k++) dst[d + k] = src[s + k]!;
}

/**
 * Transposes the 8x8 bit matrix held in (lo, hi) (bytes 0-3 and 4-7): bit `8 * r + c` and bit
 * `8 * c + r` trade places. Returns the result in `pair`.
 */
function transpose8(lo: number, hi: number, pair: Int32Array): void {
  let t = (lo ^ (lo >>> 7)) & 0x00aa00aa;
  lo ^= t ^ (t << 7);
  t = (hi ^ (hi >>> 7)) & 0x00aa00aa;
  hi ^= t ^ (t << 7);
  t = (lo ^ (lo >>> 14)) & 0x0000cccc;
  lo ^= t ^ (t << 14);
  t = (hi ^ (hi >>> 14)) & 0x0000cccc;
  hi ^= t ^ (t << 14);
  t = (lo ^ ((lo >>> 28) | (hi << 4))) & 0xf0f0f0f0;
  lo ^= t;
  hi ^= t >>> 4;
  pair[0] = lo;
  pair[1] = hi;
}

const pair = new Int32Array(2);

/** Bit-shuffles `src[s, s + size)` into `dst[d, d + size)` (see the top of this file). */
export function shuffleBits(
  typesize: number,
  size: number,
  src: Uint8Array,
  s: number,
  dst: Uint8Array,
  d: number,
): void {
  const n = Math.floor(size / typesize);
  if (n % 8 !== 0) {
    dst.set(src.subarray(s, s + size), d);
    return;
  }
  const rowBytes = n >>> 3;
  for (let j = 0; j < typesize; j++) {
    const rows = d + 8 * j * rowBytes;
    for (let g = 0; g < rowBytes; g++) {
      const e = s + 8 * g * typesize + j;
      const lo = src[e]! | (src[e + typesize]! << 8) | (src[e + 2 * typesize]! << 16) | (src[e + 3 * typesize]! << 24);
      const e4 = e + 4 * typesize;
      const hi =
        src[e4]! | (src[e4 + typesize]! << 8) | (src[e4 + 2 * typesize]! << 16) | (src[e4 + 3 * typesize]! << 24);
      transpose8(lo, hi, pair);
      const a = pair[0]!;
      const b = pair[1]!;
      const o = rows + g;
      dst[o] = a;
      dst[o + rowBytes] = a >>> 8;
      dst[o + 2 * rowBytes] = a >>> 16;
      dst[o + 3 * rowBytes] = a >>> 24;
      dst[o + 4 * rowBytes] = b;
      dst[o + 5 * rowBytes] = b >>> 8;
      dst[o + 6 * rowBytes] = b >>> 16;
      dst[o + 7 * rowBytes] = b >>> 24;
    }
  }
  const done = n * typesize;
  for (let k = done; k < size; k++) dst[d + k] = src[s + k]!;
}

/** Undoes `shuffleBits`. */
export function unshuffleBits(
  typesize: number,
  size: number,
  src: Uint8Array,
  s: number,
  dst: Uint8Array,
  d: number,
): void {
  const n = Math.floor(size / typesize);
  if (n % 8 !== 0) {
    dst.set(src.subarray(s, s + size), d);
    return;
  }
  const rowBytes = n >>> 3;
  for (let j = 0; j < typesize; j++) {
    const rows = s + 8 * j * rowBytes;
    for (let g = 0; g < rowBytes; g++) {
      const r = rows + g;
      const lo = src[r]! | (src[r + rowBytes]! << 8) | (src[r + 2 * rowBytes]! << 16) | (src[r + 3 * rowBytes]! << 24);
      const r4 = r + 4 * rowBytes;
      const hi =
        src[r4]! | (src[r4 + rowBytes]! << 8) | (src[r4 + 2 * rowBytes]! << 16) | (src[r4 + 3 * rowBytes]! << 24);
      transpose8(lo, hi, pair);
      const a = pair[0]!;
      const b = pair[1]!;
      const o = d + 8 * g * typesize + j;
      dst[o] = a;
      dst[o + typesize] = a >>> 8;
      dst[o + 2 * typesize] = a >>> 16;
      dst[o + 3 * typesize] = a >>> 24;
      dst[o + 4 * typesize] = b;
      dst[o + 5 * typesize] = b >>> 8;
      dst[o + 6 * typesize] = b >>> 16;
      dst[o + 7 * typesize] = b >>> 24;
    }
  }
  const done = n * typesize;
  for (let k = done; k < size; k++) dst[d + k] = src[s + k]!;
}
