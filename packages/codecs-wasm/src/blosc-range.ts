/*
 * Decoding part of a Blosc frame (numcodecs' `Blosc.decode_partial`, zarr-python's
 * `partial_decompress`): the header and the table of block starts are read first, then only the
 * bytes of the blocks that hold the wanted range, which are decoded alone. Every kind of frame
 * c-blosc 1.x writes is read this way: stored ("memcpyed"), split or not, byte or bit shuffled,
 * every compressor; blocks may lie in the frame in any order (c-blosc's threads write them as they
 * finish).
 */
import {
  decodedTooLarge,
  maxDecodedSize,
  type ChunkContext,
  type DecodedRange,
  type StoredRangeReader,
} from "@z/codecs/define";
import {
  blockBytes,
  blockStart,
  checkHeader,
  decodeBlock,
  FLAG_MEMCPYED,
  frameBlocks,
  HEADER_SIZE,
  readHeader,
  type BloscHeader,
  type FrameBlocks,
} from "./blosc-frame.js";
import { kernelsUnavailable, loadKernels, readyKernels, release, reserve, type Kernels } from "./kernels.js";
import { kernelDecoders, worthKernels, zstdFrame } from "./blosc-kernels.js";
import { loadStreamDecoder, streamDecoders } from "./blosc-streams.js";
import { corruptData, MalformedInput } from "./errors.js";

/**
 * What is read first: the header and, for frames of up to 1,020 blocks (a 4 MiB chunk has 8 to
 * 256), the whole table of block starts, in one read.
 */
const FIRST_READ = 4096;
/** A stream's length field. */
const LENGTH_BYTES = 4;
/** Blocks are cut into at most this many streams. */
const MAX_SPLITS = 16;

/** `Codec.decodeRange` for blosc: bytes `start` to `end` of the decoded chunk. */
export async function decodeBloscRange(
  read: StoredRangeReader,
  start: number,
  end: number,
  chunk: ChunkContext,
): Promise<DecodedRange | undefined> {
  const limit = maxDecodedSize(chunk);
  const tooLarge = () => decodedTooLarge("blosc", chunk, limit);
  try {
    const head = await read(0, FIRST_READ);
    if (head === undefined) return undefined;
    const h = readHeader(head);
    await loadStreamDecoder(head);
    if (!checkHeader(h, limit, tooLarge, Infinity)) return { bytes: new Uint8Array(0), decodedSize: 0 };
    const to = Math.min(end, h.nbytes);
    const from = Math.min(start, to);
    const part = new Part(read, head, h.cbytes);
    if (h.flags & FLAG_MEMCPYED)
      return { bytes: await part.bytes(HEADER_SIZE + from, to - from), decodedSize: h.nbytes };
    if (from === to) return { bytes: new Uint8Array(0), decodedSize: h.nbytes };
    const zstd = zstdFrame(head);
    let kernels = readyKernels(zstd);
    if (kernels === undefined && !kernelsUnavailable(zstd) && worthKernels(head)) kernels = await loadKernels(zstd);
    return { bytes: await decodeBlocks(part, h, from, to, kernels), decodedSize: h.nbytes };
  } catch (error) {
    if (error instanceof MalformedInput) throw corruptData("blosc", chunk, error.message, error);
    throw error;
  }
}

/** The parts of a stored frame, read through `read` unless the first read already holds them. */
class Part {
  constructor(
    private readonly read: StoredRangeReader,
    private readonly head: Uint8Array,
    private readonly cbytes: number,
  ) {}

  /** Frame bytes `[offset, offset + length)`, which the header says the frame has. */
  async bytes(offset: number, length: number): Promise<Uint8Array> {
    if (offset + length <= this.head.length) return this.head.subarray(offset, offset + length);
    const bytes = await this.read(offset, length);
    if (bytes === undefined) throw new MalformedInput("the stored chunk disappeared while it was being read");
    if (bytes.length < length) {
      throw new MalformedInput(
        `the header says the frame has ${this.cbytes} bytes but it ends at byte ${offset + bytes.length} (truncated)`,
      );
    }
    return bytes.length === length ? bytes : bytes.subarray(0, length);
  }
}

/** Decodes the blocks holding decoded bytes `[from, to)` and returns those bytes. */
async function decodeBlocks(
  part: Part,
  h: BloscHeader,
  from: number,
  to: number,
  kernels: Kernels | undefined,
): Promise<Uint8Array> {
  const { blocksize, cbytes } = h;
  const outline = frameBlocks(h, streamDecoders);
  const { nblocks, firstStream } = outline;
  const table = await part.bytes(0, firstStream);
  const starts = new Float64Array(nblocks);
  for (let block = 0; block < nblocks; block++) {
    const at = blockStart(table, block);
    if (at < firstStream || at > cbytes - LENGTH_BYTES)
      throw new MalformedInput(`stream 0 of block ${block} starts at ${at}, outside the frame`);
    starts[block] = at;
  }
  const sorted = starts.slice().sort();
  const first = Math.floor(from / blocksize);
  const last = Math.floor((to - 1) / blocksize);
  // A block's streams end where the next block (in the frame) starts; never further than its
  // bytes stored raw, so a hostile table cannot make us read more than the blocks can hold.
  let lo = Infinity;
  let hi = 0;
  for (let block = first; block <= last; block++) {
    const at = starts[block]!;
    const next = nextAbove(sorted, at) ?? cbytes;
    const bound = at + blockBytes(outline, block) + LENGTH_BYTES * MAX_SPLITS;
    lo = Math.min(lo, at);
    hi = Math.max(hi, Math.min(next, bound, cbytes));
  }
  const src = await part.bytes(lo, hi - lo);
  const size = (last - first) * blocksize + blockBytes(outline, last);
  const want = (out: Uint8Array) => out.slice(from - first * blocksize, to - first * blocksize);
  if (kernels === undefined || !worthKernels(table)) {
    const blocks = frameBlocks(h, streamDecoders);
    const out = new Uint8Array(size);
    const tmp = blocks.shuffled ? new Uint8Array(blocksize) : undefined;
    run(blocks, src, lo, starts, first, last, out, tmp);
    return want(out);
  }
  const align = (n: number) => Math.ceil(n / 16) * 16;
  let memory: Uint8Array;
  try {
    memory = reserve(kernels, align(src.length) + align(size) + align(blocksize));
  } catch {
    // The memory cannot grow that far (a 32-bit address space): decode in TypeScript.
    return decodeBlocks(part, h, from, to, undefined);
  }
  try {
    const base = kernels.heapBase;
    const input = memory.subarray(base, base + src.length);
    input.set(src);
    const outAt = base + align(src.length);
    const out = memory.subarray(outAt, outAt + size);
    const tmp = memory.subarray(outAt + align(size), outAt + align(size) + blocksize);
    const { decoders, workspace } = kernelDecoders(kernels);
    run(frameBlocks(h, decoders, workspace), input, lo, starts, first, last, out, tmp);
    return want(out);
  } finally {
    release(kernels);
  }
}

function run(
  blocks: FrameBlocks,
  src: Uint8Array,
  base: number,
  starts: Float64Array,
  first: number,
  last: number,
  out: Uint8Array,
  tmp: Uint8Array | undefined,
): void {
  let budget = src.length;
  const blocksize = blocks.header.blocksize;
  for (let block = first; block <= last; block++) {
    budget = decodeBlock(blocks, src, base, block, starts[block]!, out, (block - first) * blocksize, tmp, budget);
  }
}

/** The smallest value in `sorted` greater than `value`, if any. */
function nextAbove(sorted: Float64Array, value: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? sorted[lo] : undefined;
}
