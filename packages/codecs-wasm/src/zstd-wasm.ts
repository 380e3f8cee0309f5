import type { Kernels } from "./kernels.js";

/** What each failure code of `zstd_decode` (wasm/zstd.c) means. */
const PROBLEMS: Readonly<Record<number, string>> = {
  [-1]: "unexpected end of data",
  [-2]: "not Zstandard data (bad magic number)",
  [-3]: "reserved bit set in the frame header",
  [-4]: "the frame needs a dictionary, which is not available",
  [-5]: "window size too large",
  [-6]: "reserved block type",
  [-7]: "block larger than the maximum block size",
  [-8]: "the frames decode to more bytes than they declare",
  [-9]: "invalid literals section",
  [-10]: "invalid Huffman tree description",
  [-11]: "Huffman stream does not end where it should",
  [-12]: "invalid FSE table description",
  [-13]: "invalid sequences section header",
  [-14]: "sequences bit stream does not end where it should",
  [-15]: "sequence uses more literals than the block has",
  [-16]: "match offset before the start of the frame",
  [-17]: "frame content size differs from what the frame decodes to",
  [-18]: "content checksum mismatch",
  [-19]: "a block reuses a table but there is none",
  [-20]: "no data",
  [-21]: "a frame without its content size",
};

/** `zstd_decode` reports this when the output would pass the capacity given. */
export const OUTPUT_TOO_LONG = -8;

/** `zstd_decode` reports this for a frame without a content size: the TypeScript decoder takes those. */
export const NO_CONTENT_SIZE = -21;

/** The message for a negative result of `zstd_decode`. */
export function zstdProblem(code: number): string {
  return PROBLEMS[code] ?? `failure ${code}`;
}

/**
 * Decodes the frames of `src[start, end)` into `dst[d, d + capacity)` with the full kernels (see
 * kernels.ts), both views of their memory with `ZSTD_READ_SLACK` readable bytes after `end`; returns the bytes written or a
 * negative failure code (see `zstdProblem`). Content checksums are verified.
 */
export function zstdDecodeIn(
  kernels: Kernels,
  src: Uint8Array,
  start: number,
  end: number,
  dst: Uint8Array,
  d: number,
  capacity: number,
): number {
  return kernels.exports.zstd_decode!(src.byteOffset + start, end - start, dst.byteOffset + d, capacity, 1);
}
