/*
 * Adler-32 (RFC 1950) and CRC-32 (RFC 1952, the reflected 0xEDB88320 polynomial), written for
 * this package. Adler-32 sums 16 bytes at a time with SIMD; CRC-32 is table-driven, 8 bytes at a
 * time ("slicing by 8").
 *
 * V8 replaces a WebAssembly function by its optimised code only between calls, so each checksum
 * calls a non-inlined function per slice of its input: the first checksum of a large chunk would
 * otherwise run entirely in baseline code.
 */
#include "checksum.h"

#define ADLER_MOD 65521
/* The most bytes that can be summed before b may overflow 32 bits (zlib's NMAX), in 16-byte blocks. */
#define ADLER_BLOCKS (5552 / 16)
#define CRC_SLICE 65536

static u32 crc_table[8][256];
static int crc_ready;

static void init_crc(void) {
  for (u32 n = 0; n < 256; n++) {
    u32 c = n;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[0][n] = c;
  }
  for (u32 n = 0; n < 256; n++)
    for (int t = 1; t < 8; t++) crc_table[t][n] = (crc_table[t - 1][n] >> 8) ^ crc_table[0][crc_table[t - 1][n] & 255];
  crc_ready = 1;
}

/* The inverted CRC register after p[0, n), n a multiple of 8. */
__attribute__((noinline)) static u32 crc_slice(u32 crc, const u8 *p, int n) {
  for (; n > 0; n -= 8, p += 8) {
    u32 a = rd32(p) ^ crc, b = rd32(p + 4);
    crc = crc_table[7][a & 255] ^ crc_table[6][(a >> 8) & 255] ^ crc_table[5][(a >> 16) & 255] ^ crc_table[4][a >> 24] ^
          crc_table[3][b & 255] ^ crc_table[2][(b >> 8) & 255] ^ crc_table[1][(b >> 16) & 255] ^ crc_table[0][b >> 24];
  }
  return crc;
}

EXPORT("crc32")
u32 crc32(u32 crc, const u8 *p, int n) {
  if (!crc_ready) init_crc();
  crc = ~crc;
  while (n >= 8) {
    int k = n < CRC_SLICE ? n & ~7 : CRC_SLICE;
    crc = crc_slice(crc, p, k);
    p += k;
    n -= k;
  }
  while (n-- > 0) crc = crc_table[0][(crc ^ *p++) & 255] ^ (crc >> 8);
  return ~crc;
}

static inline u64 sum_lanes(v128_t v) {
  return (u64)wasm_u32x4_extract_lane(v, 0) + wasm_u32x4_extract_lane(v, 1) + wasm_u32x4_extract_lane(v, 2) +
         wasm_u32x4_extract_lane(v, 3);
}

/*
 * Adler-32's a and b (each < 65521 on entry) after `blocks` (<= ADLER_BLOCKS) 16-byte blocks of p,
 * as b << 32 | a. Per block: a grows by the sum of its bytes; b by 16 times a before the block
 * plus each byte weighted by how many of the block's sums include it (16 for the first, 1 for the
 * last). Lanes stay below 2^32: 347 blocks add at most 347 * 346 / 2 * 1020 to `before`.
 */
__attribute__((noinline)) static u64 adler_blocks(u32 a, u32 b, const u8 *p, u32 blocks) {
  const v128_t first = wasm_i16x8_make(16, 15, 14, 13, 12, 11, 10, 9), second = wasm_i16x8_make(8, 7, 6, 5, 4, 3, 2, 1);
  v128_t sums = wasm_i32x4_splat(0), before = sums, weighted = sums;
  for (u32 i = 0; i < blocks; i++, p += 16) {
    v128_t v = wasm_v128_load(p);
    before = wasm_i32x4_add(before, sums);
    sums = wasm_i32x4_add(sums, wasm_u32x4_extadd_pairwise_u16x8(wasm_u16x8_extadd_pairwise_u8x16(v)));
    weighted = wasm_i32x4_add(weighted, wasm_i32x4_add(wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(v), first),
                                                       wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(v), second)));
  }
  u64 na = (a + sum_lanes(sums)) % ADLER_MOD;
  u64 nb = (b + 16ull * blocks * a + 16 * sum_lanes(before) + sum_lanes(weighted)) % ADLER_MOD;
  return nb << 32 | na;
}

EXPORT("adler32")
u32 adler32(u32 adler, const u8 *p, int n) {
  u32 a = adler & 0xffff, b = adler >> 16;
  while (n >= 16) {
    u32 blocks = (u32)n / 16 < ADLER_BLOCKS ? (u32)n / 16 : ADLER_BLOCKS;
    u64 r = adler_blocks(a, b, p, blocks);
    a = (u32)r;
    b = (u32)(r >> 32);
    p += 16 * blocks;
    n -= 16 * (int)blocks;
  }
  while (n-- > 0) {
    a += *p++;
    b += a;
  }
  return (b % ADLER_MOD) << 16 | (a % ADLER_MOD);
}
