/*
 * gzip's encoder (fflate's DEFLATE), a module of its own: registered by `enableEncoders` and loaded
 * when a gzip codec first encodes, so a page that only reads never loads it.
 */
import { gzipSync } from "fflate";

/** A gzip member of `bytes` at `level` (-1 to 9), with the header CPython's gzip module writes (mtime 0). */
export function encodeGzip(bytes: Uint8Array, level: number): Uint8Array {
  const effective = (level === -1 ? 6 : level) as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  const out = gzipSync(bytes, { level: effective, mtime: 0 });
  out[8] = level === 9 ? 2 : level === 1 ? 4 : 0; // XFL, as CPython's gzip module sets it
  out[9] = 255; // OS: unknown, as CPython writes
  return out;
}
