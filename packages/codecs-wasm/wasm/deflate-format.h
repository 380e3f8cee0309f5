/* What DEFLATE (RFC 1951) fixes, shared by the encoder (deflate.c) and the decoder (inflate.c). */
#ifndef Z_DEFLATE_FORMAT_H
#define Z_DEFLATE_FORMAT_H

#include "common.h"

#define L_CODES 286 /* literal/length codes that may occur: 0-255, end of block, lengths 257-285 */
#define D_CODES 30
#define BL_CODES 19 /* code length codes */

/* Extra bits of each length code (257 + i) and distance code. */
static const u8 LEN_EXTRA[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const u8 DIST_EXTRA[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
/* The order in which a dynamic block header gives the code length codes' lengths. */
static const u8 BL_ORDER[BL_CODES] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

#endif
