import { zlibSync } from "fflate";
import { zlib } from "@z/codecs";
import type { BloscCname, StreamDecoders, StreamRequest } from "./blosc-frame.js";
import { blosclzBound, blosclzDecode, blosclzEncode } from "./blosclz.js";
import { MalformedInput, OutputTooLarge } from "./errors.js";
import { lz4Bound, lz4DecodeBlock, lz4EncodeBlock, lz4hcEncodeBlock, lz4Problem } from "./lz4-block.js";
import { snappyBound, snappyDecode, snappyEncode } from "./snappy.js";
import { zstdDecode } from "./zstd-decode.js";
import { zstdCompress } from "./zstd-encode.js";

const wrongSize = (name: string, got: number, n: number): never => {
  throw new MalformedInput(`${name} stream decodes to ${got} bytes, expected ${n}`);
};

const zlibCodec = zlib.create();
const BYTE = { kind: "u", byteOrder: "|", itemsize: 1 } as const;

/** The decoders of the streams inside Blosc frames, by compressor format. */
export const streamDecoders: StreamDecoders = {
  blosclz(src, start, end, dst, d, n) {
    const r = blosclzDecode(src, start, end, dst, d, d + n);
    if (r < 0) throw new MalformedInput("invalid BloscLZ stream");
    if (r - d !== n) wrongSize("BloscLZ", r - d, n);
  },
  lz4(src, start, end, dst, d, n) {
    const r = lz4DecodeBlock(src, start, end, dst, d, d + n);
    if (r < 0) throw new MalformedInput(lz4Problem(r));
    if (r - d !== n) wrongSize("LZ4", r - d, n);
  },
  snappy(src, start, end, dst, d, n) {
    const r = snappyDecode(src, start, end, dst, d, n);
    if (r < 0) throw new MalformedInput("invalid Snappy stream");
    if (r !== n) wrongSize("Snappy", r, n);
  },
  zlib(src, start, end, dst, d, n) {
    let out: Uint8Array;
    try {
      out = zlibCodec.decode(src.subarray(start, end), { dtype: BYTE, itemsize: 1, elements: n }) as Uint8Array;
    } catch (error) {
      throw new MalformedInput(`invalid zlib stream (${error instanceof Error ? error.message : String(error)})`);
    }
    if (out.length !== n) wrongSize("zlib", out.length, n);
    dst.set(out, d);
  },
  zstd(src, start, end, dst, d, n) {
    let out: Uint8Array;
    try {
      out = zstdDecode(src.subarray(start, end), n);
    } catch (error) {
      if (error instanceof OutputTooLarge) throw new MalformedInput(`Zstd stream decodes to more than ${n} bytes`);
      if (error instanceof MalformedInput) throw new MalformedInput(`invalid Zstd stream (${error.message})`);
      throw error;
    }
    if (out.length !== n) wrongSize("Zstd", out.length, n);
    dst.set(out, d);
  },
};

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
