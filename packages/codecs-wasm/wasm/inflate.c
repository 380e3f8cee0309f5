/*
 * DEFLATE decoding (RFC 1951) in zlib (RFC 1950) and gzip (RFC 1952) wrappers, for @z/codecs-wasm's
 * zlib and gzip codecs; compiled with checksum.c by build-inflate.sh. Written for this package from
 * the RFCs (no code from other projects).
 *
 * It accepts what zlib 1.2.13 accepts as CPython calls it for numcodecs (`zlib.decompress`, and
 * `gzip.GzipFile` member by member), which is stricter than fflate (the TypeScript fallback):
 * over-subscribed and incomplete Huffman codes are refused, except a lone one-bit code and a
 * distance code with no codes at all, which zlib allows (using a missing code is an error).
 *
 * Speed: Huffman codes are decoded through a table indexed by the next 11 bits (8 for distances),
 * whose entries give the symbol already turned into a literal, a length or distance base with its
 * extra bits, or a pointer to a second-level table for longer codes; the input is read 8 bytes at a
 * time into a 64-bit bit buffer; while far from the ends of input and output, a loop without bounds
 * checks decodes up to three literals per refill and copies matches 16 or 8 bytes at a time (writing
 * up to 15 bytes past a match, which later output overwrites).
 *
 * Safety: reads stay inside [src, src + n) and writes inside [dst, dst + cap): the fast loop runs
 * only with FAST_IN input bytes and FAST_OUT output bytes to spare, and the careful loop checks
 * every symbol. Past the end of the input the bit buffer is filled with zeros, counted, so that a
 * stream that needed them is reported as truncated.
 */
#include "checksum.h"
#include "deflate-format.h"

/* Failures; src/inflate.ts words them. */
#define E_TRUNCATED (-1)
#define E_OUTPUT (-2) /* the output does not fit in cap bytes */
#define E_BLOCK_TYPE (-3)
#define E_STORED_LENGTHS (-4)
#define E_TOO_MANY_CODES (-5)
#define E_CODE_LENGTHS (-6)
#define E_REPEAT (-7)
#define E_NO_END_OF_BLOCK (-8)
#define E_LITLEN_CODES (-9)
#define E_DIST_CODES (-10)
#define E_LITLEN_CODE (-11)
#define E_DIST_CODE (-12)
#define E_DISTANCE (-13)
#define E_ZLIB_HEADER (-14)
#define E_DICTIONARY (-15)
#define E_ADLER (-16)
#define E_GZIP_MAGIC (-17)
#define E_GZIP_METHOD (-18)
#define E_CRC (-19)
#define E_ISIZE (-20)
#define E_AFTER_MEMBER (-21)

#define LIT_ROOT 11
#define DIST_ROOT 8
#define CL_ROOT 7
/* Root tables plus room for second-level tables: at most 4 entries per code longer than the root
 * (a second-level table of 2^k entries holds at least k + 1 codes, k <= 4) for literals/lengths,
 * and 16 per distance code (k <= 7). build() checks the room anyway. */
#define LIT_TABLE ((1 << LIT_ROOT) + 4 * 288)
#define DIST_TABLE ((1 << DIST_ROOT) + 16 * 32)

/*
 * A table entry: bits 0-7 how many bits the entry consumes (the code and its extra bits, or the
 * root for a pointer), bits 8-11 the code's own length (where its extra bits start; for a pointer,
 * the second-level table's index bits), bits 12-15 what it is, bits 16-31 its value (the literal,
 * the length or distance base, or the second-level table's offset).
 */
#define F_LIT 0x8000u
#define F_SUB 0x4000u
#define F_EOB 0x2000u
#define F_BAD 0x1000u

enum { CODE_LENGTHS, LITLEN, DIST };

static const u16 LEN_BASE[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const u16 DIST_BASE[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};

static u32 lit_table[LIT_TABLE], dist_table[DIST_TABLE], cl_table[1 << CL_ROOT];
static u32 fixed_lit[1 << LIT_ROOT], fixed_dist[1 << DIST_ROOT];
static int fixed_ready;

static u32 entry(int kind, u32 sym, u32 len) {
  if (kind == CODE_LENGTHS) return sym << 16 | len;
  if (kind == DIST) return sym < D_CODES ? (u32)DIST_BASE[sym] << 16 | len << 8 | (len + DIST_EXTRA[sym]) : F_BAD | len;
  if (sym < 256) return sym << 16 | F_LIT | len;
  if (sym == 256) return F_EOB | len;
  if (sym >= L_CODES) return F_BAD | len; /* 286 and 287 exist only in the fixed code */
  return (u32)LEN_BASE[sym - 257] << 16 | len << 8 | (len + LEN_EXTRA[sym - 257]);
}

static void fill(u32 *table, u32 n, u32 value) {
  for (u32 i = 0; i < n; i++) table[i] = value;
}

/*
 * The lookup table (`root` index bits, second-level tables after the root table, at most `size`
 * entries) for the canonical code of lengths lens[0, n). Returns -1 for a set of lengths zlib
 * refuses: over-subscribed, or incomplete but for a single one-bit code (not for code length
 * codes), or empty (allowed only for distances).
 */
static int build(const u8 *lens, u32 n, u32 *table, u32 size, u32 root, int kind) {
  u32 count[16] = {0}, remaining[16], offset[16];
  u16 sorted[288];
  for (u32 i = 0; i < n; i++) count[lens[i]]++;
  count[0] = 0;
  u32 max = 15;
  while (max > 0 && count[max] == 0) max--;
  if (max == 0) {
    if (kind != DIST) return -1;
    fill(table, 1u << root, F_BAD);
    return 0;
  }
  int left = 1;
  for (u32 len = 1; len <= 15; len++) {
    left = 2 * left - (int)count[len];
    if (left < 0) return -1;
  }
  if (left > 0) {
    if (kind == CODE_LENGTHS || max != 1) return -1;
    fill(table, 1u << root, F_BAD);
  }
  offset[1] = 0;
  for (u32 len = 1; len < 15; len++) offset[len + 1] = offset[len] + count[len];
  for (u32 i = 0; i < n; i++)
    if (lens[i]) sorted[offset[lens[i]]++] = (u16)i;
  for (u32 len = 0; len < 16; len++) remaining[len] = count[len];

  /* Codes in canonical order: numerically increasing, so codes sharing their first `root` bits
   * are consecutive and the last of them is the longest. */
  u32 code = 0, k = 0, next = 1u << root, prefix = ~0u, sub = 0, subBits = 0;
  for (u32 len = 1; len <= max; len++, code <<= 1) {
    for (u32 j = 0; j < count[len]; j++, code++, remaining[len]--) {
      u32 sym = sorted[k++];
      u32 rev = __builtin_bitreverse32(code) >> (32 - len);
      if (len <= root) {
        u32 e = entry(kind, sym, len);
        for (u32 r = rev; r < (1u << root); r += 1u << len) table[r] = e;
        continue;
      }
      u32 p = rev & ((1u << root) - 1);
      if (p != prefix) {
        /* A second-level table just large enough for the codes under this prefix. */
        prefix = p;
        subBits = len - root;
        int room = 1 << subBits;
        while (subBits + root < max) {
          room -= (int)remaining[subBits + root];
          if (room <= 0) break;
          subBits++;
          room <<= 1;
        }
        sub = next;
        next += 1u << subBits;
        if (next > size) return -1;
        table[p] = sub << 16 | F_SUB | subBits << 8 | root;
      }
      u32 e = entry(kind, sym, len - root);
      for (u32 r = rev >> root; r < (1u << subBits); r += 1u << (len - root)) table[sub + r] = e;
    }
  }
  return 0;
}

static void init_fixed(void) {
  u8 lens[288];
  for (u32 i = 0; i < 288; i++) lens[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
  build(lens, 288, fixed_lit, 1 << LIT_ROOT, LIT_ROOT, LITLEN);
  for (u32 i = 0; i < 32; i++) lens[i] = 5; /* 30 and 31 are in the code but invalid */
  build(lens, 32, fixed_dist, 1 << DIST_ROOT, DIST_ROOT, DIST);
  fixed_ready = 1;
}

/* ---- reading bits ---- */

typedef struct {
  const u8 *in, *in_end;
  u64 bits;  /* bits[0, nbits) are the next input bits; above them, possibly the next input bytes */
  u32 nbits;
  u32 zeros; /* zero bytes put into `bits` past the end of the input */
  u8 *out, *out_start, *out_end;
} Stream;

/* Fills `bits` to 56 bits or more; zeros past the end. Nonzero when the input was overrun. */
static inline int refill(Stream *s) {
  if (s->in_end - s->in >= 8) {
    s->bits |= rd64(s->in) << s->nbits;
    s->in += (63 - s->nbits) >> 3;
    s->nbits |= 56;
    return 0;
  }
  while (s->nbits < 56) {
    if (s->in < s->in_end) s->bits |= (u64)*s->in++ << s->nbits;
    else s->zeros++;
    s->nbits += 8;
  }
  return s->zeros * 8 > s->nbits;
}

static inline void drop(Stream *s, u32 n) {
  s->bits >>= n;
  s->nbits -= n;
}

/* ---- Huffman blocks ---- */

#define FAST_IN 16   /* two refills of 8-byte loads, each advancing at most 7 bytes */
#define FAST_OUT 320 /* three literals, or a match of 258 bytes and 15 written past it */
#define LIT_MASK ((1u << LIT_ROOT) - 1)
#define DIST_MASK ((1u << DIST_ROOT) - 1)

static inline u32 extra(u32 e, u64 bits) { return ((u32)bits & ((1u << (e & 31)) - 1)) >> ((e >> 8) & 15); }

/*
 * Decodes one block's symbols up to its end-of-block code. Not inlined: V8 optimises a function
 * only between calls, so the first chunk's later blocks get the optimised code.
 */
__attribute__((noinline)) static int decode_block(Stream *s, const u32 *lt, const u32 *dt) {
  const u8 *in = s->in;
  const u8 *const in_end = s->in_end;
  u64 bits = s->bits;
  u32 nbits = s->nbits;
  u8 *out = s->out;
  u8 *const out_start = s->out_start, *const out_end = s->out_end;
  int r = 0;
  u32 e, d, len, dist;

#define REFILL()                          \
  do {                                    \
    bits |= rd64(in) << nbits;            \
    in += (63 - nbits) >> 3;              \
    nbits |= 56;                          \
  } while (0)
#define DROP(n)     \
  do {              \
    bits >>= (n);   \
    nbits -= (n);   \
  } while (0)

  if (in_end - in > FAST_IN && out_end - out > FAST_OUT) {
    const u8 *const in_stop = in_end - FAST_IN;
    u8 *const out_stop = out_end - FAST_OUT;
    while (in < in_stop && out < out_stop) {
      REFILL();
      e = lt[bits & LIT_MASK];
      if (e & F_LIT) {
        /* 56 bits hold three literal codes (15 bits at most each). */
        DROP(e & 0xff);
        *out++ = (u8)(e >> 16);
        e = lt[bits & LIT_MASK];
        if (e & F_LIT) {
          DROP(e & 0xff);
          *out++ = (u8)(e >> 16);
          e = lt[bits & LIT_MASK];
          if (e & F_LIT) {
            DROP(e & 0xff);
            *out++ = (u8)(e >> 16);
            continue;
          }
        }
        REFILL(); /* a length and a distance take up to 48 bits */
      }
      if (e & F_SUB) {
        DROP(LIT_ROOT);
        e = lt[(e >> 16) + ((u32)bits & ((1u << ((e >> 8) & 15)) - 1))];
        if (e & F_LIT) {
          DROP(e & 0xff);
          *out++ = (u8)(e >> 16);
          continue;
        }
      }
      if (e & (F_EOB | F_BAD)) {
        if (e & F_BAD) {
          r = E_LITLEN_CODE;
        } else {
          DROP(e & 0xff);
        }
        goto done;
      }
      len = (e >> 16) + extra(e, bits);
      DROP(e & 0xff);
      d = dt[bits & DIST_MASK];
      if (d & F_SUB) {
        DROP(DIST_ROOT);
        d = dt[(d >> 16) + ((u32)bits & ((1u << ((d >> 8) & 15)) - 1))];
      }
      if (d & F_BAD) {
        r = E_DIST_CODE;
        goto done;
      }
      dist = (d >> 16) + extra(d, bits);
      DROP(d & 0xff);
      if (dist > (u32)(out - out_start)) {
        r = E_DISTANCE;
        goto done;
      }
      {
        u8 *to = out;
        const u8 *from = out - dist;
        out += len;
        if (dist >= 16) {
          do {
            copy16(to, from);
            to += 16;
            from += 16;
          } while (to < out);
        } else if (dist >= 8) {
          do {
            __builtin_memcpy(to, from, 8);
            to += 8;
            from += 8;
          } while (to < out);
        } else if (dist == 1) {
          v128_t v = wasm_i8x16_splat(*from);
          do {
            wasm_v128_store(to, v);
            to += 16;
          } while (to < out);
        } else {
          do *to++ = *from++;
          while (to < out);
        }
      }
    }
  }

  /* Near the ends: every step checked. */
  Stream t = {in, in_end, bits, nbits, s->zeros, out, out_start, out_end};
  for (;;) {
    if (t.nbits < 48 && refill(&t)) {
      r = E_TRUNCATED;
      break;
    }
    e = lt[t.bits & LIT_MASK];
    if (e & F_SUB) {
      drop(&t, LIT_ROOT);
      e = lt[(e >> 16) + ((u32)t.bits & ((1u << ((e >> 8) & 15)) - 1))];
    }
    if (e & F_LIT) {
      if (t.out == out_end) {
        r = E_OUTPUT;
        break;
      }
      drop(&t, e & 0xff);
      *t.out++ = (u8)(e >> 16);
      continue;
    }
    if (e & F_EOB) {
      drop(&t, e & 0xff);
      break;
    }
    if (e & F_BAD) {
      r = E_LITLEN_CODE;
      break;
    }
    len = (e >> 16) + extra(e, t.bits);
    drop(&t, e & 0xff);
    d = dt[t.bits & DIST_MASK];
    if (d & F_SUB) {
      drop(&t, DIST_ROOT);
      d = dt[(d >> 16) + ((u32)t.bits & ((1u << ((d >> 8) & 15)) - 1))];
    }
    if (d & F_BAD) {
      r = E_DIST_CODE;
      break;
    }
    dist = (d >> 16) + extra(d, t.bits);
    drop(&t, d & 0xff);
    if (dist > (u32)(t.out - out_start)) {
      r = E_DISTANCE;
      break;
    }
    if (len > (u32)(out_end - t.out)) {
      r = E_OUTPUT;
      break;
    }
    const u8 *from = t.out - dist;
    for (u32 i = 0; i < len; i++) t.out[i] = from[i];
    t.out += len;
  }
  *s = t;
  return r;

done:
  s->in = in;
  s->bits = bits;
  s->nbits = nbits;
  s->out = out;
  return r;
#undef REFILL
#undef DROP
}

/* ---- blocks ---- */

static int stored_block(Stream *s) {
  drop(s, s->nbits & 7);
  if (refill(s)) return E_TRUNCATED;
  u32 len = (u32)s->bits & 0xffff, nlen = (u32)(s->bits >> 16) & 0xffff;
  drop(s, 32);
  if (s->zeros * 8 > s->nbits) return E_TRUNCATED;
  if (len != (~nlen & 0xffff)) return E_STORED_LENGTHS;
  /* The bit buffer holds whole bytes now; the block's bytes start at the first of them. */
  const u8 *p = s->in - ((s->nbits >> 3) - s->zeros);
  if (len > (u32)(s->in_end - p)) return E_TRUNCATED;
  if (len > (u32)(s->out_end - s->out)) return E_OUTPUT;
  __builtin_memcpy(s->out, p, len);
  s->out += len;
  s->in = p + len;
  s->bits = 0;
  s->nbits = 0;
  s->zeros = 0;
  return 0;
}

/* Reads a dynamic block's code lengths and builds lit_table and dist_table from them. */
static int dynamic_header(Stream *s) {
  u8 lens[L_CODES + D_CODES], cl[BL_CODES];
  if (refill(s)) return E_TRUNCATED;
  u32 nlen = ((u32)s->bits & 31) + 257, ndist = ((u32)(s->bits >> 5) & 31) + 1, ncl = ((u32)(s->bits >> 10) & 15) + 4;
  drop(s, 14);
  if (nlen > L_CODES || ndist > D_CODES) return E_TOO_MANY_CODES;
  for (u32 i = 0; i < BL_CODES; i++) {
    if (i < ncl) {
      if (s->nbits < 3 && refill(s)) return E_TRUNCATED;
      cl[BL_ORDER[i]] = (u8)(s->bits & 7);
      drop(s, 3);
    } else {
      cl[BL_ORDER[i]] = 0;
    }
  }
  /* (zlib takes an all-zero set here too, but then decodes zero lengths only and fails for the
   * missing end-of-block code: refusing it at once fails the same streams.) */
  if (build(cl, BL_CODES, cl_table, 1 << CL_ROOT, CL_ROOT, CODE_LENGTHS)) return E_CODE_LENGTHS;
  u32 total = nlen + ndist;
  for (u32 i = 0; i < total;) {
    if (s->nbits < 14 && refill(s)) return E_TRUNCATED; /* a 7-bit code and 7 extra bits */
    u32 e = cl_table[s->bits & ((1u << CL_ROOT) - 1)];
    drop(s, e & 0xff);
    u32 sym = e >> 16, repeat, value = 0;
    if (sym < 16) {
      lens[i++] = (u8)sym;
      continue;
    }
    if (sym == 16) {
      if (i == 0) return E_REPEAT;
      value = lens[i - 1];
      repeat = 3 + ((u32)s->bits & 3);
      drop(s, 2);
    } else if (sym == 17) {
      repeat = 3 + ((u32)s->bits & 7);
      drop(s, 3);
    } else {
      repeat = 11 + ((u32)s->bits & 127);
      drop(s, 7);
    }
    if (repeat > total - i) return E_REPEAT;
    while (repeat--) lens[i++] = (u8)value;
  }
  if (lens[256] == 0) return E_NO_END_OF_BLOCK;
  if (build(lens, nlen, lit_table, LIT_TABLE, LIT_ROOT, LITLEN)) return E_LITLEN_CODES;
  if (build(lens + nlen, ndist, dist_table, DIST_TABLE, DIST_ROOT, DIST)) return E_DIST_CODES;
  return 0;
}

/* Inflates the raw DEFLATE stream at s->in to s->out; on success s->in is the byte after it. */
static int inflate_raw(Stream *s) {
  for (;;) {
    if (refill(s)) return E_TRUNCATED;
    u32 header = (u32)s->bits & 7;
    drop(s, 3);
    int r;
    switch (header >> 1) {
      case 0:
        r = stored_block(s);
        break;
      case 1:
        if (!fixed_ready) init_fixed();
        r = decode_block(s, fixed_lit, fixed_dist);
        break;
      case 2:
        r = dynamic_header(s);
        if (r == 0) r = decode_block(s, lit_table, dist_table);
        break;
      default:
        r = E_BLOCK_TYPE;
    }
    if (r) return r;
    if (header & 1) break;
  }
  if (s->zeros * 8 > s->nbits) return E_TRUNCATED;
  /* The rest of the last byte is padding; the whole bytes left in the buffer are after the stream. */
  s->in -= (s->nbits >> 3) - s->zeros;
  s->bits = 0;
  s->nbits = 0;
  s->zeros = 0;
  return 0;
}

static void start(Stream *s, const u8 *in, const u8 *in_end, u8 *out, u8 *out_end) {
  *s = (Stream){in, in_end, 0, 0, 0, out, out, out_end};
}

/*
 * Decodes the zlib stream of src[0, n) (bytes after its Adler-32 are ignored, as zlib.decompress
 * ignores them) into dst[0, cap); returns the decoded length or a negative E_* code.
 */
EXPORT("inflate_zlib")
int inflate_zlib(const u8 *src, int n, u8 *dst, int cap) {
  if (n < 2) return E_TRUNCATED;
  u32 cmf = src[0], flg = src[1];
  if ((cmf & 15) != 8 || cmf >> 4 > 7 || (cmf << 8 | flg) % 31 != 0) return E_ZLIB_HEADER;
  if (flg & 0x20) return E_DICTIONARY;
  Stream s;
  start(&s, src + 2, src + n, dst, dst + cap);
  int r = inflate_raw(&s);
  if (r) return r;
  if (s.in_end - s.in < 4) return E_TRUNCATED;
  u32 len = (u32)(s.out - dst);
  if (adler32(1, dst, (int)len) != __builtin_bswap32(rd32(s.in))) return E_ADLER;
  return (int)len;
}

/*
 * Decodes the gzip members of src[0, n) into dst[0, cap), as CPython's GzipFile reads them: each
 * member's CRC-32 and length checked, zero bytes after a member skipped, an empty input empty.
 * Returns the decoded length or a negative E_* code.
 */
EXPORT("inflate_gzip")
int inflate_gzip(const u8 *src, int n, u8 *dst, int cap) {
  const u8 *p = src, *const end = src + n;
  u8 *out = dst;
  while (p < end) {
    if (end - p < 2 || p[0] != 0x1f || p[1] != 0x8b) return p == src ? E_GZIP_MAGIC : E_AFTER_MEMBER;
    if (end - p < 10) return E_TRUNCATED;
    if (p[2] != 8) return E_GZIP_METHOD;
    u32 flags = p[3];
    p += 10;
    if (flags & 4) { /* FEXTRA */
      if (end - p < 2) return E_TRUNCATED;
      u32 xlen = p[0] | (u32)p[1] << 8;
      p += 2;
      if (xlen > (u32)(end - p)) return E_TRUNCATED;
      p += xlen;
    }
    for (u32 flag = 8; flag <= 16; flag <<= 1) { /* FNAME, FCOMMENT: zero-terminated */
      if (!(flags & flag)) continue;
      while (p < end && *p) p++;
      if (p == end) return E_TRUNCATED;
      p++;
    }
    if (flags & 2) { /* FHCRC, skipped unchecked as CPython does */
      if (end - p < 2) return E_TRUNCATED;
      p += 2;
    }
    Stream s;
    start(&s, p, end, out, dst + cap);
    int r = inflate_raw(&s);
    if (r) return r;
    if (end - s.in < 8) return E_TRUNCATED;
    u32 len = (u32)(s.out - out);
    if (crc32(0, out, (int)len) != rd32(s.in)) return E_CRC;
    if (len != rd32(s.in + 4)) return E_ISIZE;
    out = s.out;
    p = s.in + 8;
    while (p < end && *p == 0) p++;
  }
  return (int)(out - dst);
}
