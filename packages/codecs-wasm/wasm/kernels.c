/*
 * Hot loops of Blosc decoding for @z/codecs-wasm, compiled to WebAssembly (see build.sh): LZ4
 * block decoding and byte unshuffling. Written for this package (the formats are described in
 * src/lz4-block.ts and src/shuffle.ts); no code from other projects. No libc: the module works
 * on its own linear memory, which the TypeScript side lays out (input, output, scratch) and grows.
 */
#include "common.h"

/* Failures, as in src/lz4-block.ts. */
#define LZ4_TRUNCATED (-1)
#define LZ4_OVERFLOW (-2)
#define LZ4_BAD_OFFSET (-3)

/*
 * Decodes the LZ4 block src[0, srcLen) into dst[0, dstLen); returns the bytes written or a
 * negative LZ4_* code. Never reads or writes outside those ranges.
 */
EXPORT("lz4_decode")
int lz4_decode(const u8 *src, int srcLen, u8 *dst, int dstLen) {
  const u8 *ip = src;
  const u8 *const iend = src + srcLen;
  u8 *op = dst;
  u8 *const oend = dst + dstLen;
  for (;;) {
    if (ip >= iend) return LZ4_TRUNCATED;
    unsigned token = *ip++;
    unsigned lit = token >> 4;
    /* Fast path: a short literal run and a short match far from both ends. */
    if (lit < 15 && iend - ip >= 32 && oend - op >= 48) {
      copy16(op, ip);
      op += lit;
      ip += lit;
      unsigned offset = ip[0] | (ip[1] << 8);
      unsigned mlen = token & 15;
      if (mlen != 15 && offset >= 16 && (unsigned)(op - dst) >= offset) {
        ip += 2;
        const u8 *m = op - offset;
        copy16(op, m);
        copy16(op + 16, m + 16);
        op += mlen + 4;
        continue;
      }
      /* Otherwise finish this sequence on the careful path (literals are done). */
      if (ip == iend) return (int)(op - dst);
      goto match;
    }
    if (lit == 15) {
      unsigned b;
      do {
        if (ip >= iend) return LZ4_TRUNCATED;
        b = *ip++;
        lit += b;
      } while (b == 255);
    }
    if (lit) {
      if (lit > (unsigned)(iend - ip)) return LZ4_TRUNCATED;
      if (lit > (unsigned)(oend - op)) return LZ4_OVERFLOW;
      if (lit <= 256 && (unsigned)(iend - ip) >= lit + 16 && (unsigned)(oend - op) >= lit + 16) {
        u8 *const stop = op + lit;
        const u8 *s = ip;
        while (op < stop) {
          copy16(op, s);
          op += 16;
          s += 16;
        }
        op = stop;
      } else {
        __builtin_memcpy(op, ip, lit);
        op += lit;
      }
      ip += lit;
    }
    if (ip == iend) return (int)(op - dst);
  match:
    if (iend - ip < 2) return LZ4_TRUNCATED;
    {
      unsigned offset = ip[0] | (ip[1] << 8);
      ip += 2;
      if (offset == 0 || offset > (unsigned)(op - dst)) return LZ4_BAD_OFFSET;
      unsigned mlen = (token & 15) + 4;
      if (mlen == 19) {
        unsigned b;
        do {
          if (ip >= iend) return LZ4_TRUNCATED;
          b = *ip++;
          mlen += b;
        } while (b == 255);
      }
      if (mlen > (unsigned)(oend - op)) return LZ4_OVERFLOW;
      const u8 *m = op - offset;
      u8 *const end = op + mlen;
      if (offset >= 16 && oend - end >= 16) {
        while (op < end) {
          copy16(op, m);
          op += 16;
          m += 16;
        }
        op = end;
      } else if (offset >= mlen) {
        __builtin_memcpy(op, m, mlen);
        op = end;
      } else if (offset >= 8 && oend - end >= 8) {
        while (op < end) {
          uint64_t v;
          __builtin_memcpy(&v, m, 8);
          __builtin_memcpy(op, &v, 8);
          op += 8;
          m += 8;
        }
        op = end;
      } else {
        while (op < end) *op++ = *m++;
      }
    }
  }
}

/*
 * Byte unshuffle of n items of typesize bytes: plane j (planes[j], n bytes) holds byte j of every
 * item. The planes need not be contiguous: a Blosc frame's split streams stored raw are
 * unshuffled straight from the frame, with no copy into a block buffer first.
 */
void unshuffle_planes(int typesize, int n, const u8 *const *planes, u8 *dst) {
  int i = 0;
  if (typesize == 4) {
    const u8 *s0 = planes[0], *s1 = planes[1], *s2 = planes[2], *s3 = planes[3];
    for (; i + 16 <= n; i += 16) {
      v128_t a = wasm_v128_load(s0 + i), b = wasm_v128_load(s1 + i);
      v128_t c = wasm_v128_load(s2 + i), d = wasm_v128_load(s3 + i);
      v128_t ab0 = wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      v128_t ab1 = wasm_i8x16_shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
      v128_t cd0 = wasm_i8x16_shuffle(c, d, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      v128_t cd1 = wasm_i8x16_shuffle(c, d, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
      u8 *o = dst + 4 * i;
      wasm_v128_store(o, wasm_i16x8_shuffle(ab0, cd0, 0, 8, 1, 9, 2, 10, 3, 11));
      wasm_v128_store(o + 16, wasm_i16x8_shuffle(ab0, cd0, 4, 12, 5, 13, 6, 14, 7, 15));
      wasm_v128_store(o + 32, wasm_i16x8_shuffle(ab1, cd1, 0, 8, 1, 9, 2, 10, 3, 11));
      wasm_v128_store(o + 48, wasm_i16x8_shuffle(ab1, cd1, 4, 12, 5, 13, 6, 14, 7, 15));
    }
    for (; i < n; i++) {
      u8 *o = dst + 4 * i;
      o[0] = s0[i];
      o[1] = s1[i];
      o[2] = s2[i];
      o[3] = s3[i];
    }
  } else if (typesize == 2) {
    const u8 *s0 = planes[0], *s1 = planes[1];
    for (; i + 16 <= n; i += 16) {
      v128_t a = wasm_v128_load(s0 + i), b = wasm_v128_load(s1 + i);
      wasm_v128_store(dst + 2 * i, wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
      wasm_v128_store(dst + 2 * i + 16, wasm_i8x16_shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31));
    }
    for (; i < n; i++) {
      dst[2 * i] = s0[i];
      dst[2 * i + 1] = s1[i];
    }
  } else if (typesize == 8) {
    const u8 *const *s = planes;
    for (; i + 16 <= n; i += 16) {
      v128_t x[8];
      for (int j = 0; j < 8; j++) x[j] = wasm_v128_load(s[j] + i);
      /* Interleave bytes, then 16-bit pairs, then 32-bit quads. */
      v128_t b01l = wasm_i8x16_shuffle(x[0], x[1], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      v128_t b01h = wasm_i8x16_shuffle(x[0], x[1], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
      v128_t b23l = wasm_i8x16_shuffle(x[2], x[3], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      v128_t b23h = wasm_i8x16_shuffle(x[2], x[3], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
      v128_t b45l = wasm_i8x16_shuffle(x[4], x[5], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      v128_t b45h = wasm_i8x16_shuffle(x[4], x[5], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
      v128_t b67l = wasm_i8x16_shuffle(x[6], x[7], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
      v128_t b67h = wasm_i8x16_shuffle(x[6], x[7], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
      v128_t w0l = wasm_i16x8_shuffle(b01l, b23l, 0, 8, 1, 9, 2, 10, 3, 11);
      v128_t w0h = wasm_i16x8_shuffle(b01l, b23l, 4, 12, 5, 13, 6, 14, 7, 15);
      v128_t w1l = wasm_i16x8_shuffle(b01h, b23h, 0, 8, 1, 9, 2, 10, 3, 11);
      v128_t w1h = wasm_i16x8_shuffle(b01h, b23h, 4, 12, 5, 13, 6, 14, 7, 15);
      v128_t w2l = wasm_i16x8_shuffle(b45l, b67l, 0, 8, 1, 9, 2, 10, 3, 11);
      v128_t w2h = wasm_i16x8_shuffle(b45l, b67l, 4, 12, 5, 13, 6, 14, 7, 15);
      v128_t w3l = wasm_i16x8_shuffle(b45h, b67h, 0, 8, 1, 9, 2, 10, 3, 11);
      v128_t w3h = wasm_i16x8_shuffle(b45h, b67h, 4, 12, 5, 13, 6, 14, 7, 15);
      u8 *o = dst + 8 * i;
      wasm_v128_store(o, wasm_i32x4_shuffle(w0l, w2l, 0, 4, 1, 5));
      wasm_v128_store(o + 16, wasm_i32x4_shuffle(w0l, w2l, 2, 6, 3, 7));
      wasm_v128_store(o + 32, wasm_i32x4_shuffle(w0h, w2h, 0, 4, 1, 5));
      wasm_v128_store(o + 48, wasm_i32x4_shuffle(w0h, w2h, 2, 6, 3, 7));
      wasm_v128_store(o + 64, wasm_i32x4_shuffle(w1l, w3l, 0, 4, 1, 5));
      wasm_v128_store(o + 80, wasm_i32x4_shuffle(w1l, w3l, 2, 6, 3, 7));
      wasm_v128_store(o + 96, wasm_i32x4_shuffle(w1h, w3h, 0, 4, 1, 5));
      wasm_v128_store(o + 112, wasm_i32x4_shuffle(w1h, w3h, 2, 6, 3, 7));
    }
    for (; i < n; i++)
      for (int j = 0; j < 8; j++) dst[8 * i + j] = s[j][i];
  } else {
    for (int j = 0; j < typesize; j++) {
      const u8 *s = planes[j];
      u8 *o = dst + j;
      for (int k = 0; k < n; k++) o[k * typesize] = s[k];
    }
  }
}

/* Byte unshuffle of one block: src holds typesize streams of n = size / typesize bytes. */
EXPORT("unshuffle")
void unshuffle(int typesize, int size, const u8 *src, u8 *dst) {
  int n = size / typesize;
  const u8 *planes[256];
  for (int j = 0; j < typesize; j++) planes[j] = src + j * n;
  unshuffle_planes(typesize, n, planes, dst);
  /* Trailing bytes that do not make a whole item are not shuffled. */
  int done = n * typesize;
  for (int k = done; k < size; k++) dst[k] = src[k];
}

/* Transposes the 8x8 bit matrix in x: bit 8r+c and bit 8c+r trade places. */
static inline uint64_t transpose8(uint64_t x) {
  uint64_t t;
  t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
  x ^= t ^ (t << 7);
  t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
  x ^= t ^ (t << 14);
  t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
  x ^= t ^ (t << 28);
  return x;
}

/* Items per tile of bitunshuffle's byte planes: 64 KiB of planes at most, a multiple of 128. */
#define PLANE_TILE 65536
static u8 planes[PLANE_TILE];

/* 8x8 bit transposes of the two 64-bit lanes of v. */
static inline v128_t transpose8x2(v128_t x) {
  v128_t t;
  t = wasm_v128_and(wasm_v128_xor(x, wasm_u64x2_shr(x, 7)), wasm_i64x2_splat(0x00AA00AA00AA00AAll));
  x = wasm_v128_xor(x, wasm_v128_xor(t, wasm_i64x2_shl(t, 7)));
  t = wasm_v128_and(wasm_v128_xor(x, wasm_u64x2_shr(x, 14)), wasm_i64x2_splat(0x0000CCCC0000CCCCll));
  x = wasm_v128_xor(x, wasm_v128_xor(t, wasm_i64x2_shl(t, 14)));
  t = wasm_v128_and(wasm_v128_xor(x, wasm_u64x2_shr(x, 28)), wasm_i64x2_splat(0x00000000F0F0F0F0ll));
  return wasm_v128_xor(x, wasm_v128_xor(t, wasm_i64x2_shl(t, 28)));
}

#define LO8(a, b) wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23)
#define HI8(a, b) wasm_i8x16_shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31)
#define LO16(a, b) wasm_i16x8_shuffle(a, b, 0, 8, 1, 9, 2, 10, 3, 11)
#define HI16(a, b) wasm_i16x8_shuffle(a, b, 4, 12, 5, 13, 6, 14, 7, 15)
#define LO32(a, b) wasm_i32x4_shuffle(a, b, 0, 4, 1, 5)
#define HI32(a, b) wasm_i32x4_shuffle(a, b, 2, 6, 3, 7)

/*
 * One byte plane from its 8 bit planes: out[8g + k] has bit b = bit k of rows[b * stride + g],
 * for g < groups. 16 groups at a time: the 8 rows' bytes are interleaved into one 64-bit lane per
 * group, whose 8x8 bit matrix is then transposed.
 */
static void planes_to_bytes(const u8 *rows, int stride, int groups, u8 *out) {
  int g = 0;
  for (; g + 16 <= groups; g += 16) {
    const u8 *r = rows + g;
    v128_t r0 = wasm_v128_load(r), r1 = wasm_v128_load(r + stride), r2 = wasm_v128_load(r + 2 * stride),
           r3 = wasm_v128_load(r + 3 * stride), r4 = wasm_v128_load(r + 4 * stride), r5 = wasm_v128_load(r + 5 * stride),
           r6 = wasm_v128_load(r + 6 * stride), r7 = wasm_v128_load(r + 7 * stride);
    v128_t a0 = LO8(r0, r1), a1 = HI8(r0, r1), a2 = LO8(r2, r3), a3 = HI8(r2, r3);
    v128_t a4 = LO8(r4, r5), a5 = HI8(r4, r5), a6 = LO8(r6, r7), a7 = HI8(r6, r7);
    v128_t b0 = LO16(a0, a2), b1 = HI16(a0, a2), b2 = LO16(a1, a3), b3 = HI16(a1, a3);
    v128_t b4 = LO16(a4, a6), b5 = HI16(a4, a6), b6 = LO16(a5, a7), b7 = HI16(a5, a7);
    u8 *o = out + 8 * g;
    wasm_v128_store(o, transpose8x2(LO32(b0, b4)));
    wasm_v128_store(o + 16, transpose8x2(HI32(b0, b4)));
    wasm_v128_store(o + 32, transpose8x2(LO32(b1, b5)));
    wasm_v128_store(o + 48, transpose8x2(HI32(b1, b5)));
    wasm_v128_store(o + 64, transpose8x2(LO32(b2, b6)));
    wasm_v128_store(o + 80, transpose8x2(HI32(b2, b6)));
    wasm_v128_store(o + 96, transpose8x2(LO32(b3, b7)));
    wasm_v128_store(o + 112, transpose8x2(HI32(b3, b7)));
  }
  for (; g < groups; g++) {
    const u8 *r = rows + g;
    uint64_t x = (uint64_t)r[0] | (uint64_t)r[stride] << 8 | (uint64_t)r[2 * stride] << 16 |
                 (uint64_t)r[3 * stride] << 24 | (uint64_t)r[4 * stride] << 32 | (uint64_t)r[5 * stride] << 40 |
                 (uint64_t)r[6 * stride] << 48 | (uint64_t)r[7 * stride] << 56;
    x = transpose8(x);
    __builtin_memcpy(out + 8 * g, &x, 8);
  }
}

/*
 * Bit unshuffle of one block (see src/shuffle.ts): src holds 8 * typesize rows of n / 8 bytes, row
 * 8j + b holding bit b of byte j of every item. Blocks whose item count is not a multiple of 8
 * were not shuffled and are copied. Tile by tile: the bit planes become byte planes (byte j of
 * every item of the tile), which the byte unshuffle interleaves.
 */
EXPORT("bitunshuffle")
void bitunshuffle(int typesize, int size, const u8 *src, u8 *dst) {
  int n = size / typesize;
  if (n % 8 != 0) {
    __builtin_memcpy(dst, src, size);
    return;
  }
  int rowBytes = n / 8;
  int tile = (PLANE_TILE / typesize) & ~127;
  for (int i0 = 0; i0 < n; i0 += tile) {
    int count = n - i0 < tile ? n - i0 : tile;
    u8 *target = typesize == 1 ? dst + i0 : planes;
    for (int j = 0; j < typesize; j++) planes_to_bytes(src + 8 * j * rowBytes + i0 / 8, rowBytes, count / 8, target + j * count);
    if (typesize > 1) unshuffle(typesize, count * typesize, planes, dst + i0 * typesize);
  }
  int done = n * typesize;
  for (int k = done; k < size; k++) dst[k] = src[k];
}
