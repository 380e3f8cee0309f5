/*
 * zlib's encoder (fflate's DEFLATE), a module of its own: registered by `enableEncoders` and loaded
 * when a zlib codec first encodes, so a page that only reads never loads it.
 */
import { zlibSync } from "fflate";

/** The FLEVEL bits zlib writes in the header's second byte for a compression level. */
function zlibFlevel(level: number): number {
  if (level === -1) return 2;
  if (level <= 1) return 0;
  if (level <= 5) return 1;
  if (level === 6) return 2;
  return 3;
}

/** A zlib stream of `bytes` at `level` (-1 to 9), with the header bytes Python's `zlib.compress` writes. */
export function encodeZlib(bytes: Uint8Array, level: number): Uint8Array {
  const effective = (level === -1 ? 6 : level) as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  const out = zlibSync(bytes, { level: effective });
  // fflate's FLEVEL bits differ from zlib's; write zlib's so the header matches Python's bytes.
  const flg = zlibFlevel(level) << 6;
  out[1] = flg | (31 - (((out[0]! << 8) | flg) % 31));
  return out;
}
