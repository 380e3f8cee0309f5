/*
 * A whole Blosc 1 frame decoded in one call (see src/blosc-frame.ts for the format): the header
 * and block table checked, every block's streams decoded (LZ4 or Zstd) or copied, then unshuffled.
 * It makes exactly the checks `decodeFrame` in src/blosc-frame.ts makes, in the same order, so
 * that it decodes exactly the frames that function decodes; it only answers "malformed" or "not
 * here" where that function says why, and the TypeScript side then runs it for the message. A
 * chunk of many small frames then costs one call from JavaScript rather than several per block.
 */
#include "common.h"

int lz4_decode(const u8 *src, int srcLen, u8 *dst, int dstLen);
void unshuffle(int typesize, int size, const u8 *src, u8 *dst);
void unshuffle_planes(int typesize, int n, const u8 *const *planes, u8 *dst);
void bitunshuffle(int typesize, int size, const u8 *src, u8 *dst);
#ifndef BLOSC_NO_ZSTD
int zstd_decode(const u8 *src, int srcLen, u8 *dst, int dstCap, int verify);
#endif

#define MALFORMED (-1)
/* A frame for the TypeScript decoder: another compressor, or a Zstd stream without its size. */
#define NOT_HERE (-2)

#define HEADER_SIZE 16
#define MIN_BUFFERSIZE 128
#define MAX_SPLITS 16
#define MAX_BUFFERSIZE (2147483647 - HEADER_SIZE)
#define MAX_BLOCKSIZE ((2147483647 - 255 * 4) / 3)
#define FLAG_SHUFFLE 0x1
#define FLAG_MEMCPYED 0x2
#define FLAG_BITSHUFFLE 0x4
#define FLAG_RESERVED 0x8
#define FLAG_DONT_SPLIT 0x10
#define FORMAT_LZ4 1
#define FORMAT_ZSTD 4
/* zstd_decode's answer for a frame without its content size. */
#define ZSTD_NO_CONTENT_SIZE (-21)

/*
 * Decodes the frame at src[0, srcLen) into dst[0, nbytes), with tmp (a block's bytes) for
 * shuffled frames; dstCap is the most the caller allows. Returns the decoded size, MALFORMED or
 * NOT_HERE. Reads of Zstd streams may look up to 32 bytes past srcLen (wild copies), which the
 * caller keeps readable.
 */
EXPORT("blosc_decode")
int blosc_decode(const u8 *src, int srcLen, u8 *dst, int dstCap, u8 *tmp) {
  if (srcLen < HEADER_SIZE) return MALFORMED;
  u32 flags = src[2], typesize = src[3];
  u32 nbytes = rd32(src + 4), blocksize = rd32(src + 8), cbytes = rd32(src + 12);
  if (src[0] != 2) return MALFORMED;
  if (nbytes > (u32)dstCap) return MALFORMED; /* the caller checked its limit: anything else is for the full path */
  if (cbytes < HEADER_SIZE || cbytes > (u32)srcLen) return MALFORMED;
  if (nbytes == 0) return 0;
  if (nbytes > MAX_BUFFERSIZE || (flags & FLAG_RESERVED) || typesize == 0) return MALFORMED;
  if (blocksize == 0 || blocksize > nbytes || blocksize > MAX_BLOCKSIZE) return MALFORMED;
  if (flags & FLAG_MEMCPYED) {
    if (cbytes != nbytes + HEADER_SIZE) return MALFORMED;
    __builtin_memcpy(dst, src + HEADER_SIZE, nbytes);
    return (int)nbytes;
  }
  u32 format = flags >> 5;
  if (format > 4) return MALFORMED;
#ifdef BLOSC_NO_ZSTD
  /* Built without the Zstandard decoder (src/kernels.ts' LZ4 kernels): Zstd frames go to the full kernels. */
  if (format != FORMAT_LZ4) return NOT_HERE;
#else
  if (format != FORMAT_LZ4 && format != FORMAT_ZSTD) return NOT_HERE;
#endif
  if (src[1] != 1) return MALFORMED;
  u32 nblocks = (nbytes + blocksize - 1) / blocksize;
  u32 leftover = nbytes % blocksize;
  u32 firstStream = HEADER_SIZE + 4 * nblocks;
  if ((u64)HEADER_SIZE + 4 * (u64)nblocks > cbytes) return MALFORMED;
  int doShuffle = (flags & FLAG_SHUFFLE) && typesize > 1;
  int doBitShuffle = !doShuffle && (flags & FLAG_BITSHUFFLE);
  int anyShuffle = doShuffle || doBitShuffle;
  int dontSplit = (flags & FLAG_DONT_SPLIT) != 0;
  /* The streams together cannot hold more bytes than the frame (no overlaps). */
  int64_t budget = (int64_t)cbytes - firstStream;
  for (u32 block = 0; block < nblocks; block++) {
    int isLeftover = block == nblocks - 1 && leftover > 0;
    u32 bsize = isLeftover ? leftover : blocksize;
    u32 splits = !dontSplit && typesize <= MAX_SPLITS && bsize / typesize >= MIN_BUFFERSIZE && !isLeftover ? typesize : 1;
    if (bsize % splits != 0) return MALFORMED;
    u32 neblock = bsize / splits;
    int shuffled = anyShuffle && (doShuffle || bsize >= typesize);
    u8 *out = dst + (u64)block * blocksize;
    u8 *target = shuffled ? tmp : out;
    /*
     * Streams stored raw are unshuffled straight from the frame rather than copied into tmp
     * first: each split stream is a byte plane (split by typesize), or one unsplit stream holds
     * the whole shuffled block. Data that barely compresses (the noisy low bytes of floats) is
     * mostly such streams.
     */
    int byPlanes = shuffled && doShuffle && splits == typesize && splits > 1;
    const u8 *planes[MAX_SPLITS];
    const u8 *shuffledFrom = tmp;
    int64_t at = (int32_t)rd32(src + HEADER_SIZE + 4 * block);
    for (u32 split = 0; split < splits; split++) {
      if (at < firstStream || at > (int64_t)cbytes - 4) return MALFORMED;
      int64_t length = (int32_t)rd32(src + at);
      at += 4;
      if (length < 0 || length > (int64_t)cbytes - at) return MALFORMED;
      budget -= length + 4;
      if (budget < 0) return MALFORMED;
      u8 *d = target + (u64)split * neblock;
      if (byPlanes) planes[split] = d;
      if (length == neblock) {
        if (byPlanes) planes[split] = src + at;
        else if (shuffled && splits == 1) shuffledFrom = src + at;
        else __builtin_memcpy(d, src + at, neblock);
      } else if (format == FORMAT_LZ4) {
        if (lz4_decode(src + at, (int)length, d, (int)neblock) != (int)neblock) return MALFORMED;
      } else {
#ifdef BLOSC_NO_ZSTD
        return NOT_HERE;
#else
        int r = zstd_decode(src + at, (int)length, d, (int)neblock, 1);
        if (r == ZSTD_NO_CONTENT_SIZE) return NOT_HERE;
        if (r != (int)neblock) return MALFORMED;
#endif
      }
      at += length;
    }
    if (byPlanes) unshuffle_planes((int)typesize, (int)neblock, planes, out);
    else if (shuffled) {
      if (doShuffle) unshuffle((int)typesize, (int)bsize, shuffledFrom, out);
      else bitunshuffle((int)typesize, (int)bsize, shuffledFrom, out);
    }
  }
  return (int)nbytes;
}
