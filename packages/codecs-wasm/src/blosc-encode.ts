/*
 * The blosc codec's encoder, a module of its own that `enableWasmEncoders` registers (a page that
 * only reads never loads it). With the WebAssembly encoders (encode-kernels.ts) it writes the same
 * frame as the TypeScript path (blosc-frame.ts's encodeFrame drives both), with the shuffles and
 * the LZ4 and zlib streams done in WebAssembly. For the synchronous compressors the input, the
 * shuffled block and the compressed stream all live in the encoders' memory, so nothing is copied
 * per stream but the compressed bytes into the frame.
 */
import { CodecError, inChunk, type ChunkContext } from "@z/codecs/define";
import {
  computeBlocksize,
  encodeFrame,
  MAX_BUFFERSIZE,
  splitBlock,
  type BloscCname,
  type EncodeOptions,
  type EncodeWorkspace,
  type StreamRequest,
} from "./blosc-frame.js";
import { compressZstdStream, scratchFor, streamCompressor } from "./blosc-streams-encode.js";
import {
  align16,
  deflateBound,
  encodeKernelsUnavailable,
  loadEncodeKernels,
  readyEncodeKernels,
  releaseEncode,
  reserveEncode,
  type EncodeKernels,
} from "./encode-kernels.js";
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

const C_INT_MAX = 2 ** 31 - 1;

export interface BloscSettings {
  readonly cname: BloscCname;
  readonly clevel: number;
  readonly shuffle: number;
  readonly blocksize: number;
  readonly typesize?: number | null | undefined;
}

/** A Blosc frame of `bytes`, as c-blosc 1.21 writes it for `config` (numcodecs' Blosc). */
export function encodeBlosc(
  bytes: Uint8Array,
  config: BloscSettings,
  chunk: ChunkContext,
): Uint8Array | Promise<Uint8Array> {
  if (bytes.length > MAX_BUFFERSIZE) {
    throw new CodecError(
      `blosc cannot compress ${bytes.length} bytes${inChunk(chunk.key)}: the limit is ${MAX_BUFFERSIZE}`,
      {
        codecId: "blosc",
        key: chunk.key,
      },
    );
  }
  const { cname, clevel } = config;
  if (config.typesize != null && config.typesize > C_INT_MAX) {
    // numcodecs hands it to c-blosc as a C int, and c-blosc refuses the overflowed value.
    throw new CodecError(
      `blosc cannot compress${inChunk(chunk.key)} with typesize ${config.typesize}: c-blosc takes at most ${C_INT_MAX}`,
      {
        codecId: "blosc",
        key: chunk.key,
      },
    );
  }
  // numcodecs hands c-blosc the chunk's NumPy itemsize, or the config's `typesize` when it has one;
  // an object array reaches the compressor as the bytes its object codec wrote (itemsize 1).
  const itemsize = config.typesize ?? (chunk.dtype?.kind === "O" ? 1 : chunk.itemsize);
  const typesize = itemsize > 255 ? 1 : Math.max(1, itemsize);
  const options = { ...config, typesize: itemsize };
  const blocksize = computeBlocksize(cname, clevel, typesize, bytes.length, config.blocksize);
  const encoders = readyEncodeKernels();
  if (encoders === undefined && !encodeKernelsUnavailable() && bytes.length >= 4096) {
    return loadEncodeKernels().then(() => encodeBlosc(bytes, config, chunk));
  }
  if (encoders !== undefined && cname !== "zstd") {
    const frame = encodeFrameInWasm(encoders, bytes, options, blocksize, splitBlock(cname, typesize, blocksize));
    if (frame !== undefined) return frame;
  }
  let scratch: Uint8Array | undefined;
  const workspace = encoders !== undefined ? copyingShuffles(encoders) : {};
  const frame = encodeFrame(bytes, options, (size) => (scratch = scratchFor(size)), workspace);
  const compress = streamCompressor(cname, clevel, splitBlock(cname, typesize, blocksize));
  if (compress) {
    let step = frame.next();
    while (!step.done) step = frame.next(compress(step.value, scratch!));
    return step.value;
  }
  return (async () => {
    let step = frame.next();
    while (!step.done) {
      const request: StreamRequest = step.value;
      step = frame.next(await compressZstdStream(request, scratch!, clevel));
    }
    return step.value;
  })();
}
