/*
 * The compressors of the streams inside Blosc frames (see blosc-streams.ts for their decoders): the
 * encoder's, a module of its own that only encoding loads.
 */
import { zlibSync } from "fflate";
import type { BloscCname, StreamRequest } from "./blosc-frame.js";
import { blosclzBound } from "./blosclz.js";
import { blosclzEncode } from "./blosclz-encode.js";
import { lz4Bound } from "./lz4-block.js";
import { lz4EncodeBlock, lz4hcEncodeBlock } from "./lz4-block-encode.js";
import { snappyBound } from "./snappy.js";
import { snappyEncode } from "./snappy-encode.js";
import { zstdCompress } from "./zstd-encode.js";

/** Scratch room for any stream compressor's output for a `blocksize`-byte stream. */
export function scratchFor(blocksize: number): Uint8Array {
  return new Uint8Array(Math.max(lz4Bound(blocksize), blosclzBound(blocksize), snappyBound(blocksize)));
}

/** The Zstd level c-blosc uses for a Blosc clevel. */
export function bloscZstdLevel(clevel: number): number {
  return clevel < 9 ? clevel * 2 - 1 : 22;
}

/**
 * The synchronous stream compressor for `cname` at `clevel` (undefined for zstd, which is
 * asynchronous: see `compressZstdStream`). Returns the compressed length in `out`, or 0.
 */
export function streamCompressor(
  cname: BloscCname,
  clevel: number,
  split: boolean,
): ((request: StreamRequest, out: Uint8Array) => number) | undefined {
  switch (cname) {
    case "blosclz":
      return ({ data, offset, length }, out) => blosclzEncode(data, offset, offset + length, out, 0, split ? 4 : 3);
    case "lz4":
      return ({ data, offset, length }, out) => lz4EncodeBlock(data, offset, offset + length, out, 0, 10 - clevel);
    case "lz4hc":
      return ({ data, offset, length }, out) => lz4hcEncodeBlock(data, offset, offset + length, out, 0, clevel);
    case "snappy":
      return ({ data, offset, length }, out) => snappyEncode(data, offset, offset + length, out, 0);
    case "zlib":
      return ({ data, offset, length }, out) => {
        const z = zlibSync(data.subarray(offset, offset + length), { level: clevel as 1 });
        if (z.length >= length) return 0;
        out.set(z);
        return z.length;
      };
    default:
      return undefined;
  }
}

/** Compresses a stream with Zstd at Blosc's `clevel`; the compressed length in `out`, or 0. */
export async function compressZstdStream(
  { data, offset, length }: StreamRequest,
  out: Uint8Array,
  clevel: number,
): Promise<number> {
  const z = await zstdCompress(data.subarray(offset, offset + length), bloscZstdLevel(clevel));
  if (z.length >= length) return 0;
  out.set(z);
  return z.length;
}
