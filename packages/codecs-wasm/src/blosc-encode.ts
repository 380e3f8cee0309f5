/*
 * Blosc encoding with the WebAssembly encoders (encode-kernels.ts): the same frame as the
 * TypeScript path (blosc-frame.ts's encodeFrame drives both), with the shuffles and the LZ4 and
 * zlib streams done in WebAssembly. For the synchronous compressors the input, the shuffled block
 * and the compressed stream all live in the encoders' memory, so nothing is copied per stream
 * but the compressed bytes into the frame.
 */
import {
  encodeFrame,
  type BloscCname,
  type EncodeOptions,
  type EncodeWorkspace,
  type StreamRequest,
} from "./blosc-frame.js";
import { streamCompressor } from "./blosc-streams.js";
import { align16, deflateBound, releaseEncode, reserveEncode, type EncodeKernels } from "./encode-kernels.js";
import { lz4Bound } from "./lz4-block.js";
import { blosclzBound } from "./blosclz.js";
import { snappyBound } from "./snappy.js";
import type { shuffleBytes } from "./shuffle.js";

type Shuffle = typeof shuffleBytes;

/** The zlib FLEVEL bits (header byte 2) zlib's compress2 writes for a level. */
const flevel = (level: number) => (level <= 1 ? 0 : level <= 5 ? 1 : level === 6 ? 2 : 3);

/** Bytes the scratch for one compressed stream of `blocksize` bytes needs, for every compressor. */
function scratchBytes(blocksize: number): number {
  return Math.max(lz4Bound(blocksize), blosclzBound(blocksize), snappyBound(blocksize), deflateBound(blocksize) + 6);
}

/**
 * A stream compressor working in the encoders' memory: `data` and `out` must be views of it (their
 * `byteOffset` is their address), and `data` must have 8 readable bytes after the stream.
 */
function wasmCompressor(kernels: EncodeKernels, cname: BloscCname, clevel: number, split: boolean) {
  const { lz4_encode, deflate_raw, adler32 } = kernels.exports;
  if (cname === "lz4") {
    // c-blosc 1.21 calls LZ4_compress_fast with acceleration 10 - clevel.
    return ({ data, offset, length }: StreamRequest, out: Uint8Array) =>
      lz4_encode(data.byteOffset + offset, length, out.byteOffset, 10 - clevel);
  }
  if (cname === "zlib") {
    // c-blosc 1.21 calls zlib's compress2 at clevel: a zlib stream.
    return ({ data, offset, length }: StreamRequest, out: Uint8Array) => {
      const at = out.byteOffset;
      const raw = deflate_raw(data.byteOffset + offset, length, at + 2, out.length - 6, clevel);
      if (raw < 0 || raw + 6 >= length) return 0;
      const flg = flevel(clevel) << 6;
      out[0] = 0x78;
      out[1] = flg | (31 - ((0x7800 | flg) % 31));
      const sum = adler32(1, data.byteOffset + offset, length) >>> 0;
      for (let i = 0; i < 4; i++) out[2 + raw + i] = (sum >>> (24 - 8 * i)) & 255;
      return raw + 6;
    };
  }
  return streamCompressor(cname, clevel, split);
}

/**
 * Encodes a Blosc frame with a synchronous compressor (every cname but zstd) in the encoders'
 * memory. Undefined when that memory cannot grow so far (the caller then encodes in TypeScript).
 */
export function encodeFrameInWasm(
  kernels: EncodeKernels,
  bytes: Uint8Array,
  options: EncodeOptions,
  blocksize: number,
  split: boolean,
): Uint8Array | undefined {
  const n = bytes.length;
  const inAt = kernels.heapBase;
  const tmpAt = inAt + align16(n + 8);
  const bitsAt = tmpAt + align16(blocksize + 8);
  const outAt = bitsAt + align16(blocksize + 8);
  const frameAt = outAt + align16(scratchBytes(blocksize));
  const memory = reserveEncode(kernels, frameAt - inAt + align16(n + 16));
  if (memory === undefined) return undefined;
  try {
    const src = memory.subarray(inAt, inAt + n);
    src.set(bytes);
    const { shuffle, bitshuffle } = kernels.exports;
    const workspace: EncodeWorkspace = {
      tmp: (size) => memory.subarray(tmpAt, tmpAt + size),
      output: (size) => memory.subarray(frameAt, frameAt + size),
      shuffleBytes: (typesize, size, s, sAt, d, dAt) => shuffle(typesize, size, s.byteOffset + sAt, d.byteOffset + dAt),
      shuffleBits: (typesize, size, s, sAt, d, dAt) =>
        bitshuffle(typesize, size, s.byteOffset + sAt, d.byteOffset + dAt, bitsAt),
    };
    const scratch = memory.subarray(outAt, outAt + scratchBytes(blocksize));
    const compress = wasmCompressor(kernels, options.cname, options.clevel, split)!;
    const frame = encodeFrame(src, options, () => scratch, workspace);
    let step = frame.next();
    while (!step.done) step = frame.next(compress(step.value, scratch));
    return step.value;
  } finally {
    releaseEncode(kernels);
  }
}

/**
 * Shuffles for a frame whose buffers are ordinary arrays (the Zstd path, which awaits between
 * streams, so it cannot keep its data in the shared encoders' memory): each block is copied in,
 * shuffled in WebAssembly and copied out, all in one synchronous call.
 */
export function copyingShuffles(kernels: EncodeKernels): EncodeWorkspace {
  const run =
    (bits: boolean): Shuffle =>
    (typesize, size, src, s, dst, d) => {
      const inAt = kernels.heapBase;
      const outAt = inAt + align16(size + 8);
      const bitsAt = outAt + align16(size + 8);
      const memory = reserveEncode(kernels, bitsAt - inAt + align16(size + 8));
      if (memory === undefined) throw new RangeError(`cannot reserve ${size} bytes to shuffle`);
      memory.set(src.subarray(s, s + size), inAt);
      if (bits) kernels.exports.bitshuffle(typesize, size, inAt, outAt, bitsAt);
      else kernels.exports.shuffle(typesize, size, inAt, outAt);
      dst.set(memory.subarray(outAt, outAt + size), d);
    };
  return { shuffleBytes: run(false), shuffleBits: run(true) };
}
