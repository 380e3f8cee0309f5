/*
 * A Zstandard decoder (RFC 8878) for @z/codecs-wasm, compiled to WebAssembly with kernels.c (see
 * build.sh). Written for this package from the specification, after src/zstd-decode.ts (the
 * TypeScript decoder, which stays the fallback and the reference for the error cases); no code
 * from other projects. Frames must declare their content size (the caller sizes the output from
 * it); dictionaries are not supported (numcodecs never uses them).
 *
 * Safety: every read of the input is bounds-checked except wild copies of literals, which may
 * read up to WILD bytes past a literal run (the caller leaves that much memory after the input).
 * Writes never leave [dst, dst + dstCap).
 */
#include "common.h"

/* Failures; src/zstd-wasm.ts words them. */
#define E_TRUNCATED (-1)
#define E_MAGIC (-2)
#define E_RESERVED_BIT (-3)
#define E_DICTIONARY (-4)
#define E_WINDOW (-5)
#define E_BLOCK_TYPE (-6)
#define E_BLOCK_SIZE (-7)
#define E_OUTPUT (-8)
#define E_LITERALS (-9)
#define E_HUFFMAN_TABLE (-10)
#define E_HUFFMAN_STREAM (-11)
#define E_FSE_TABLE (-12)
#define E_SEQUENCES_HEADER (-13)
#define E_SEQUENCES_STREAM (-14)
#define E_LITERALS_OVERRUN (-15)
#define E_OFFSET (-16)
#define E_CONTENT_SIZE (-17)
#define E_CHECKSUM (-18)
#define E_NO_TABLE (-19)
#define E_EMPTY (-20)
#define E_NO_CONTENT_SIZE (-21)

#define MAX_BLOCK (128 * 1024)
#define WILD 32
#define HUF_MAX_LOG 11

static inline u32 rd24(const u8 *p) { return p[0] | (p[1] << 8) | (p[2] << 16); }
static inline u32 high_bit(u32 x) { return 31 - __builtin_clz(x); }

/* ------------------------------------------------------------------------------------------ */
/* XXH64 (the frame's content checksum is its low 32 bits) */

#define P1 11400714785074694791ULL
#define P2 14029467366897019727ULL
#define P3 1609587929392839161ULL
#define P4 9650029242287828579ULL
#define P5 2870177450012600261ULL

static inline u64 rotl64(u64 x, int r) { return (x << r) | (x >> (64 - r)); }
static inline u64 xxh_round(u64 acc, u64 in) { return rotl64(acc + in * P2, 31) * P1; }
static inline u64 xxh_merge(u64 acc, u64 v) { return (acc ^ xxh_round(0, v)) * P1 + P4; }

static u64 xxh64(const u8 *p, u32 len) {
  const u8 *const end = p + len;
  u64 h;
  if (len >= 32) {
    u64 v1 = P1 + P2, v2 = P2, v3 = 0, v4 = 0 - P1;
    const u8 *const limit = end - 32;
    do {
      v1 = xxh_round(v1, rd64(p));
      v2 = xxh_round(v2, rd64(p + 8));
      v3 = xxh_round(v3, rd64(p + 16));
      v4 = xxh_round(v4, rd64(p + 24));
      p += 32;
    } while (p <= limit);
    h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
    h = xxh_merge(h, v1);
    h = xxh_merge(h, v2);
    h = xxh_merge(h, v3);
    h = xxh_merge(h, v4);
  } else {
    h = P5;
  }
  h += len;
  for (; p + 8 <= end; p += 8) h = rotl64(h ^ xxh_round(0, rd64(p)), 27) * P1 + P4;
  if (p + 4 <= end) {
    h = rotl64(h ^ ((u64)rd32(p) * P1), 23) * P2 + P3;
    p += 4;
  }
  for (; p < end; p++) h = rotl64(h ^ (*p * P5), 11) * P1;
  h ^= h >> 33;
  h *= P2;
  h ^= h >> 29;
  h *= P3;
  h ^= h >> 32;
  return h;
}

/* ------------------------------------------------------------------------------------------ */
/* Backward bit streams: `bits` holds the stream's bytes [p, p + 8) (fewer at a short stream's
 * start); `used` counts the bits consumed from its top. Reading past the stream's start yields
 * zeros and makes `used` exceed 64, which the callers treat as corrupt data. */

typedef struct {
  u64 bits;
  u32 used;
  const u8 *p;
  const u8 *start;
} BitIn;

static int bits_init(BitIn *b, const u8 *start, const u8 *end) {
  if (end <= start) return -1;
  u32 last = end[-1];
  if (last == 0) return -1;
  u32 size = (u32)(end - start);
  b->start = start;
  if (size >= 8) {
    b->p = end - 8;
    b->bits = rd64(b->p);
    b->used = 8 - high_bit(last);
  } else {
    u64 v = 0;
    for (u32 i = 0; i < size; i++) v |= (u64)start[i] << (8 * i);
    b->p = start;
    b->bits = v;
    b->used = 8 - high_bit(last) + (8 - size) * 8;
  }
  return 0;
}

/* The next `n` (0..56) bits; `used` must be at most 64 (the shifts stay below 64). */
static inline u32 bits_read(BitIn *b, u32 n) {
  u64 v = ((b->bits << (b->used & 63)) >> 1) >> (63 - n);
  b->used += n;
  return (u32)v;
}

/* Refills after reads. Returns 1 when the next 56 bits are in hand (fast mode), 0 otherwise. */
static inline __attribute__((always_inline)) int bits_reload(BitIn *b) {
  if (b->used > 64) return 0;
  if (b->p >= b->start + 8) {
    b->p -= b->used >> 3;
    b->used &= 7;
    b->bits = rd64(b->p);
    return b->p >= b->start + 8;
  }
  if (b->p == b->start) return 0;
  u32 n = b->used >> 3;
  if (b->p - n < b->start) n = (u32)(b->p - b->start);
  b->p -= n;
  b->used -= n * 8;
  b->bits = rd64(b->p);
  return 0;
}

static inline int bits_done(const BitIn *b) { return b->p == b->start && b->used == 64; }

/* ------------------------------------------------------------------------------------------ */
/* FSE tables */

typedef struct {
  u16 next;
  u8 nbBits;
  u8 symbol;
} FseCell;

/* A sequence table cell: the FSE state step plus the value its symbol stands for. */
typedef struct {
  u16 next;
  u8 nbBits;
  u8 addBits;
  u32 base;
} SeqCell;

static const u32 LL_BASE[36] = {0,  1,  2,  3,  4,  5,  6,   7,   8,   9,   10,   11,   12,   13,    14,    15,    16,   18,
                                20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
static const u8 LL_BITS[36] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  0,  1,  1,
                               1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const u32 ML_BASE[53] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  12,  13,  14,   15,   16,   17,   18,   19,    20,
                                21, 22, 23, 24, 25, 26, 27, 28, 29,  30,  31,  32,   33,   34,   35,   37,   39,    41,
                                43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771, 65539};
static const u8 ML_BITS[53] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                               0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const i16 LL_DEFAULT[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2,
                                   2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
static const i16 ML_DEFAULT[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1,  1,  1,  1,  1,  1,  1,  1,  1,  1,  1,
                                   1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
static const i16 OF_DEFAULT[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};

/* Spreads normalized counts (-1: "less than one") over 1 << log cells. */
static int build_fse(FseCell *table, const i16 *counts, u32 symbols, u32 log) {
  u32 size = 1u << log, mask = size - 1, high = size - 1;
  u16 next[256];
  for (u32 s = 0; s < symbols; s++) {
    if (counts[s] == -1) {
      table[high--].symbol = (u8)s;
      next[s] = 1;
    } else {
      next[s] = (u16)counts[s];
    }
  }
  u32 step = (size >> 1) + (size >> 3) + 3, pos = 0;
  for (u32 s = 0; s < symbols; s++) {
    for (int i = 0; i < counts[s]; i++) {
      table[pos].symbol = (u8)s;
      do pos = (pos + step) & mask;
      while (pos > high);
    }
  }
  if (pos != 0) return E_FSE_TABLE;
  for (u32 u = 0; u < size; u++) {
    u32 s = table[u].symbol;
    u32 state = next[s]++;
    u32 nb = log - high_bit(state);
    table[u].nbBits = (u8)nb;
    table[u].next = (u16)((state << nb) - size);
  }
  return 0;
}

/* Reads a table description (forward bits) from [p, end) into counts; returns its length. */
static int read_fse_counts(const u8 *p, const u8 *end, i16 *counts, u32 *symbolsOut, u32 *logOut, u32 maxSymbols, u32 maxLog) {
  if (p >= end) return E_TRUNCATED;
  u32 len = (u32)(end - p), pos = 0, endBits = len * 8;
#define BYTE_AT(i) ((i) < len ? p[i] : 0)
#define PEEK(n) (((BYTE_AT(pos >> 3) | (BYTE_AT((pos >> 3) + 1) << 8) | (BYTE_AT((pos >> 3) + 2) << 16)) >> (pos & 7)) & ((1u << (n)) - 1))
  u32 log = PEEK(4) + 5;
  pos += 4;
  if (log > maxLog) return E_FSE_TABLE;
  int remaining = (1 << log) + 1, threshold = 1 << log;
  u32 nbBits = log + 1, symbol = 0;
  for (u32 i = 0; i < 256; i++) counts[i] = 0;
  while (remaining > 1) {
    if (symbol >= maxSymbols) return E_FSE_TABLE;
    int max = 2 * threshold - 1 - remaining;
    int count;
    int low = (int)PEEK(nbBits - 1);
    if (low < max) {
      count = low;
      pos += nbBits - 1;
    } else {
      count = (int)PEEK(nbBits);
      if (count >= threshold) count -= max;
      pos += nbBits;
    }
    count--;
    remaining -= count < 0 ? -count : count;
    counts[symbol++] = (i16)count;
    if (count == 0) {
      for (;;) {
        u32 repeat = PEEK(2);
        pos += 2;
        symbol += repeat;
        if (repeat != 3 || pos > endBits) break;
      }
      if (symbol > maxSymbols) return E_FSE_TABLE;
    }
    while (remaining < threshold) {
      nbBits--;
      threshold >>= 1;
    }
    if (pos > endBits) return E_TRUNCATED;
  }
#undef PEEK
#undef BYTE_AT
  if (remaining != 1) return E_FSE_TABLE;
  *symbolsOut = symbol;
  *logOut = log;
  return (int)((pos + 7) >> 3);
}

/* ------------------------------------------------------------------------------------------ */
/* Decoder state (one decode at a time per instance) */

typedef struct {
  SeqCell cells[512];
  u32 log;
} SeqTable;

static struct {
  u16 huf[1 << HUF_MAX_LOG]; /* symbol | nbBits << 8, indexed by the next HUF_MAX_LOG bits */
  u32 hufLog;                /* 0: no table yet in this frame */
  SeqTable ll, ml, of;       /* the tables read or set in this frame */
  const SeqTable *llT, *mlT, *ofT;
  SeqTable llDefault, mlDefault, ofDefault;
  int defaultsReady;
  u32 rep[3];
  FseCell fse[512];
  i16 counts[256];
  u8 literals[MAX_BLOCK + WILD];
} S;

static int to_seq_table(SeqTable *t, u32 log, u32 kind) {
  u32 size = 1u << log;
  for (u32 u = 0; u < size; u++) {
    FseCell c = S.fse[u];
    SeqCell *d = &t->cells[u];
    d->next = c.next;
    d->nbBits = c.nbBits;
    if (kind == 0) {
      d->base = LL_BASE[c.symbol];
      d->addBits = LL_BITS[c.symbol];
    } else if (kind == 1) {
      d->base = ML_BASE[c.symbol];
      d->addBits = ML_BITS[c.symbol];
    } else {
      d->base = 1u << c.symbol;
      d->addBits = c.symbol;
    }
  }
  t->log = log;
  return 0;
}

static int set_defaults(void) {
  if (S.defaultsReady) return 0;
  if (build_fse(S.fse, LL_DEFAULT, 36, 6)) return E_FSE_TABLE;
  to_seq_table(&S.llDefault, 6, 0);
  if (build_fse(S.fse, ML_DEFAULT, 53, 6)) return E_FSE_TABLE;
  to_seq_table(&S.mlDefault, 6, 1);
  if (build_fse(S.fse, OF_DEFAULT, 29, 5)) return E_FSE_TABLE;
  to_seq_table(&S.ofDefault, 5, 2);
  S.defaultsReady = 1;
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Huffman literals */

/* Reads a tree description from [p, end) into S.huf; returns its length. */
static int read_huffman(const u8 *p, const u8 *end) {
  if (p >= end) return E_TRUNCATED;
  const u8 *const at = p;
  u32 header = *p++;
  u8 weights[256];
  u32 count = 0;
  if (header >= 128) {
    count = header - 127;
    u32 bytes = (count + 1) >> 1;
    if (bytes > (u32)(end - p)) return E_TRUNCATED;
    for (u32 i = 0; i < count; i++) {
      u32 byte = p[i >> 1];
      weights[i] = (u8)(i & 1 ? byte & 15 : byte >> 4);
    }
    p += bytes;
  } else {
    if (header == 0 || header > (u32)(end - p)) return E_TRUNCATED;
    const u8 *const stop = p + header;
    u32 symbols, log;
    int n = read_fse_counts(p, stop, S.counts, &symbols, &log, 256, 6);
    if (n < 0) return n;
    if (build_fse(S.fse, S.counts, symbols, log)) return E_HUFFMAN_TABLE;
    /* Two interleaved states; `left` is the bit count not yet read (below 0: over-read, the
     * missing bits being zeros), as the format defines the end of this stream. */
    const u8 *const s = p + n;
    if (s >= stop || stop[-1] == 0) return E_HUFFMAN_TABLE;
    int left = (int)((stop - s - 1) * 8 + high_bit(stop[-1]));
#define TAKE(nb)                                                                                      \
  ({                                                                                                  \
    int want_ = (int)(nb), v_ = 0;                                                                    \
    left -= want_;                                                                                    \
    for (int k_ = want_ - 1; k_ >= 0; k_--) {                                                         \
      int bit_ = left + k_;                                                                           \
      v_ = (v_ << 1) | (bit_ >= 0 ? (s[bit_ >> 3] >> (bit_ & 7)) & 1 : 0);                           \
    }                                                                                                 \
    (u32) v_;                                                                                         \
  })
    u32 s1 = TAKE(log), s2 = TAKE(log);
    for (;;) {
      if (count >= 255) return E_HUFFMAN_TABLE;
      weights[count++] = S.fse[s1].symbol;
      s1 = S.fse[s1].next + TAKE(S.fse[s1].nbBits);
      if (left < 0) {
        weights[count++] = S.fse[s2].symbol;
        break;
      }
      if (count >= 255) return E_HUFFMAN_TABLE;
      weights[count++] = S.fse[s2].symbol;
      s2 = S.fse[s2].next + TAKE(S.fse[s2].nbBits);
      if (left < 0) {
        weights[count++] = S.fse[s1].symbol;
        break;
      }
    }
#undef TAKE
    p = stop;
  }
  /* The last weight is implied: it completes the sum to a power of two. */
  u32 sum = 0;
  for (u32 i = 0; i < count; i++) {
    if (weights[i] > HUF_MAX_LOG) return E_HUFFMAN_TABLE;
    if (weights[i]) sum += 1u << (weights[i] - 1);
  }
  if (sum == 0) return E_HUFFMAN_TABLE;
  u32 log = high_bit(sum) + 1;
  if (log > HUF_MAX_LOG) return E_HUFFMAN_TABLE;
  u32 rest = (1u << log) - sum;
  if (rest & (rest - 1)) return E_HUFFMAN_TABLE;
  if (count >= 256) return E_HUFFMAN_TABLE;
  weights[count++] = (u8)(high_bit(rest) + 1);
  /* Codes of weight 1 first, then 2, ...; within a weight by symbol. */
  u32 start[HUF_MAX_LOG + 2] = {0}, ranks[HUF_MAX_LOG + 2] = {0};
  for (u32 i = 0; i < count; i++) ranks[weights[i]]++;
  u32 next = 0;
  for (u32 w = 1; w <= log; w++) {
    start[w] = next;
    next += ranks[w] << (w - 1);
  }
  for (u32 sym = 0; sym < count; sym++) {
    u32 w = weights[sym];
    if (!w) continue;
    u16 cell = (u16)(sym | ((log + 1 - w) << 8));
    u32 from = start[w], len = 1u << (w - 1);
    for (u32 i = 0; i < len; i++) S.huf[from + i] = cell;
    start[w] = from + len;
  }
  /* Spread to HUF_MAX_LOG bits (each cell repeated for the bits after its `log`), so decoding
   * shifts by a constant: a variable shift costs WebAssembly on x64 a move into cl per symbol. */
  const u32 spread = HUF_MAX_LOG - log;
  if (spread) {
    for (u32 i = 1u << log; i-- > 0;) {
      const u16 cell = S.huf[i];
      for (u32 j = 0; j < (1u << spread); j++) S.huf[(i << spread) + j] = cell;
    }
  }
  S.hufLog = log;
  return (int)(p - at);
}

#define HUF_SYMBOL(b, o)                                                \
  do {                                                                  \
    u32 cell_ = S.huf[(u32)(((b).bits << (b).used) >> (64 - HUF_MAX_LOG))]; \
    *(o)++ = (u8)cell_;                                                 \
    (b).used += cell_ >> 8;                                             \
  } while (0)

/* Decodes the rest of one stream into [o, oend) symbol by symbol; it must end exactly there. */
static int huf_finish(BitIn *b, u8 *o, u8 *const oend) {
  while (o < oend) {
    bits_reload(b);
    if (b->used > 64) return E_HUFFMAN_STREAM;
    u32 cell = S.huf[(u32)(((b->bits << (b->used & 63)) >> 1) >> (63 - HUF_MAX_LOG))];
    *o++ = (u8)cell;
    b->used += cell >> 8;
  }
  bits_reload(b);
  return bits_done(b) ? 0 : E_HUFFMAN_STREAM;
}

static int huf_decode1(const u8 *p, const u8 *end, u8 *o, u32 n) {
  BitIn b;
  if (bits_init(&b, p, end)) return E_HUFFMAN_STREAM;
  u8 *const oend = o + n;
  /* Five symbols of at most 11 bits per refill (a refill leaves at least 57 bits). */
  if (bits_reload(&b)) {
    while (oend - o >= 5) {
      HUF_SYMBOL(b, o);
      HUF_SYMBOL(b, o);
      HUF_SYMBOL(b, o);
      HUF_SYMBOL(b, o);
      HUF_SYMBOL(b, o);
      if (!bits_reload(&b)) break;
    }
  }
  return huf_finish(&b, o, oend);
}

#define HUF_FOUR         \
  do {                   \
    HUF_SYMBOL(b0, o0);  \
    HUF_SYMBOL(b1, o1);  \
    HUF_SYMBOL(b2, o2);  \
    HUF_SYMBOL(b3, o3);  \
  } while (0)

/* The four streams of [p, end), with the 6-byte jump table at p, into o[0, n). */
static int huf_decode4(const u8 *p, const u8 *end, u8 *o, u32 n) {
  if (end - p < 6) return E_LITERALS;
  const u8 *const s1 = p + 6 + rd16(p), *const s2 = s1 + rd16(p + 2), *const s3 = s2 + rd16(p + 4);
  if (s3 >= end) return E_LITERALS;
  u32 segment = (n + 3) / 4;
  if (segment * 3 > n) return E_LITERALS;
  BitIn b0, b1, b2, b3;
  if (bits_init(&b0, p + 6, s1) || bits_init(&b1, s1, s2) || bits_init(&b2, s2, s3) || bits_init(&b3, s3, end)) return E_HUFFMAN_STREAM;
  u8 *o0 = o, *o1 = o + segment, *o2 = o + 2 * segment, *o3 = o + 3 * segment;
  u8 *const oend = o + n;
  /* The last segment is the shortest: while it has room for 5, all have. */
  int fast = bits_reload(&b0) & bits_reload(&b1) & bits_reload(&b2) & bits_reload(&b3);
  if (fast) {
    while (oend - o3 >= 5) {
      /* A symbol from each stream in turn: four independent chains for the CPU to overlap. */
      HUF_FOUR;
      HUF_FOUR;
      HUF_FOUR;
      HUF_FOUR;
      HUF_FOUR;
      if (!(bits_reload(&b0) & bits_reload(&b1) & bits_reload(&b2) & bits_reload(&b3))) break;
    }
  }
  int r;
  if ((r = huf_finish(&b0, o0, o + segment))) return r;
  if ((r = huf_finish(&b1, o1, o + 2 * segment))) return r;
  if ((r = huf_finish(&b2, o2, o + 3 * segment))) return r;
  return huf_finish(&b3, o3, oend);
}

/* ------------------------------------------------------------------------------------------ */
/* Blocks */

/* Copies n bytes 16 at a time; may write up to 15 bytes past d + n and read past s + n. */
static inline void wild_copy(u8 *d, const u8 *s, u32 n) {
  u8 *const stop = d + n;
  do {
    copy16(d, s);
    d += 16;
    s += 16;
  } while (d < stop);
}

/* A match at distance `offset` (>= 1) of length n, with WILD bytes of room past d + n. */
static inline __attribute__((always_inline)) void match_copy(u8 *d, u32 offset, u32 n) {
  const u8 *m = d - offset;
  if (offset >= 16) {
    wild_copy(d, m, n);
    return;
  }
  /* The first 16 bytes one by one (the pattern repeats every `offset` bytes), then 16 at a time
   * from the nearest multiple of `offset` at least 16 back. */
  for (int i = 0; i < 16; i++) d[i] = m[i];
  if (n <= 16) return;
  u32 back = offset;
  while (back < 16) back += offset;
  wild_copy(d + 16, d + 16 - back, n - 16);
}

static int pick_table(int mode, const u8 **pp, const u8 *end, SeqTable *own, const SeqTable *fallback, const SeqTable **current, u32 kind, u32 maxSymbols, u32 maxLog) {
  switch (mode) {
    case 0:
      *current = fallback;
      return 0;
    case 1: {
      if (*pp >= end) return E_TRUNCATED;
      u32 symbol = *(*pp)++;
      if (symbol >= maxSymbols) return E_SEQUENCES_HEADER;
      S.fse[0].symbol = (u8)symbol;
      S.fse[0].nbBits = 0;
      S.fse[0].next = 0;
      to_seq_table(own, 0, kind);
      *current = own;
      return 0;
    }
    case 2: {
      u32 symbols, log;
      int n = read_fse_counts(*pp, end, S.counts, &symbols, &log, maxSymbols, maxLog);
      if (n < 0) return n;
      if (build_fse(S.fse, S.counts, symbols, log)) return E_FSE_TABLE;
      to_seq_table(own, log, kind);
      *pp += n;
      *current = own;
      return 0;
    }
    default:
      return *current ? 0 : E_NO_TABLE;
  }
}

/* Decodes the compressed block [p, end) at *opp (the frame starting at frame); dst ends at oend. */
static int decode_block(const u8 *p, const u8 *const end, u8 **opp, u8 *const frame, u8 *const oend, u32 blockLimit) {
  u8 *op = *opp;
  if (p >= end) return E_TRUNCATED;
  u32 b0 = p[0], litType = b0 & 3, sizeFormat = (b0 >> 2) & 3, litSize;
  const u8 *lits;
  if (litType <= 1) {
    u32 header;
    if (sizeFormat == 0 || sizeFormat == 2) {
      litSize = b0 >> 3;
      header = 1;
    } else if (sizeFormat == 1) {
      if (end - p < 2) return E_TRUNCATED;
      litSize = (b0 >> 4) | (p[1] << 4);
      header = 2;
    } else {
      if (end - p < 3) return E_TRUNCATED;
      litSize = (b0 >> 4) | (p[1] << 4) | (p[2] << 12);
      header = 3;
    }
    if (litSize > blockLimit) return E_LITERALS;
    p += header;
    if (litType == 0) {
      if (litSize > (u32)(end - p)) return E_TRUNCATED;
      lits = p;
      p += litSize;
    } else {
      if (p >= end) return E_TRUNCATED;
      __builtin_memset(S.literals, *p, litSize);
      lits = S.literals;
      p += 1;
    }
  } else {
    u32 header, regenerated, compressed, streams = 4;
    if (sizeFormat <= 1) {
      if (end - p < 3) return E_TRUNCATED;
      u32 v = rd24(p);
      regenerated = (v >> 4) & 0x3ff;
      compressed = (v >> 14) & 0x3ff;
      header = 3;
      if (sizeFormat == 0) streams = 1;
    } else if (sizeFormat == 2) {
      if (end - p < 4) return E_TRUNCATED;
      u32 v = rd32(p);
      regenerated = (v >> 4) & 0x3fff;
      compressed = (v >> 18) & 0x3fff;
      header = 4;
    } else {
      if (end - p < 5) return E_TRUNCATED;
      u32 v = rd32(p);
      regenerated = (v >> 4) & 0x3ffff;
      compressed = ((v >> 22) | (p[4] << 10)) & 0x3ffff;
      header = 5;
    }
    if (regenerated > blockLimit) return E_LITERALS;
    p += header;
    if (compressed > (u32)(end - p)) return E_TRUNCATED;
    const u8 *const litEnd = p + compressed;
    if (litType == 2) {
      int n = read_huffman(p, litEnd);
      if (n < 0) return n;
      p += n;
    } else if (S.hufLog == 0) {
      return E_NO_TABLE;
    }
    int r = streams == 1 ? huf_decode1(p, litEnd, S.literals, regenerated) : huf_decode4(p, litEnd, S.literals, regenerated);
    if (r) return r;
    litSize = regenerated;
    lits = S.literals;
    p = litEnd;
  }

  /* Sequences */
  if (p >= end) return E_TRUNCATED;
  u32 nbSeq = *p++;
  if (nbSeq >= 128) {
    if (nbSeq == 255) {
      if (end - p < 2) return E_TRUNCATED;
      nbSeq = rd16(p) + 0x7f00;
      p += 2;
    } else {
      if (p >= end) return E_TRUNCATED;
      nbSeq = ((nbSeq - 128) << 8) + *p++;
    }
  }
  const u8 *const litStop = lits + litSize;
  if (nbSeq == 0) {
    if (p != end) return E_SEQUENCES_HEADER;
    if (litSize > (u32)(oend - op)) return E_OUTPUT;
    __builtin_memcpy(op, lits, litSize);
    *opp = op + litSize;
    return 0;
  }
  if (p >= end) return E_TRUNCATED;
  u32 modes = *p++;
  if (modes & 3) return E_SEQUENCES_HEADER;
  int r;
  if ((r = pick_table(modes >> 6, &p, end, &S.ll, &S.llDefault, &S.llT, 0, 36, 9))) return r;
  if ((r = pick_table((modes >> 4) & 3, &p, end, &S.of, &S.ofDefault, &S.ofT, 2, 32, 8))) return r;
  if ((r = pick_table((modes >> 2) & 3, &p, end, &S.ml, &S.mlDefault, &S.mlT, 1, 53, 9))) return r;

  BitIn b;
  if (bits_init(&b, p, end)) return E_SEQUENCES_STREAM;
  bits_reload(&b);
  const SeqCell *const llc = S.llT->cells, *const mlc = S.mlT->cells, *const ofc = S.ofT->cells;
  u32 ll = bits_read(&b, S.llT->log);
  u32 of = bits_read(&b, S.ofT->log);
  u32 ml = bits_read(&b, S.mlT->log);
  u32 rep1 = S.rep[0], rep2 = S.rep[1], rep3 = S.rep[2];
  const u8 *lp = lits;
  for (u32 i = 0;; i++) {
    bits_reload(&b);
    if (b.used > 64) return E_SEQUENCES_STREAM;
    const SeqCell co = ofc[of], cm = mlc[ml], cl = llc[ll];
    u32 offset = co.base + bits_read(&b, co.addBits);
    u32 matchLength = cm.base + bits_read(&b, cm.addBits);
    bits_reload(&b);
    u32 literalLength = cl.base + bits_read(&b, cl.addBits);
    if (co.addBits > 1) {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = offset - 3;
      offset = rep1;
    } else {
      u32 index = offset + (literalLength == 0);
      if (index == 1) {
        offset = rep1;
      } else {
        offset = index == 2 ? rep2 : index == 3 ? rep3 : rep1 - 1;
        if (index != 2) rep3 = rep2;
        rep2 = rep1;
        rep1 = offset;
      }
    }
    if (i + 1 < nbSeq) {
      ll = cl.next + bits_read(&b, cl.nbBits);
      ml = cm.next + bits_read(&b, cm.nbBits);
      of = co.next + bits_read(&b, co.nbBits);
    }
    if (literalLength > (u32)(litStop - lp)) return E_LITERALS_OVERRUN;
    u32 room = (u32)(oend - op);
    if (literalLength > room || matchLength > room - literalLength) return E_OUTPUT;
    if (room - literalLength - matchLength >= WILD) {
      wild_copy(op, lp, literalLength);
      op += literalLength;
      lp += literalLength;
      if (offset == 0 || offset > (u32)(op - frame)) return E_OFFSET;
      match_copy(op, offset, matchLength);
      op += matchLength;
    } else {
      __builtin_memcpy(op, lp, literalLength);
      op += literalLength;
      lp += literalLength;
      if (offset == 0 || offset > (u32)(op - frame)) return E_OFFSET;
      const u8 *m = op - offset;
      for (u32 k = 0; k < matchLength; k++) op[k] = m[k];
      op += matchLength;
    }
    if (i + 1 >= nbSeq) break;
  }
  bits_reload(&b);
  if (!bits_done(&b)) return E_SEQUENCES_STREAM;
  S.rep[0] = rep1;
  S.rep[1] = rep2;
  S.rep[2] = rep3;
  u32 rest = (u32)(litStop - lp);
  if (rest > (u32)(oend - op)) return E_OUTPUT;
  __builtin_memcpy(op, lp, rest);
  *opp = op + rest;
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Frames */

/*
 * Decodes the frames of src[0, srcLen) (skippable frames allowed) into dst[0, dstCap); returns
 * the bytes written or a negative E_* code. Every frame must declare its content size; content
 * checksums are verified when `verify` is set.
 */
EXPORT("zstd_decode")
int zstd_decode(const u8 *src, int srcLen, u8 *dst, int dstCap, int verify) {
  const u8 *ip = src;
  const u8 *const iend = src + srcLen;
  u8 *op = dst;
  u8 *const oend = dst + dstCap;
  if (srcLen <= 0) return E_EMPTY;
  int r = set_defaults();
  if (r) return r;
  while (ip < iend) {
    if (iend - ip < 4) return E_TRUNCATED;
    u32 magic = rd32(ip);
    if ((magic & 0xfffffff0u) == 0x184d2a50u) {
      if (iend - ip < 8) return E_TRUNCATED;
      u32 size = rd32(ip + 4);
      if (size > (u32)(iend - ip - 8)) return E_TRUNCATED;
      ip += 8 + size;
      continue;
    }
    if (magic != 0xfd2fb528u) return E_MAGIC;
    ip += 4;
    if (ip >= iend) return E_TRUNCATED;
    u32 descriptor = *ip++;
    u32 fcsFlag = descriptor >> 6, single = (descriptor >> 5) & 1, checksum = (descriptor >> 2) & 1, dictFlag = descriptor & 3;
    if (descriptor & 8) return E_RESERVED_BIT;
    u32 fcsBytes = fcsFlag == 0 ? single : 1u << fcsFlag;
    u32 dictBytes = dictFlag == 3 ? 4 : dictFlag;
    if ((u32)(iend - ip) < (single ? 0 : 1) + dictBytes + fcsBytes) return E_TRUNCATED;
    u64 window = 0;
    if (!single) {
      u32 wd = *ip++, exponent = wd >> 3;
      if (exponent > 31 - 10) return E_WINDOW;
      u64 base = 1ull << (10 + exponent);
      window = base + (base >> 3) * (wd & 7);
    }
    u32 dictionary = 0;
    for (u32 i = 0; i < dictBytes; i++) dictionary |= (u32)*ip++ << (8 * i);
    if (dictionary) return E_DICTIONARY;
    if (fcsBytes == 0) return E_NO_CONTENT_SIZE;
    u64 content = 0;
    for (u32 i = 0; i < fcsBytes; i++) content |= (u64)*ip++ << (8 * i);
    if (fcsBytes == 2) content += 256;
    if (single) window = content;
    if (content > (u64)(oend - op)) return E_OUTPUT;
    u32 blockLimit = window < MAX_BLOCK ? (u32)window : MAX_BLOCK;
    u8 *const frame = op;
    S.hufLog = 0;
    S.llT = S.mlT = S.ofT = 0;
    S.rep[0] = 1;
    S.rep[1] = 4;
    S.rep[2] = 8;
    for (;;) {
      if (iend - ip < 3) return E_TRUNCATED;
      u32 header = rd24(ip), last = header & 1, type = (header >> 1) & 3, size = header >> 3;
      ip += 3;
      if (type == 3) return E_BLOCK_TYPE;
      if (size > blockLimit) return E_BLOCK_SIZE;
      if (type == 1) {
        if (ip >= iend) return E_TRUNCATED;
        if (size > (u32)(oend - op)) return E_OUTPUT;
        __builtin_memset(op, *ip, size);
        op += size;
        ip += 1;
      } else {
        if (size > (u32)(iend - ip)) return E_TRUNCATED;
        if (type == 0) {
          if (size > (u32)(oend - op)) return E_OUTPUT;
          __builtin_memcpy(op, ip, size);
          op += size;
        } else {
          u8 *const limit = (u32)(oend - op) > blockLimit ? op + blockLimit : oend;
          if ((r = decode_block(ip, ip + size, &op, frame, limit, blockLimit))) return r == E_OUTPUT && limit != oend ? E_BLOCK_SIZE : r;
        }
        ip += size;
      }
      if (last) break;
    }
    if ((u64)(op - frame) != content) return E_CONTENT_SIZE;
    if (checksum) {
      if (iend - ip < 4) return E_TRUNCATED;
      if (verify && (u32)xxh64(frame, (u32)(op - frame)) != rd32(ip)) return E_CHECKSUM;
      ip += 4;
    }
  }
  return (int)(op - dst);
}
