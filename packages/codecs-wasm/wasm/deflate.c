/*
 * DEFLATE (RFC 1951) compression for @z/codecs-wasm's zlib and gzip codecs (their trailers'
 * checksums are in checksum.c); compiled with encode.c by build-encode.sh. Written for this package
 * from the RFC and the well-known zlib strategies (no code from other projects):
 *
 * - levels 1-3: greedy matching over a hash chain (as zlib's "deflate_fast"); a match no longer
 *   than `max_lazy` has its inner positions inserted into the chain, a longer one is skipped;
 * - levels 4-9: lazy matching (zlib's "deflate_slow"): a match is emitted only when the next
 *   position has no longer one;
 * - both with zlib's table of chain lengths per level, so ratios and speeds track zlib's;
 * - blocks of at most 16383 symbols (zlib's at its default memLevel), each written as whichever
 *   is smallest of stored, fixed Huffman and dynamic Huffman (length-limited canonical codes).
 *
 * The whole input is in memory, so positions are absolute: no sliding window.
 */
#include "deflate-format.h"

#define WSIZE 32768
#define WMASK (WSIZE - 1)
#define MAX_DIST (WSIZE - 1)
#define MIN_M 3
#define MAX_M 258
#define HASH_BITS 15
#define TOO_FAR 4096
#define SYM_MAX 16383

/* ---- tables ---- */

static u16 len_base[29];   /* first (length - 3) of each length code */
static u8 len_code[256];   /* length - 3 -> length code (0-28) */
static u16 dist_base[30];  /* first (distance - 1) of each distance code */
static u8 dist_code[WSIZE]; /* distance - 1 -> distance code */
static u8 fixed_llen[288], fixed_dlen[30];
static u16 fixed_lcode[288], fixed_dcode[30];
static int ready;

static u16 reverse(u16 code, int len) {
  u16 r = 0;
  for (int i = 0; i < len; i++) {
    r = (u16)((r << 1) | (code & 1));
    code >>= 1;
  }
  return r;
}

/* Canonical codes (bit-reversed, as DEFLATE writes them) for code lengths lens[0, n). */
static void make_codes(const u8 *lens, int n, u16 *codes) {
  u16 count[16] = {0}, next[16];
  for (int i = 0; i < n; i++) count[lens[i]]++;
  count[0] = 0;
  u16 code = 0;
  for (int b = 1; b < 16; b++) {
    code = (u16)((code + count[b - 1]) << 1);
    next[b] = code;
  }
  for (int i = 0; i < n; i++) codes[i] = lens[i] ? reverse(next[lens[i]]++, lens[i]) : 0;
}

static void init_tables(void) {
  int base = 0;
  for (int code = 0; code < 28; code++) {
    len_base[code] = (u16)base;
    for (int k = 0; k < (1 << LEN_EXTRA[code]); k++) len_code[base++] = (u8)code;
  }
  len_base[28] = 255;
  len_code[255] = 28; /* length 258 has its own code (285), not 284 with extra bits 31 */
  base = 0;
  for (int code = 0; code < 30; code++) {
    dist_base[code] = (u16)base;
    for (int k = 0; k < (1 << DIST_EXTRA[code]); k++) dist_code[base++] = (u8)code;
  }
  for (int i = 0; i < 288; i++) fixed_llen[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
  for (int i = 0; i < 30; i++) fixed_dlen[i] = 5;
  make_codes(fixed_llen, 288, fixed_lcode);
  make_codes(fixed_dlen, 30, fixed_dcode);
  ready = 1;
}

/* ---- output bits ---- */

static u8 *out, *out_end;
static u64 bitbuf;
static int bitcnt;
static int overflow;

static inline void put(u32 bits, int n) {
  bitbuf |= (u64)bits << bitcnt;
  bitcnt += n;
  if (bitcnt >= 32) {
    u32 w = (u32)bitbuf;
    __builtin_memcpy(out, &w, 4);
    out += 4;
    bitbuf >>= 32;
    bitcnt -= 32;
  }
}

/* Writes out the pending bits, padding to a byte boundary. */
static void align_byte(void) {
  while (bitcnt > 0) {
    *out++ = (u8)bitbuf;
    bitbuf >>= 8;
    bitcnt -= 8;
  }
  bitcnt = 0;
  bitbuf = 0;
}

/* ---- Huffman code lengths ---- */

/* Sorts keys ascending (Shell sort: at most 288 keys). */
static void sort_keys(u32 *a, int n) {
  static const int gaps[] = {132, 57, 23, 10, 4, 1};
  for (int g = 0; g < 6; g++) {
    int gap = gaps[g];
    for (int i = gap; i < n; i++) {
      u32 v = a[i];
      int j = i;
      for (; j >= gap && a[j - gap] > v; j -= gap) a[j] = a[j - gap];
      a[j] = v;
    }
  }
}

/*
 * Optimal code lengths for the sorted (ascending) weights a[0, n), in place (Moffat and
 * Katajainen's in-place algorithm): a[i] becomes the depth of leaf i.
 */
static void min_redundancy(u32 *a, int n) {
  int root, leaf, next, avbl, used, depth;
  if (n == 1) {
    a[0] = 0;
    return;
  }
  a[0] += a[1];
  root = 0;
  leaf = 2;
  for (next = 1; next < n - 1; next++) {
    if (leaf >= n || a[root] < a[leaf]) {
      a[next] = a[root];
      a[root++] = (u32)next;
    } else {
      a[next] = a[leaf++];
    }
    if (leaf >= n || (root < next && a[root] < a[leaf])) {
      a[next] += a[root];
      a[root++] = (u32)next;
    } else {
      a[next] += a[leaf++];
    }
  }
  a[n - 2] = 0;
  for (next = n - 3; next >= 0; next--) a[next] = a[a[next]] + 1;
  avbl = 1;
  used = depth = 0;
  root = n - 2;
  next = n - 1;
  while (avbl > 0) {
    while (root >= 0 && (int)a[root] == depth) {
      used++;
      root--;
    }
    while (avbl > used) {
      a[next--] = (u32)depth;
      avbl--;
    }
    avbl = 2 * used;
    depth++;
    used = 0;
  }
}

/*
 * Code lengths of at most maxbits for the frequencies freq[0, n). Unused symbols get 0; at least
 * two symbols get a code (as inflaters such as zlib's expect of every tree).
 */
static void build_lengths(const u32 *freq, int n, int maxbits, u8 *lens) {
  u32 keys[288];
  int m = 0;
  for (int i = 0; i < n; i++) {
    lens[i] = 0;
    if (freq[i]) keys[m++] = (freq[i] << 9) | (u32)i;
  }
  if (m < 2) {
    int used = m ? (int)(keys[0] & 511) : 0;
    lens[used] = 1;
    lens[used == 0 ? 1 : 0] = 1;
    return;
  }
  sort_keys(keys, m);
  u32 depth[288];
  for (int i = 0; i < m; i++) depth[i] = keys[i] >> 9;
  min_redundancy(depth, m);
  /* Count codes per length, clamping to maxbits, then restore the Kraft sum: each round moves
   * one code down a level (total unchanged) and removes one unit from the longest level. */
  u32 count[16] = {0};
  for (int i = 0; i < m; i++) count[depth[i] > (u32)maxbits ? maxbits : depth[i]]++;
  u32 total = 0;
  for (int b = 1; b <= maxbits; b++) total += count[b] << (maxbits - b);
  while (total > (1u << maxbits)) {
    count[maxbits]--;
    for (int b = maxbits - 1; b > 0; b--) {
      if (count[b]) {
        count[b]--;
        count[b + 1] += 2;
        break;
      }
    }
    total--;
  }
  /* The least frequent symbols (first in keys) take the longest codes. */
  int k = 0;
  for (int b = maxbits; b >= 1; b--)
    for (u32 c = count[b]; c > 0; c--) lens[keys[k++] & 511] = (u8)b;
}

/* ---- blocks ---- */

static u32 syms[SYM_MAX]; /* distance << 8 | (literal, or length - 3); distance 0 for a literal */
static int nsyms;
static u32 lfreq[L_CODES], dfreq[D_CODES];
static int32_t head[1 << HASH_BITS];
static int32_t prevpos[WSIZE];

static inline int tally_literal(u8 c) {
  syms[nsyms++] = c;
  lfreq[c]++;
  return nsyms == SYM_MAX;
}

static inline int tally_match(unsigned dist, unsigned len) {
  syms[nsyms++] = (dist << 8) | (len - MIN_M);
  lfreq[257 + len_code[len - MIN_M]]++;
  dfreq[dist_code[dist - 1]]++;
  return nsyms == SYM_MAX;
}

/* Bits the block's symbols take with the given code lengths (extra bits included). */
static u64 data_bits(const u8 *llen, const u8 *dlen) {
  u64 bits = 0;
  for (int i = 0; i < L_CODES; i++) bits += (u64)lfreq[i] * llen[i];
  for (int c = 0; c < 29; c++) bits += (u64)lfreq[257 + c] * LEN_EXTRA[c];
  for (int c = 0; c < D_CODES; c++) bits += (u64)dfreq[c] * (dlen[c] + DIST_EXTRA[c]);
  return bits;
}

/* Run-length codes of the code lengths (RFC 1951 3.2.7): sym | repeat-extra << 5. */
static int rle_lengths(const u8 *lens, int count, u16 *rle, u32 *blfreq) {
  int k = 0;
  for (int i = 0; i < count;) {
    u8 v = lens[i];
    int run = 1;
    while (i + run < count && lens[i + run] == v) run++;
    i += run;
    if (v == 0) {
      while (run >= 11) {
        int r = run < 138 ? run : 138;
        rle[k++] = (u16)(18 | (r - 11) << 5);
        blfreq[18]++;
        run -= r;
      }
      if (run >= 3) {
        rle[k++] = (u16)(17 | (run - 3) << 5);
        blfreq[17]++;
        run = 0;
      }
    } else {
      rle[k++] = v;
      blfreq[v]++;
      run--;
      while (run >= 3) {
        int r = run < 6 ? run : 6;
        rle[k++] = (u16)(16 | (r - 3) << 5);
        blfreq[16]++;
        run -= r;
      }
    }
    for (; run > 0; run--) {
      rle[k++] = v;
      blfreq[v]++;
    }
  }
  return k;
}

static void write_symbols(const u16 *lcode, const u8 *llen, const u16 *dcode, const u8 *dlen) {
  for (int i = 0; i < nsyms; i++) {
    u32 s = syms[i];
    u32 dist = s >> 8;
    u32 lc = s & 255;
    if (dist == 0) {
      put(lcode[lc], llen[lc]);
    } else {
      int c = len_code[lc];
      put(lcode[257 + c] | ((lc - len_base[c]) << llen[257 + c]), llen[257 + c] + LEN_EXTRA[c]);
      u32 d = dist - 1;
      int dc = dist_code[d];
      put(dcode[dc] | ((d - dist_base[dc]) << dlen[dc]), dlen[dc] + DIST_EXTRA[dc]);
    }
  }
  put(lcode[256], llen[256]);
}

/* Stored blocks of at most 65535 bytes for src[start, end). */
static void write_stored(const u8 *src, int start, int end, int last) {
  do {
    int len = end - start < 65535 ? end - start : 65535;
    int final = last && start + len == end;
    if (out_end - out < len + 16) {
      overflow = 1;
      return;
    }
    put((u32)final, 3);
    align_byte();
    out[0] = (u8)len;
    out[1] = (u8)(len >> 8);
    out[2] = (u8)~len;
    out[3] = (u8)(~len >> 8);
    __builtin_memcpy(out + 4, src + start, len);
    out += 4 + len;
    start += len;
  } while (start < end);
}

/* Writes the block holding the tallied symbols, which cover src[start, end), as the smallest of
 * stored, fixed and dynamic Huffman; then starts a new block. */
__attribute__((noinline)) static void flush_block(const u8 *src, int start, int end, int last) {
  u8 llen[L_CODES], dlen[D_CODES], bllen[BL_CODES];
  u16 lcode[L_CODES], dcode[D_CODES], blcode[BL_CODES];
  u16 rle[L_CODES + D_CODES];
  u32 blfreq[BL_CODES] = {0};
  lfreq[256] = 1;
  build_lengths(lfreq, L_CODES, 15, llen);
  build_lengths(dfreq, D_CODES, 15, dlen);
  int hlit = L_CODES, hdist = D_CODES;
  while (hlit > 257 && llen[hlit - 1] == 0) hlit--;
  while (hdist > 1 && dlen[hdist - 1] == 0) hdist--;
  u8 all[L_CODES + D_CODES];
  for (int i = 0; i < hlit; i++) all[i] = llen[i];
  for (int i = 0; i < hdist; i++) all[hlit + i] = dlen[i];
  int nrle = rle_lengths(all, hlit + hdist, rle, blfreq);
  build_lengths(blfreq, BL_CODES, 7, bllen);
  int hclen = BL_CODES;
  while (hclen > 4 && bllen[BL_ORDER[hclen - 1]] == 0) hclen--;

  u64 dynamic = 3 + 14 + 3 * (u64)hclen + data_bits(llen, dlen);
  for (int i = 0; i < nrle; i++) {
    int s = rle[i] & 31;
    dynamic += bllen[s] + (s == 16 ? 2 : s == 17 ? 3 : s == 18 ? 7 : 0);
  }
  u64 fixed = 3 + data_bits(fixed_llen, fixed_dlen);
  u64 best = dynamic < fixed ? dynamic : fixed;
  u64 stored_bytes = (u64)(end - start) + 5 * (u64)((end - start) / 65535 + 1);

  if (stored_bytes + 1 <= (best + 7) / 8) {
    write_stored(src, start, end, last);
  } else if ((u64)(out_end - out) < best / 8 + 16) {
    overflow = 1;
  } else if (fixed <= dynamic) {
    put(2 | (u32)last, 3);
    write_symbols(fixed_lcode, fixed_llen, fixed_dcode, fixed_dlen);
  } else {
    make_codes(llen, L_CODES, lcode);
    make_codes(dlen, D_CODES, dcode);
    make_codes(bllen, BL_CODES, blcode);
    put(4 | (u32)last, 3);
    put((u32)(hlit - 257), 5);
    put((u32)(hdist - 1), 5);
    put((u32)(hclen - 4), 4);
    for (int i = 0; i < hclen; i++) put(bllen[BL_ORDER[i]], 3);
    for (int i = 0; i < nrle; i++) {
      int s = rle[i] & 31, x = rle[i] >> 5;
      put(blcode[s], bllen[s]);
      if (s == 16) put((u32)x, 2);
      else if (s == 17) put((u32)x, 3);
      else if (s == 18) put((u32)x, 7);
    }
    write_symbols(lcode, llen, dcode, dlen);
  }
  nsyms = 0;
  for (int i = 0; i < L_CODES; i++) lfreq[i] = 0;
  for (int i = 0; i < D_CODES; i++) dfreq[i] = 0;
}

/* ---- matching ---- */

typedef struct {
  unsigned good, lazy, nice, chain;
} Config;

/* zlib's per-level parameters: good_length, max_lazy, nice_length, max_chain. */
static const Config CONFIGS[10] = {
    {0, 0, 0, 0},       {4, 4, 8, 4},        {4, 5, 16, 8},      {4, 6, 32, 32},      {4, 4, 16, 16},
    {8, 16, 32, 32},    {8, 16, 128, 128},   {8, 32, 128, 256},  {32, 128, 258, 1024}, {32, 258, 258, 4096},
};

/* The 3-byte hash; reads 4 bytes (the input has padding after its end). */
static inline u32 hash3(const u8 *p) { return ((rd32(p) & 0xffffff) * 2654435761u) >> (32 - HASH_BITS); }

static inline int32_t insert(const u8 *src, int pos) {
  u32 h = hash3(src + pos);
  int32_t cur = head[h];
  prevpos[pos & WMASK] = cur;
  head[h] = pos;
  return cur;
}

/* Equal bytes at a and b, at most max. */
static inline unsigned common(const u8 *a, const u8 *b, unsigned max) {
  unsigned len = 0;
  while (len + 8 <= max) {
    u64 diff = rd64(a + len) ^ rd64(b + len);
    if (diff) return len + (__builtin_ctzll(diff) >> 3);
    len += 8;
  }
  while (len < max && a[len] == b[len]) len++;
  return len;
}

/* The longest match for pos along the chain from cur that beats best; sets *start. */
static unsigned longest_match(const u8 *src, int pos, int avail, int32_t cur, unsigned best, int *start, const Config *c) {
  unsigned chain = c->chain;
  if (best >= c->good) chain >>= 2;
  unsigned max = avail < MAX_M ? (unsigned)avail : MAX_M;
  unsigned nice = c->nice < max ? c->nice : max;
  if (best >= max) return best;
  const u8 *scan = src + pos;
  int32_t limit = pos > MAX_DIST ? pos - MAX_DIST : 0;
  do {
    const u8 *m = src + cur;
    if (rd16(m + best - 1) != rd16(scan + best - 1) || rd16(m) != rd16(scan)) continue;
    unsigned len = common(scan, m, max);
    if (len > best) {
      best = len;
      *start = cur;
      if (len >= nice) break;
    }
  } while ((cur = prevpos[cur & WMASK]) >= limit && --chain != 0);
  return best;
}

/*
 * The matchers run a block at a time (until the block's symbols are full or the input ends) in
 * functions of their own, called once per block: engines tier a WebAssembly function up to
 * optimised code only between calls (V8 has no on-stack replacement for it), so one call looping
 * over a whole chunk would run in the baseline compiler's code to the end.
 */
static struct {
  int pos, block, covered, start, pending;
  unsigned len;
} st;

/* Greedy: returns 1 when the block is full (up to st.pos), 0 at the end of the input. */
__attribute__((noinline)) static int fast_block(const u8 *src, int n, const Config *c) {
  int pos = st.pos, full = 0;
  while (pos < n && !full) {
    unsigned len = 0;
    int start = 0;
    if (n - pos >= MIN_M) {
      int32_t cur = insert(src, pos);
      if (cur >= 0 && pos - cur <= MAX_DIST) len = longest_match(src, pos, n - pos, cur, MIN_M - 1, &start, c);
    }
    if (len >= MIN_M) {
      full = tally_match((unsigned)(pos - start), len);
      if (len <= c->lazy && n - pos - (int)len >= MIN_M) {
        for (unsigned k = 1; k < len; k++) insert(src, pos + (int)k);
      }
      pos += (int)len;
    } else {
      full = tally_literal(src[pos]);
      pos++;
    }
  }
  st.pos = pos;
  st.covered = pos;
  return full;
}

/* Lazy: returns 1 when the block is full (up to st.covered), 0 at the end of the input. */
__attribute__((noinline)) static int slow_block(const u8 *src, int n, const Config *c) {
  int pos = st.pos, covered = st.covered, start = st.start, pending = st.pending, full = 0;
  unsigned len = st.len;
  while (pos < n && !full) {
    int32_t cur = -1;
    if (n - pos >= MIN_M) cur = insert(src, pos);
    unsigned prev_len = len;
    int prev_start = start;
    len = MIN_M - 1;
    if (cur >= 0 && prev_len < c->lazy && pos - cur <= MAX_DIST) {
      len = longest_match(src, pos, n - pos, cur, prev_len, &start, c);
      if (len <= prev_len) len = MIN_M - 1; /* nothing better than the match at pos - 1 */
      else if (len == MIN_M && pos - start > TOO_FAR) len = MIN_M - 1;
    }
    if (prev_len >= MIN_M && len <= prev_len) {
      int last_insert = n - MIN_M;
      full = tally_match((unsigned)(pos - 1 - prev_start), prev_len);
      covered = pos - 1 + (int)prev_len;
      for (int p = pos + 1; p < covered; p++)
        if (p <= last_insert) insert(src, p);
      pos = covered;
      pending = 0;
      len = MIN_M - 1;
    } else if (pending) {
      full = tally_literal(src[pos - 1]);
      covered = pos;
      pos++;
    } else {
      pending = 1;
      pos++;
    }
  }
  if (!full && pending) {
    /* The end of the input: the byte left pending is a literal. */
    full = tally_literal(src[n - 1]);
    pending = 0;
    covered = n;
    if (full) {
      st.pos = pos;
      st.covered = covered;
      st.pending = 0;
      return full;
    }
  }
  st.pos = pos;
  st.covered = covered;
  st.start = start;
  st.pending = pending;
  st.len = len;
  return full;
}

static void deflate_blocks(const u8 *src, int n, const Config *c, int lazy) {
  st.pos = st.block = st.covered = st.start = st.pending = 0;
  st.len = MIN_M - 1;
  while (lazy ? slow_block(src, n, c) : fast_block(src, n, c)) {
    flush_block(src, st.block, st.covered, 0);
    st.block = st.covered;
  }
  flush_block(src, st.block, n, 1);
}

/*
 * Compresses src[0, n) as raw DEFLATE at zlib level 0-9 into dst[0, cap). src must be followed by
 * 8 readable bytes (any values). Returns the bytes written, or -1 when cap is too small
 * (n + n / 2048 + 64 always suffices).
 */
EXPORT("deflate_raw")
int deflate_raw(const u8 *src, int n, u8 *dst, int cap, int level) {
  if (!ready) init_tables();
  out = dst;
  out_end = dst + cap;
  bitbuf = 0;
  bitcnt = 0;
  overflow = 0;
  nsyms = 0;
  for (int i = 0; i < L_CODES; i++) lfreq[i] = 0;
  for (int i = 0; i < D_CODES; i++) dfreq[i] = 0;
  if (level <= 0 || n == 0) {
    if (n == 0) {
      put(3, 3); /* a final fixed block holding only the end-of-block code (7 zero bits) */
      put(0, 7);
    } else {
      write_stored(src, 0, n, 1);
    }
  } else {
    for (int i = 0; i < (1 << HASH_BITS); i++) head[i] = -1;
    const Config *c = &CONFIGS[level > 9 ? 9 : level];
    deflate_blocks(src, n, c, level > 3);
  }
  if (overflow) return -1;
  align_byte();
  return (int)(out - dst);
}
