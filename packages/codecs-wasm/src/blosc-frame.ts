/*
 * The Blosc 1 frame (c-blosc 1.x, format version 2), written for this package from the format:
 *
 *   0  version (2)          1  compressor format version (1)
 *   2  flags: bit 0 byte shuffle, bit 1 stored uncompressed ("memcpyed"), bit 2 bit shuffle,
 *      bit 3 reserved (must be 0), bit 4 blocks are not split, bits 5-7 compressor
 *      (0 BloscLZ, 1 LZ4/LZ4HC, 2 Snappy, 3 zlib, 4 Zstd)
 *   3  type size            4  uncompressed size (LE u32)
 *   8  block size (LE u32)  12 frame size, header included (LE u32)
 *
 * A memcpyed frame is the header and the raw data. Otherwise a table of block starts (LE i32, one
 * per block, from the frame start) follows, then the blocks. The last block is shorter when the
 * size is not a multiple of the block size (the "leftover" block). Each block is shuffled as a whole
 * and then cut into `typesize` equal streams ("split") or kept as one; each stream is a LE i32
 * length and that many bytes: the stream compressed, or stored raw when the length equals the
 * stream's size.
 */
import { MalformedInput } from "./errors.js";
import { shuffleBits, shuffleBytes, unshuffleBits, unshuffleBytes } from "./shuffle.js";

export const HEADER_SIZE = 16;
export const FORMAT_VERSION = 2;
/** Buffers smaller than this are always stored uncompressed (c-blosc's MIN_BUFFERSIZE). */
const MIN_BUFFERSIZE = 128;
/** Blocks are split into streams only for type sizes up to this (MAX_SPLITS). */
const MAX_SPLITS = 16;
const L1 = 32 * 1024;
export const MAX_TYPESIZE = 255;
export const MAX_BUFFERSIZE = 2 ** 31 - 1 - HEADER_SIZE;
const MAX_BLOCKSIZE = Math.floor((2 ** 31 - 1 - MAX_TYPESIZE * 4) / 3);

export const FLAG_SHUFFLE = 0x1;
export const FLAG_MEMCPYED = 0x2;
export const FLAG_BITSHUFFLE = 0x4;
export const FLAG_RESERVED = 0x8;
export const FLAG_DONT_SPLIT = 0x10;

export const NOSHUFFLE = 0;
export const SHUFFLE = 1;
export const BITSHUFFLE = 2;
export const AUTOSHUFFLE = -1;

/** Compressor names, in c-blosc's compcode order. */
export const CNAMES: readonly BloscCname[] = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"];
/**
 * A Blosc compressor name, as numcodecs' `Blosc(cname=...)` takes it. Spelled out, not derived from
 * CNAMES: a union inferred from literals prints in whatever order the checker met them, which
 * differs between clean and incremental builds (and so did the API report).
 */
export type BloscCname = "blosclz" | "lz4" | "lz4hc" | "snappy" | "zlib" | "zstd";

/** The format number (flags bits 5-7) each compressor writes. */
export const CNAME_FORMAT: Readonly<Record<BloscCname, number>> = {
  blosclz: 0,
  lz4: 1,
  lz4hc: 1,
  snappy: 2,
  zlib: 3,
  zstd: 4,
};
export const FORMAT_NAMES = ["blosclz", "lz4", "snappy", "zlib", "zstd"] as const;

/** Compressors meant for high ratios get larger blocks (c-blosc's HCR). */
function highRatio(cname: BloscCname): boolean {
  return cname === "lz4hc" || cname === "zlib" || cname === "zstd";
}

/**
 * Whether c-blosc 1.21 (its default "forward compatible" split mode) cuts blocks of `blocksize`
 * bytes into `typesize` streams: never for Zstd, else when the type size is at most 16 and a
 * stream would hold at least 128 items.
 */
export function splitBlock(cname: BloscCname, typesize: number, blocksize: number): boolean {
  return cname !== "zstd" && typesize <= MAX_SPLITS && Math.floor(blocksize / typesize) >= MIN_BUFFERSIZE;
}

/** c-blosc's `compute_blocksize`: the block size it picks for a buffer (`forced` 0 = automatic). */
export function computeBlocksize(
  cname: BloscCname,
  clevel: number,
  typesize: number,
  nbytes: number,
  forced: number,
): number {
  if (nbytes < typesize) return 1;
  let blocksize = nbytes;
  if (forced) {
    blocksize = Math.min(Math.max(forced, MIN_BUFFERSIZE), MAX_BLOCKSIZE);
  } else if (nbytes >= L1) {
    blocksize = L1;
    if (highRatio(cname)) blocksize *= 2;
    switch (clevel) {
      case 0:
        blocksize /= 4;
        break;
      case 1:
        blocksize /= 2;
        break;
      case 2:
        break;
      case 3:
        blocksize *= 2;
        break;
      case 4:
      case 5:
        blocksize *= 4;
        break;
      case 6:
      case 7:
      case 8:
        blocksize *= 8;
        break;
      default:
        blocksize *= 8;
        if (highRatio(cname)) blocksize *= 2;
    }
  }
  if (clevel > 0 && splitBlock(cname, typesize, blocksize)) {
    if (blocksize > 1 << 18) blocksize = 1 << 18;
    blocksize *= typesize;
    if (blocksize < 1 << 16) blocksize = 1 << 16;
    if (blocksize > 1 << 20) blocksize = 1 << 20;
  }
  if (blocksize > nbytes) blocksize = nbytes;
  if (blocksize > typesize) blocksize = Math.floor(blocksize / typesize) * typesize;
  return blocksize;
}

/** The header fields of a Blosc frame. */
export interface BloscHeader {
  readonly version: number;
  readonly versionlz: number;
  readonly flags: number;
  readonly typesize: number;
  readonly nbytes: number;
  readonly blocksize: number;
  readonly cbytes: number;
}

function readU32(data: Uint8Array, at: number): number {
  return (data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24)) >>> 0;
}

function writeU32(data: Uint8Array, at: number, value: number): void {
  data[at] = value & 255;
  data[at + 1] = (value >>> 8) & 255;
  data[at + 2] = (value >>> 16) & 255;
  data[at + 3] = (value >>> 24) & 255;
}

/** Reads the 16-byte header (throws `MalformedInput` when there are fewer than 16 bytes). */
export function readHeader(data: Uint8Array): BloscHeader {
  if (data.length < HEADER_SIZE) {
    throw new MalformedInput(
      data.length === 0
        ? "no data"
        : `unexpected end of data (${data.length} bytes, a Blosc header has ${HEADER_SIZE})`,
    );
  }
  return {
    version: data[0]!,
    versionlz: data[1]!,
    flags: data[2]!,
    typesize: data[3]!,
    nbytes: readU32(data, 4),
    blocksize: readU32(data, 8),
    cbytes: readU32(data, 12),
  };
}

/** Decodes a stream of an inner codec into `dst[d, d + n)`; must produce exactly `n` bytes or throw `MalformedInput`. */
export type StreamDecoder = (
  src: Uint8Array,
  start: number,
  end: number,
  dst: Uint8Array,
  d: number,
  n: number,
) => void;

/** The inner decoders by compressor format number (flags bits 5-7). */
export type StreamDecoders = Readonly<Record<(typeof FORMAT_NAMES)[number], StreamDecoder>>;

/** Where `decodeFrame` decodes to, and a faster unshuffle (the WebAssembly kernels use this). */
export interface FrameWorkspace {
  /** The output (`nbytes`) and scratch (`blocksize`) buffers. */
  readonly buffers?: (nbytes: number, blocksize: number) => { out: Uint8Array; tmp: Uint8Array };
  readonly unshuffleBytes?: typeof unshuffleBytes;
  readonly unshuffleBits?: typeof unshuffleBits;
}

/**
 * Checks a header as c-blosc's `blosc_decompress` does, and more. `available` is how many bytes
 * of the frame there are (`Infinity` when only part of it is read). Returns false for a frame of
 * no bytes (nothing more to check or decode). Throws `MalformedInput`, or `tooLarge()` when the
 * frame claims more than `limit` bytes.
 */
export function checkHeader(h: BloscHeader, limit: number, tooLarge: () => Error, available: number): boolean {
  const { flags, typesize, nbytes, blocksize, cbytes } = h;
  if (h.version !== FORMAT_VERSION) {
    throw new MalformedInput(`unsupported Blosc format version ${h.version} (Blosc 1 frames have version 2)`);
  }
  if (nbytes > limit) throw tooLarge();
  if (cbytes < HEADER_SIZE) throw new MalformedInput(`the header's frame size ${cbytes} is smaller than the header`);
  if (cbytes > available) {
    throw new MalformedInput(
      `the header says the frame has ${cbytes} bytes but there are only ${available} (truncated)`,
    );
  }
  if (nbytes === 0) return false;
  if (nbytes > MAX_BUFFERSIZE) throw new MalformedInput(`the header's size ${nbytes} is larger than Blosc allows`);
  if (flags & FLAG_RESERVED)
    throw new MalformedInput(`unknown flag 0x08 in the header (flags 0x${flags.toString(16)})`);
  if (typesize === 0) throw new MalformedInput("the header's type size is 0");
  if (blocksize === 0 || blocksize > nbytes || blocksize > MAX_BLOCKSIZE) {
    throw new MalformedInput(`the header's block size ${blocksize} does not fit its size ${nbytes}`);
  }
  if (flags & FLAG_MEMCPYED) {
    if (cbytes !== nbytes + HEADER_SIZE) {
      throw new MalformedInput(
        `an uncompressed frame of ${nbytes} bytes must have ${nbytes + HEADER_SIZE}, the header says ${cbytes}`,
      );
    }
    return true;
  }
  const format = flags >>> 5;
  const name = FORMAT_NAMES[format];
  if (name === undefined) throw new MalformedInput(`unknown compressor format ${format} in the header`);
  if (h.versionlz !== 1) throw new MalformedInput(`unsupported ${name} format version ${h.versionlz} (expected 1)`);
  const nblocks = Math.ceil(nbytes / blocksize);
  if (HEADER_SIZE + 4 * nblocks > cbytes) {
    throw new MalformedInput(`the frame (${cbytes} bytes) is too small for the starts of its ${nblocks} blocks`);
  }
  return true;
}

/** The shape of a checked, compressed (not memcpyed) frame's blocks, and how to undo them. */
export interface FrameBlocks {
  readonly header: BloscHeader;
  readonly nblocks: number;
  /** Bytes in the last block when it is short, else 0. */
  readonly leftover: number;
  /** Where the first stream may start: after the header and the block starts. */
  readonly firstStream: number;
  readonly decode: StreamDecoder;
  readonly unshuffle: typeof unshuffleBytes;
  readonly bitUnshuffle: typeof unshuffleBits;
  /** Whether blocks go through the `tmp` buffer of `decodeBlock` (shuffled ones do). */
  readonly shuffled: boolean;
}

/** The blocks of a frame whose header `checkHeader` accepted (and that is not memcpyed). */
export function frameBlocks(h: BloscHeader, decoders: StreamDecoders, workspace: FrameWorkspace = {}): FrameBlocks {
  const nblocks = Math.ceil(h.nbytes / h.blocksize);
  const doShuffle = (h.flags & FLAG_SHUFFLE) !== 0 && h.typesize > 1;
  const doBitShuffle = !doShuffle && (h.flags & FLAG_BITSHUFFLE) !== 0;
  return {
    header: h,
    nblocks,
    leftover: h.nbytes % h.blocksize,
    firstStream: HEADER_SIZE + 4 * nblocks,
    decode: decoders[FORMAT_NAMES[h.flags >>> 5]!],
    unshuffle: workspace.unshuffleBytes ?? unshuffleBytes,
    bitUnshuffle: workspace.unshuffleBits ?? unshuffleBits,
    shuffled: doShuffle || doBitShuffle,
  };
}

/** The start of block `block` (from the table after the header, which `table` holds from frame byte 0). */
export function blockStart(table: Uint8Array, block: number): number {
  return readU32(table, HEADER_SIZE + 4 * block) | 0;
}

/** How many bytes block `block` decodes to. */
export function blockBytes(blocks: FrameBlocks, block: number): number {
  return block === blocks.nblocks - 1 && blocks.leftover > 0 ? blocks.leftover : blocks.header.blocksize;
}

/**
 * Decodes block `block`, whose streams start at frame offset `at`, into `out[outAt, outAt + its
 * size)`. `src` holds the frame's bytes from frame offset `base` (the whole frame: `base` 0); the
 * streams must lie in it. `tmp` (a block's bytes) is needed for shuffled frames. `budget` is how
 * many stream bytes may still be read (streams may not overlap); returns what is left of it.
 * Throws `MalformedInput`.
 */
export function decodeBlock(
  blocks: FrameBlocks,
  src: Uint8Array,
  base: number,
  block: number,
  at: number,
  out: Uint8Array,
  outAt: number,
  tmp: Uint8Array | undefined,
  budget: number,
): number {
  const { typesize, flags, cbytes } = blocks.header;
  const isLeftover = block === blocks.nblocks - 1 && blocks.leftover > 0;
  const bsize = blockBytes(blocks, block);
  const dontSplit = (flags & FLAG_DONT_SPLIT) !== 0;
  const splits =
    !dontSplit && typesize <= MAX_SPLITS && Math.floor(bsize / typesize) >= MIN_BUFFERSIZE && !isLeftover
      ? typesize
      : 1;
  if (bsize % splits !== 0) {
    throw new MalformedInput(`block ${block} of ${bsize} bytes cannot be split into ${splits} streams`);
  }
  const neblock = bsize / splits;
  const doShuffle = (flags & FLAG_SHUFFLE) !== 0 && typesize > 1;
  const shuffled = blocks.shuffled && tmp !== undefined && (doShuffle || bsize >= typesize);
  const target = shuffled ? tmp : out;
  const targetAt = shuffled ? 0 : outAt;
  const end = base + src.length;
  for (let split = 0; split < splits; split++) {
    if (at < blocks.firstStream || at > cbytes - 4) {
      throw new MalformedInput(`stream ${split} of block ${block} starts at ${at}, outside the frame`);
    }
    if (at < base || at > end - 4) {
      throw new MalformedInput(
        `stream ${split} of block ${block} starts at ${at}, outside its block's bytes (${base} to ${end})`,
      );
    }
    const length = readU32(src, at - base) | 0;
    at += 4;
    if (length < 0 || length > cbytes - at) {
      throw new MalformedInput(`stream ${split} of block ${block} has length ${length}, past the end of the frame`);
    }
    if (length > end - at) {
      throw new MalformedInput(
        `stream ${split} of block ${block} has length ${length}, past its block's bytes (${base} to ${end})`,
      );
    }
    budget -= length + 4;
    if (budget < 0) throw new MalformedInput("the frame's streams overlap");
    const d = targetAt + split * neblock;
    const s = at - base;
    if (length === neblock) {
      target.set(src.subarray(s, s + length), d);
    } else {
      try {
        blocks.decode(src, s, s + length, target, d, neblock);
      } catch (error) {
        if (error instanceof MalformedInput) {
          throw new MalformedInput(`stream ${split} of block ${block}: ${error.message}`);
        }
        throw error;
      }
    }
    at += length;
  }
  if (shuffled) {
    if (doShuffle) blocks.unshuffle(typesize, bsize, tmp, 0, out, outAt);
    else blocks.bitUnshuffle(typesize, bsize, tmp, 0, out, outAt);
  }
  return budget;
}

/**
 * Decodes a whole Blosc frame as c-blosc's `blosc_decompress` does, with the checks it makes and
 * more (every stream must decode to exactly its size, streams may not overlap or run past the
 * frame). `limit` is the most bytes the frame may claim to hold; `tooLarge` builds the error
 * thrown when it claims more. Throws `MalformedInput` for anything malformed.
 */
export function decodeFrame(
  data: Uint8Array,
  decoders: StreamDecoders,
  limit: number,
  tooLarge: () => Error,
  workspace: FrameWorkspace = {},
): Uint8Array {
  const h = readHeader(data);
  if (!checkHeader(h, limit, tooLarge, data.length)) return new Uint8Array(0);
  const { nbytes, blocksize, cbytes } = h;
  const buffers = workspace.buffers?.(nbytes, blocksize);
  const out = buffers?.out ?? new Uint8Array(nbytes);
  if (h.flags & FLAG_MEMCPYED) {
    out.set(data.subarray(HEADER_SIZE, cbytes));
    return out;
  }
  const blocks = frameBlocks(h, decoders, workspace);
  const tmp = blocks.shuffled ? (buffers?.tmp ?? new Uint8Array(blocksize)) : undefined;
  // The streams, taken together, cannot hold more bytes than the frame has (no overlaps): this
  // keeps the work linear in the input even for hostile block starts.
  let budget = cbytes - blocks.firstStream;
  const frame = data.subarray(0, cbytes);
  for (let block = 0; block < blocks.nblocks; block++) {
    budget = decodeBlock(blocks, frame, 0, block, blockStart(data, block), out, block * blocksize, tmp, budget);
  }
  return out;
}

/** A request to compress one stream `data[offset, offset + length)` into `scratch` from 0 (see `encodeFrame`). */
export interface StreamRequest {
  readonly data: Uint8Array;
  readonly offset: number;
  readonly length: number;
}

export interface EncodeOptions {
  readonly cname: BloscCname;
  readonly clevel: number;
  /** 0, 1, 2 or -1 (numcodecs' automatic: bit shuffle for 1-byte items, else byte shuffle). */
  readonly shuffle: number;
  /** 0 for automatic. */
  readonly blocksize: number;
  /** The item size of the data (the array's). */
  readonly typesize: number;
}

/** Where `encodeFrame` shuffles to, and faster shuffles (the WebAssembly encoders use this). */
export interface EncodeWorkspace {
  /** The shuffle buffer (`blocksize` bytes). */
  readonly tmp?: (blocksize: number) => Uint8Array;
  /** Where the frame is assembled (`maxbytes` bytes); the result is a copy of its start. */
  readonly output?: (maxbytes: number) => Uint8Array;
  readonly shuffleBytes?: typeof shuffleBytes;
  readonly shuffleBits?: typeof shuffleBits;
}

/**
 * Encodes `src` as a Blosc frame the way numcodecs' `Blosc.encode` drives c-blosc 1.21: the same
 * block size, flags, block split and shuffle, and the same fallback to an uncompressed frame
 * when compressing does not fit in `nbytes + 16` bytes. Only the compressed streams' bytes differ
 * (they are this package's compressors).
 *
 * A generator, so one implementation serves synchronous and asynchronous compressors: it yields
 * a `StreamRequest` per stream and must be sent back the compressed length (0 when the stream
 * cannot be compressed), the compressed bytes being in `scratch` (which must have room for the
 * compressor's bound of `blocksize` bytes; `scratchSize` says how many it needs).
 */
export function* encodeFrame(
  src: Uint8Array,
  options: EncodeOptions,
  scratch: (blocksize: number) => Uint8Array,
  workspace: EncodeWorkspace = {},
): Generator<StreamRequest, Uint8Array, number> {
  const { cname, clevel } = options;
  const nbytes = src.length;
  if (nbytes > MAX_BUFFERSIZE)
    throw new RangeError(`Blosc cannot compress more than ${MAX_BUFFERSIZE} bytes (got ${nbytes})`);
  let shuffle = options.shuffle;
  if (shuffle === AUTOSHUFFLE) shuffle = options.typesize === 1 ? BITSHUFFLE : SHUFFLE;
  let typesize = Math.max(1, options.typesize | 0);
  if (typesize > MAX_TYPESIZE) typesize = 1;
  const blocksize = computeBlocksize(cname, clevel, typesize, nbytes, options.blocksize);
  const nblocks = Math.ceil(nbytes / blocksize);
  const leftover = nbytes % blocksize;

  let flags = CNAME_FORMAT[cname] << 5;
  if (shuffle === SHUFFLE) flags |= FLAG_SHUFFLE;
  if (shuffle === BITSHUFFLE) flags |= FLAG_BITSHUFFLE;
  const dontSplit = !splitBlock(cname, typesize, blocksize);
  if (dontSplit) flags |= FLAG_DONT_SPLIT;

  const maxbytes = nbytes + HEADER_SIZE;
  const header = (out: Uint8Array, f: number, total: number) => {
    out[0] = FORMAT_VERSION;
    out[1] = 1;
    out[2] = f;
    out[3] = typesize;
    writeU32(out, 4, nbytes);
    writeU32(out, 8, blocksize);
    writeU32(out, 12, total);
  };
  const stored = (): Uint8Array => {
    const out = new Uint8Array(maxbytes);
    header(out, flags | FLAG_MEMCPYED, maxbytes);
    out.set(src, HEADER_SIZE);
    return out;
  };
  if (clevel === 0 || nbytes < MIN_BUFFERSIZE) return stored();

  const out = workspace.output?.(maxbytes) ?? new Uint8Array(maxbytes);
  const doShuffle = shuffle === SHUFFLE && typesize > 1;
  const tmp = workspace.tmp?.(blocksize) ?? new Uint8Array(blocksize);
  const compressed = scratch(blocksize);
  const byteShuffle = workspace.shuffleBytes ?? shuffleBytes;
  const bitShuffle = workspace.shuffleBits ?? shuffleBits;
  let ntbytes = HEADER_SIZE + 4 * nblocks;
  for (let block = 0; block < nblocks; block++) {
    writeU32(out, HEADER_SIZE + 4 * block, ntbytes);
    const isLeftover = block === nblocks - 1 && leftover > 0;
    const bsize = isLeftover ? leftover : blocksize;
    const start = block * blocksize;
    let data = src;
    let offset = start;
    if (doShuffle) {
      byteShuffle(typesize, bsize, src, start, tmp, 0);
      data = tmp;
      offset = 0;
    } else if (shuffle === BITSHUFFLE && bsize >= typesize) {
      bitShuffle(typesize, bsize, src, start, tmp, 0);
      data = tmp;
      offset = 0;
    }
    const splits = !dontSplit && !isLeftover ? typesize : 1;
    const neblock = Math.floor(bsize / splits);
    for (let split = 0; split < splits; split++) {
      ntbytes += 4;
      if (ntbytes >= maxbytes) return stored();
      const at = offset + split * neblock;
      let length = yield { data, offset: at, length: neblock };
      if (length <= 0 || length >= neblock || ntbytes + length > maxbytes) {
        // Not compressible (or no room): store the stream raw, as c-blosc does.
        if (ntbytes + neblock > maxbytes) return stored();
        out.set(data.subarray(at, at + neblock), ntbytes);
        length = neblock;
      } else {
        out.set(compressed.subarray(0, length), ntbytes);
      }
      writeU32(out, ntbytes - 4, length);
      ntbytes += length;
    }
  }
  header(out, flags, ntbytes);
  return out.slice(0, ntbytes);
}
