/*
 * Hot loops of Blosc encoding for @z/codecs-wasm, compiled to WebAssembly by build-encode.sh
 * (with deflate.c, into one module): byte shuffle, bit shuffle and LZ4 block compression.
 * Written for this package; no code from other projects. Each function gives the same bytes as
 * its TypeScript twin (src/shuffle.ts, src/lz4-block.ts), which tests check, so the wasm and the
 * TypeScript paths are interchangeable. No libc: the TypeScript side lays out the module's linear
 * memory (input, output, scratch) and grows it.
 */
#include "common.h"

/* Byte shuffle of one block: dst gets typesize streams of n = size / typesize bytes, stream j
 * holding byte j of every item; the size % typesize trailing bytes follow unchanged. */
EXPORT("shuffle")
void shuffle(int typesize, int size, const u8 *src, u8 *dst) {
  int n = size / typesize;
  int i = 0;
  if (typesize == 4) {
    u8 *d0 = dst, *d1 = dst + n, *d2 = dst + 2 * n, *d3 = dst + 3 * n;
    for (; i + 16 <= n; i += 16) {
      const u8 *s = src + 4 * i;
      /* Per vector (4 items): group byte 0 of each item, then byte 1, ... (32-bit lanes). */
      v128_t t0 = wasm_i8x16_shuffle(wasm_v128_load(s), wasm_v128_load(s), 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
      v128_t t1 = wasm_i8x16_shuffle(wasm_v128_load(s + 16), wasm_v128_load(s + 16), 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
      v128_t t2 = wasm_i8x16_shuffle(wasm_v128_load(s + 32), wasm_v128_load(s + 32), 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
      v128_t t3 = wasm_i8x16_shuffle(wasm_v128_load(s + 48), wasm_v128_load(s + 48), 0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
      /* Then transpose the 4x4 matrix of 32-bit lanes. */
      v128_t a = wasm_i32x4_shuffle(t0, t1, 0, 4, 1, 5);
      v128_t b = wasm_i32x4_shuffle(t2, t3, 0, 4, 1, 5);
      v128_t c = wasm_i32x4_shuffle(t0, t1, 2, 6, 3, 7);
      v128_t d = wasm_i32x4_shuffle(t2, t3, 2, 6, 3, 7);
      wasm_v128_store(d0 + i, wasm_i64x2_shuffle(a, b, 0, 2));
      wasm_v128_store(d1 + i, wasm_i64x2_shuffle(a, b, 1, 3));
      wasm_v128_store(d2 + i, wasm_i64x2_shuffle(c, d, 0, 2));
      wasm_v128_store(d3 + i, wasm_i64x2_shuffle(c, d, 1, 3));
    }
    for (; i < n; i++) {
      const u8 *s = src + 4 * i;
      d0[i] = s[0];
      d1[i] = s[1];
      d2[i] = s[2];
      d3[i] = s[3];
    }
  } else if (typesize == 2) {
    for (; i + 16 <= n; i += 16) {
      v128_t a = wasm_v128_load(src + 2 * i), b = wasm_v128_load(src + 2 * i + 16);
      wasm_v128_store(dst + i, wasm_i8x16_shuffle(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30));
      wasm_v128_store(dst + n + i, wasm_i8x16_shuffle(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31));
    }
    for (; i < n; i++) {
      dst[i] = src[2 * i];
      dst[n + i] = src[2 * i + 1];
    }
  } else if (typesize == 8) {
    for (; i + 16 <= n; i += 16) {
      const u8 *s = src + 8 * i;
      v128_t x[8];
      /* Per vector (2 items): 16-bit lane j holds byte j of both items. */
      for (int k = 0; k < 8; k++) {
        v128_t v = wasm_v128_load(s + 16 * k);
        x[k] = wasm_i8x16_shuffle(v, v, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
      }
      /* Then transpose the 8x8 matrix of 16-bit lanes. */
      v128_t p01l = wasm_i16x8_shuffle(x[0], x[1], 0, 8, 1, 9, 2, 10, 3, 11);
      v128_t p01h = wasm_i16x8_shuffle(x[0], x[1], 4, 12, 5, 13, 6, 14, 7, 15);
      v128_t p23l = wasm_i16x8_shuffle(x[2], x[3], 0, 8, 1, 9, 2, 10, 3, 11);
      v128_t p23h = wasm_i16x8_shuffle(x[2], x[3], 4, 12, 5, 13, 6, 14, 7, 15);
      v128_t p45l = wasm_i16x8_shuffle(x[4], x[5], 0, 8, 1, 9, 2, 10, 3, 11);
      v128_t p45h = wasm_i16x8_shuffle(x[4], x[5], 4, 12, 5, 13, 6, 14, 7, 15);
      v128_t p67l = wasm_i16x8_shuffle(x[6], x[7], 0, 8, 1, 9, 2, 10, 3, 11);
      v128_t p67h = wasm_i16x8_shuffle(x[6], x[7], 4, 12, 5, 13, 6, 14, 7, 15);
      v128_t q0 = wasm_i32x4_shuffle(p01l, p23l, 0, 4, 1, 5), r0 = wasm_i32x4_shuffle(p45l, p67l, 0, 4, 1, 5);
      v128_t q1 = wasm_i32x4_shuffle(p01l, p23l, 2, 6, 3, 7), r1 = wasm_i32x4_shuffle(p45l, p67l, 2, 6, 3, 7);
      v128_t q2 = wasm_i32x4_shuffle(p01h, p23h, 0, 4, 1, 5), r2 = wasm_i32x4_shuffle(p45h, p67h, 0, 4, 1, 5);
      v128_t q3 = wasm_i32x4_shuffle(p01h, p23h, 2, 6, 3, 7), r3 = wasm_i32x4_shuffle(p45h, p67h, 2, 6, 3, 7);
      wasm_v128_store(dst + i, wasm_i64x2_shuffle(q0, r0, 0, 2));
      wasm_v128_store(dst + n + i, wasm_i64x2_shuffle(q0, r0, 1, 3));
      wasm_v128_store(dst + 2 * n + i, wasm_i64x2_shuffle(q1, r1, 0, 2));
      wasm_v128_store(dst + 3 * n + i, wasm_i64x2_shuffle(q1, r1, 1, 3));
      wasm_v128_store(dst + 4 * n + i, wasm_i64x2_shuffle(q2, r2, 0, 2));
      wasm_v128_store(dst + 5 * n + i, wasm_i64x2_shuffle(q2, r2, 1, 3));
      wasm_v128_store(dst + 6 * n + i, wasm_i64x2_shuffle(q3, r3, 0, 2));
      wasm_v128_store(dst + 7 * n + i, wasm_i64x2_shuffle(q3, r3, 1, 3));
    }
    for (; i < n; i++)
      for (int j = 0; j < 8; j++) dst[j * n + i] = src[8 * i + j];
  } else {
    for (int j = 0; j < typesize; j++) {
      u8 *o = dst + j * n;
      const u8 *s = src + j;
      for (int k = 0; k < n; k++) o[k] = s[k * typesize];
    }
  }
  for (int k = n * typesize; k < size; k++) dst[k] = src[k];
}

/* Transposes the 8x8 bit matrix in x: bit 8r+c and bit 8c+r trade places. */
static inline u64 transpose8(u64 x) {
  u64 t;
  t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
  x ^= t ^ (t << 7);
  t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
  x ^= t ^ (t << 14);
  t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
  x ^= t ^ (t << 28);
  return x;
}

/*
 * Bit shuffle of one block (see src/shuffle.ts): dst gets 8 * typesize rows of n / 8 bytes, row
 * 8j + b holding bit b of byte j of every item (item i at bit i % 8 of byte i / 8). Blocks whose
 * item count is not a multiple of 8 are copied. `tmp` (size bytes) holds the byte-shuffled block:
 * from byte streams, 16 items' bit b is one SIMD bitmask.
 */
EXPORT("bitshuffle")
void bitshuffle(int typesize, int size, const u8 *src, u8 *dst, u8 *tmp) {
  int n = size / typesize;
  if (n % 8 != 0) {
    __builtin_memcpy(dst, src, size);
    return;
  }
  const u8 *streams = src;
  if (typesize > 1) {
    shuffle(typesize, n * typesize, src, tmp);
    streams = tmp;
  }
  int rowBytes = n / 8;
  for (int j = 0; j < typesize; j++) {
    const u8 *s = streams + j * n;
    u8 *rows = dst + 8 * j * rowBytes;
    int g = 0;
    for (; g + 16 <= n; g += 16) {
      v128_t v = wasm_v128_load(s + g);
      for (int b = 7; b >= 0; b--) {
        u16 m = (u16)wasm_i8x16_bitmask(v);
        __builtin_memcpy(rows + b * rowBytes + g / 8, &m, 2);
        v = wasm_i8x16_shl(v, 1);
      }
    }
    for (; g < n; g += 8) {
      u64 x = transpose8(rd64(s + g));
      for (int b = 0; b < 8; b++) {
        rows[b * rowBytes + g / 8] = (u8)x;
        x >>= 8;
      }
    }
  }
  for (int k = n * typesize; k < size; k++) dst[k] = src[k];
}

/* LZ4 block compression, as src/lz4-block.ts's lz4EncodeBlock (same bytes). */
#define MIN_MATCH 4
#define MF_LIMIT 12
#define LAST_LITERALS 5
#define MAX_DISTANCE 65535
#define SKIP_TRIGGER 6

static int32_t lz4_table[1 << 14];

static u8 *put_literals(u8 *op, const u8 *anchor, unsigned literals, u8 *token) {
  if (literals >= 15) {
    *token = 15 << 4;
    unsigned rest = literals - 15;
    for (; rest >= 255; rest -= 255) *op++ = 255;
    *op++ = (u8)rest;
  } else {
    *token = (u8)(literals << 4);
  }
  __builtin_memcpy(op, anchor, literals);
  return op + literals;
}

static u8 *put_sequence(u8 *op, const u8 *anchor, unsigned literals, unsigned offset, unsigned length) {
  u8 *token = op++;
  op = put_literals(op, anchor, literals, token);
  *op++ = (u8)offset;
  *op++ = (u8)(offset >> 8);
  unsigned rest = length - MIN_MATCH;
  if (rest >= 15) {
    *token |= 15;
    rest -= 15;
    for (; rest >= 255; rest -= 255) *op++ = 255;
    *op++ = (u8)rest;
  } else {
    *token |= (u8)rest;
  }
  return op;
}

/* Equal bytes from a and b on, stopping at limit (for a). */
static inline unsigned match_length(const u8 *a, const u8 *b, const u8 *limit) {
  const u8 *start = a;
  while (a + 8 <= limit) {
    u64 diff = rd64(a) ^ rd64(b);
    if (diff) return (unsigned)(a - start) + (__builtin_ctzll(diff) >> 3);
    a += 8;
    b += 8;
  }
  while (a < limit && *a == *b) {
    a++;
    b++;
  }
  return (unsigned)(a - start);
}

/* Compresses src[0, n) into dst (which has room for lz4Bound(n) bytes); returns the bytes written. */
EXPORT("lz4_encode")
int lz4_encode(const u8 *src, int n, u8 *dst, int acceleration) {
  u8 *op = dst;
  const u8 *anchor = src;
  if (n >= MF_LIMIT + 1) {
    const int small = n < 65536 + 11;
    const int hashLog = small ? 13 : 14;
    const int shift = 32 - hashLog;
    int32_t *table = lz4_table;
    for (int k = 0; k < (1 << hashLog); k++) table[k] = -1;
    const u8 *const mflimit = src + n - MF_LIMIT;
    const u8 *const matchlimit = src + n - LAST_LITERALS;
    unsigned accel = acceleration < 1 ? 1 : acceleration > 65537 ? 65537 : (unsigned)acceleration;
#define HASH(p) \
  (small ? (rd32(p) * 2654435761u) >> shift : ((rd32(p) * 2654435761u) ^ ((u32)(p)[4] * 0x85ebca77u)) >> shift)
    const u8 *ip = src;
    table[HASH(ip)] = 0;
    ip++;
    for (;;) {
      unsigned searches = accel << SKIP_TRIGGER;
      unsigned step = 1;
      const u8 *match;
      for (;;) {
        if (ip > mflimit) goto last;
        u32 seq = rd32(ip);
        u32 h = HASH(ip);
        int32_t m = table[h];
        table[h] = (int32_t)(ip - src);
        if (m >= 0 && (ip - src) - m <= MAX_DISTANCE && rd32(src + m) == seq) {
          match = src + m;
          break;
        }
        ip += step;
        step = searches++ >> SKIP_TRIGGER;
      }
      while (ip > anchor && match > src && ip[-1] == match[-1]) {
        ip--;
        match--;
      }
      for (;;) {
        unsigned length = MIN_MATCH + match_length(ip + MIN_MATCH, match + MIN_MATCH, matchlimit);
        op = put_sequence(op, anchor, (unsigned)(ip - anchor), (unsigned)(ip - match), length);
        ip += length;
        anchor = ip;
        if (ip > mflimit) goto last;
        table[HASH(ip - 2)] = (int32_t)(ip - 2 - src);
        u32 seq = rd32(ip);
        u32 h = HASH(ip);
        int32_t m = table[h];
        table[h] = (int32_t)(ip - src);
        if (m >= 0 && (ip - src) - m <= MAX_DISTANCE && rd32(src + m) == seq) {
          match = src + m;
          continue;
        }
        ip++;
        break;
      }
    }
#undef HASH
  }
last: {
  u8 *token = op++;
  op = put_literals(op, anchor, (unsigned)(src + n - anchor), token);
}
  return (int)(op - dst);
}
