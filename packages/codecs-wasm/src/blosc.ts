import {
  CodecError,
  decodedTooLarge,
  defineCodec,
  inChunk,
  integer,
  maxDecodedSize,
  nullable,
  optional,
  requireBytes,
  string,
  withEncoder,
  type ChunkContext,
} from "@z/codecs/define";
import { type BloscCname, CNAMES, decodeFrame, HEADER_SIZE, readHeader, type FrameWorkspace } from "./blosc-frame.js";
import type { encodeBlosc } from "./blosc-encode.js";
import {
  kernelsUnavailable,
  loadKernels,
  readyKernels,
  release,
  reserve,
  ZSTD_READ_SLACK,
  type Kernels,
} from "./kernels.js";
import { kernelDecoders, worthKernels, zstdFrame } from "./blosc-kernels.js";
import { decodeBloscRange } from "./blosc-range.js";
import { loadStreamDecoder, streamDecoders } from "./blosc-streams.js";
import { corruptData, MalformedInput } from "./errors.js";

/**
 * numcodecs `Blosc(cname="lz4", clevel=5, shuffle=SHUFFLE, blocksize=0)`:
 * `{"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0}`. `shuffle` is 0 (none),
 * 1 (byte), 2 (bit) or -1 (numcodecs' AUTOSHUFFLE: bit shuffle for 1-byte items, else byte
 * shuffle, decided per encode and stored as -1); `blocksize` 0 is automatic.
 *
 * `typesize` (the `Blosc(typesize=...)` of numcodecs 0.16 and later; numcodecs 0.16.0 wrote it into `.zarray`,
 * `null` when not given, and later releases read it but no longer write it) is the item size
 * encoding shuffles by and hands c-blosc in place of the array's; `null` or left out means the
 * array's. Above 255 c-blosc takes 1, as it does for an item size that large. Decoding never
 * needs it (the frame header holds the type size). It is written back only when the config has it.
 */
export const bloscConfig = {
  cname: string<BloscCname>({ enum: CNAMES, default: "lz4" }),
  clevel: integer({ min: 0, max: 9, default: 5 }),
  shuffle: integer({ min: -1, max: 2, default: 1 }),
  blocksize: integer({ min: 0, default: 0 }),
  typesize: optional(nullable(integer({ min: 1 }))),
};

/**
 * numcodecs `Blosc`: Blosc 1 frames as c-blosc 1.21 writes and reads them. Encoding shuffles by the
 * array's item size (`chunk.itemsize`, as numcodecs passes the chunk's itemsize to c-blosc) and
 * picks the block size, block split and flags exactly as c-blosc does; the compressed streams are
 * this package's (LZ4, LZ4HC-style, BloscLZ, Snappy, zlib via fflate, Zstd via libzstd in
 * WebAssembly). Decoding reads every frame c-blosc 1.x writes. `decodeRange` decodes only the
 * blocks holding a byte range, reading only their bytes (zarr-python's `partial_decompress`), and
 * `decodeInto` decodes into the caller's buffer.
 */
export const blosc = defineCodec({
  id: "blosc",
  config: bloscConfig,
  create: (config) => {
    // A codec made is about to decode: the kernels (the full ones for Zstd streams) compile
    // meanwhile, so the first chunk need not wait.
    void loadKernels(config.cname === "zstd");
    return {
      encode: (data, chunk) => {
        const bytes = requireBytes(data, "blosc", chunk);
        return withEncoder("blosc", "blosc", chunk, (m: { encodeBlosc: typeof encodeBlosc }) =>
          m.encodeBlosc(bytes, config, chunk),
        );
      },
      decode: (data, chunk) => decodeBlosc(requireBytes(data, "blosc", chunk), chunk),
      decodeRange: decodeBloscRange,
      decodeInto: decodeBloscInto,
    };
  },
});

function decodeBlosc(data: Uint8Array, chunk: ChunkContext, into?: Uint8Array): Uint8Array | Promise<Uint8Array> {
  // A zlib or Zstd frame's TypeScript stream decoder loads when a frame first needs it.
  const loading = loadStreamDecoder(data);
  if (loading !== undefined) return loading.then(() => decodeBlosc(data, chunk, into));
  const zstd = zstdFrame(data);
  const kernels = readyKernels(zstd);
  if (kernels !== undefined || kernelsUnavailable(zstd) || !worthKernels(data))
    return decodeWith(kernels, data, chunk, into);
  return loadKernels(zstd).then((loaded) => decodeWith(loaded, data, chunk, into));
}

/** `Codec.decodeInto`: decodes into `out` from its start, copying straight out of the kernels' memory. */
function decodeBloscInto(data: Uint8Array, out: Uint8Array, chunk: ChunkContext): number | Promise<number> {
  if (data.length >= HEADER_SIZE) {
    const { nbytes } = readHeader(data);
    if (nbytes > out.length && nbytes <= maxDecodedSize(chunk)) {
      throw new CodecError(
        `blosc data${inChunk(chunk.key)} decodes to ${nbytes} bytes, more than the ${out.length} of the buffer given`,
        {
          codecId: "blosc",
          key: chunk.key,
        },
      );
    }
  }
  const decoded = decodeBlosc(data, chunk, out);
  return decoded instanceof Promise ? decoded.then((d) => d.length) : decoded.length;
}

const align = (n: number) => Math.ceil(n / 16) * 16;

/** Frames decoded whole by the kernels' `blosc_decode` (for tests: the fast path is taken). */
let wholeFrames = 0;
export const wholeFramesDecoded = (): number => wholeFrames;
let wholeFramesOn = true;
/** For tests: decode block by block (as before `blosc_decode`) or whole frames. */
export const setWholeFrameDecoding = (on: boolean): void => {
  wholeFramesOn = on;
};

/** Decodes a whole frame: into `into` (from its start, returning that part of it) when given, else into new memory. */
function decodeWith(
  kernels: Kernels | undefined,
  data: Uint8Array,
  chunk: ChunkContext,
  into?: Uint8Array,
): Uint8Array {
  const limit = maxDecodedSize(chunk);
  const tooLarge = () => decodedTooLarge("blosc", chunk, limit);
  // Decoding in TypeScript writes straight into the caller's buffer.
  const direct = (): FrameWorkspace =>
    into === undefined
      ? {}
      : { buffers: (nbytes, blocksize) => ({ out: into.subarray(0, nbytes), tmp: new Uint8Array(blocksize) }) };
  try {
    if (kernels === undefined || !worthKernels(data))
      return decodeFrame(data, streamDecoders, limit, tooLarge, direct());
    const { nbytes, blocksize } = readHeader(data);
    if (nbytes > limit) throw tooLarge();
    if (blocksize > nbytes || nbytes === 0) return decodeFrame(data, streamDecoders, limit, tooLarge, direct());
    // Lay out input, output and scratch in the kernels' memory and decode there.
    let memory: Uint8Array;
    try {
      memory = reserve(kernels, align(data.length) + align(nbytes) + align(blocksize) + ZSTD_READ_SLACK);
    } catch {
      // The memory cannot grow that far (a 32-bit address space): decode in TypeScript.
      return decodeFrame(data, streamDecoders, limit, tooLarge, direct());
    }
    try {
      const base = kernels.heapBase;
      const outAt = base + align(data.length);
      const tmpAt = outAt + align(nbytes);
      memory.set(data, base);
      // The whole frame in one call; anything it does not decode (other compressors, malformed
      // frames) goes the block-by-block way below, which says what is wrong.
      const n = wholeFramesOn ? kernels.exports.blosc_decode(base, data.length, outAt, nbytes, tmpAt) : -1;
      if (n >= 0) {
        wholeFrames++;
        if (into === undefined) return memory.slice(outAt, outAt + n);
        into.set(memory.subarray(outAt, outAt + n));
        return into.subarray(0, n);
      }
      const input = memory.subarray(base, base + data.length);
      const out = memory.subarray(outAt, outAt + nbytes);
      const tmp = memory.subarray(tmpAt, tmpAt + blocksize);
      const { decoders, workspace } = kernelDecoders(kernels);
      const decoded = decodeFrame(input, decoders, limit, tooLarge, { ...workspace, buffers: () => ({ out, tmp }) });
      if (into === undefined) return decoded.slice();
      into.set(decoded);
      return into.subarray(0, decoded.length);
    } finally {
      release(kernels);
    }
  } catch (error) {
    if (error instanceof MalformedInput) throw corruptData("blosc", chunk, error.message, error);
    throw error;
  }
}
