/*
 * Adler-32 (zlib's trailer) and CRC-32 (gzip's), in checksum.c: compiled into both the encoders'
 * module (deflate.c) and the inflater's (inflate.c), and exported from each.
 */
#ifndef Z_CHECKSUM_H
#define Z_CHECKSUM_H

#include "common.h"

/* Continues the CRC-32 `crc` (0 to start) over p[0, n). */
u32 crc32(u32 crc, const u8 *p, int n);

/* Continues the Adler-32 `adler` (1 to start) over p[0, n). */
u32 adler32(u32 adler, const u8 *p, int n);

#endif
