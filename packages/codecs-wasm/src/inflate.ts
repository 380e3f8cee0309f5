/*
 * zlib and gzip decoding with the WebAssembly inflater (wasm/inflate.c), for deflate.ts' codecs.
 * @z/codecs' TypeScript decoders (fflate) stay the fallback and the voice of errors:
 *
 * - the inflater accepts what CPython's zlib accepts for numcodecs' Zlib and GZip, decodes it to the
 *   same bytes, and checks the Adler-32, or each gzip member's CRC-32 and length;
 * - a stream it refuses is decoded again by the TypeScript decoder, which throws its usual error
 *   (the same CodecError as without WebAssembly). Should that decoder accept it (fflate is more
 *   lenient than zlib with malformed Huffman codes), the chunk is refused all the same, with the
 *   inflater's finding: no data that zlib would refuse is returned.
 */
import { maxDecodedSize, type ChunkContext, type Codec } from "@z/codecs/define";
import { corruptData } from "./errors.js";
import { releaseInflate, reserveInflate, withInflate, type InflateKernels } from "./inflate-kernels.js";

export type DeflateFormat = "zlib" | "gzip";

/** What each failure code of `inflate_zlib` and `inflate_gzip` (wasm/inflate.c) means. */
const PROBLEMS: Readonly<Record<number, string>> = {
  [-1]: "unexpected end of data",
  [-2]: "decodes to more bytes than the output can hold",
  [-3]: "invalid block type",
  [-4]: "invalid stored block lengths",
  [-5]: "too many length or distance symbols",
  [-6]: "invalid code lengths set",
  [-7]: "invalid bit length repeat",
  [-8]: "invalid code -- missing end-of-block",
  [-9]: "invalid literal/lengths set",
  [-10]: "invalid distances set",
  [-11]: "invalid literal/length code",
  [-12]: "invalid distance code",
  [-13]: "invalid distance too far back",
  [-14]: "invalid header (not zlib data)",
  [-15]: "the stream needs a preset dictionary",
  [-16]: "Adler-32 checksum mismatch",
  [-17]: "not gzip data (bad magic bytes)",
  [-18]: "unknown compression method",
  [-19]: "CRC-32 checksum mismatch",
  [-20]: "length mismatch",
  [-21]: "unexpected bytes after the end of the data",
};

/** The inflater reports this when the output does not fit in the room given. */
const OUTPUT_FULL = -2;

/** The message for a negative result of the inflater. */
export function inflateProblem(code: number): string {
  return PROBLEMS[code] ?? `failure ${code}`;
}

/** The TypeScript codec (@z/codecs' zlib or gzip, which have `decodeInto`) that decodes where the inflater does not. */
type Fallback = Pick<Codec, "decode" | "decodeInto">;

/** The TypeScript codec, made when first needed (so its module loads only then). */
export type FallbackSource = () => Fallback | Promise<Fallback>;

/** `use(value)`, at once for a value, once it is there for a promise. */
const then = <T, R>(value: T | Promise<T>, use: (value: T) => R | Promise<R>): R | Promise<R> =>
  value instanceof Promise ? value.then(use) : use(value);

/** Room the first `decode` try gives a chunk whose size is unknown; it grows 4× while too small. */
const FIRST_GUESS = 1 << 20;
/** Chunks up to this size get their full size at the first try (untouched memory costs little). */
const FULL_FIRST = 64 << 20;
/** The inflater returns lengths as a signed 32-bit integer. */
const MAX_MEMORY = 2 ** 31 - 1;

/**
 * Decodes `data` in the inflater's memory into at most `capacity` bytes and hands the result (a
 * view of that memory, valid only during the call) to `take`. Returns the decoded length or a
 * negative failure code; `undefined` when the memory cannot grow so far.
 */
function inflateIn(
  kernels: InflateKernels,
  format: DeflateFormat,
  data: Uint8Array,
  capacity: number,
  take: (decoded: Uint8Array) => void,
): number | undefined {
  const input = kernels.heapBase;
  const output = input + Math.ceil(data.length / 16) * 16;
  if (output + capacity > MAX_MEMORY) return undefined;
  const memory = reserveInflate(kernels, output - input + capacity);
  if (memory === undefined) return undefined;
  try {
    memory.set(data, input);
    const inflate = format === "zlib" ? kernels.exports.inflate_zlib : kernels.exports.inflate_gzip;
    const r = inflate(input, data.length, output, capacity);
    if (r >= 0) take(memory.subarray(output, output + r));
    return r;
  } finally {
    releaseInflate(kernels);
  }
}

/** `decode` of a zlib or gzip codec: the bytes `data` decodes to (a new buffer). */
export function inflateDecode(
  format: DeflateFormat,
  data: Uint8Array,
  chunk: ChunkContext,
  ts: FallbackSource,
): Uint8Array | Promise<Uint8Array> {
  const fallback = () => then(ts(), (codec) => codec.decode(data, chunk) as Uint8Array | Promise<Uint8Array>);
  return withInflate((kernels) => {
    const limit = maxDecodedSize(chunk);
    let capacity = firstCapacity(format, data, limit);
    for (;;) {
      let decoded: Uint8Array | undefined;
      const r = inflateIn(kernels, format, data, capacity, (bytes) => (decoded = bytes.slice()));
      if (r === undefined) return fallback();
      if (decoded !== undefined) return decoded;
      if (r !== OUTPUT_FULL || capacity >= limit) return refused(format, r, chunk, fallback);
      capacity = Math.min(limit, Math.max(4 * capacity, FIRST_GUESS));
    }
  }, fallback);
}

/** `decodeInto` of a zlib or gzip codec: decodes `data` into `out` and returns how many bytes it wrote. */
export function inflateDecodeInto(
  format: DeflateFormat,
  data: Uint8Array,
  out: Uint8Array,
  chunk: ChunkContext,
  ts: FallbackSource,
): number | Promise<number> {
  const fallback = () => then(ts(), (codec) => codec.decodeInto!(data, out, chunk));
  return withInflate((kernels) => {
    const r = inflateIn(kernels, format, data, out.length, (bytes) => out.set(bytes));
    if (r === undefined) return fallback();
    return r >= 0 ? r : refused(format, r, chunk, fallback);
  }, fallback);
}

/**
 * The room `decode` tries first: a gzip trailer's length (a single member's, as numcodecs writes
 * them), else the chunk's size (what a chunk decodes to) unless huge, else a guess from the input.
 */
function firstCapacity(format: DeflateFormat, data: Uint8Array, limit: number): number {
  const n = data.length;
  if (format === "gzip" && n >= 18) {
    const stated = (data[n - 4]! | (data[n - 3]! << 8) | (data[n - 2]! << 16) | (data[n - 1]! << 24)) >>> 0;
    if (stated <= limit) return stated;
  }
  return Math.min(limit, Math.max(limit <= FULL_FIRST ? limit : 0, 4 * n, FIRST_GUESS));
}

/**
 * For a stream the inflater refused (failure `code`): the TypeScript decoder's error, by running
 * it; if it decodes the stream instead, a CodecError with the inflater's finding.
 */
function refused<T>(
  format: DeflateFormat,
  code: number,
  chunk: ChunkContext,
  fallback: () => T | Promise<T>,
): T | Promise<T> {
  const refuse = (): never => {
    throw corruptData(
      format,
      chunk,
      `${inflateProblem(code)} (found by the WebAssembly inflater, which follows zlib; the more lenient TypeScript decoder took the data)`,
    );
  };
  const result = fallback();
  return result instanceof Promise ? result.then(refuse) : refuse();
}
