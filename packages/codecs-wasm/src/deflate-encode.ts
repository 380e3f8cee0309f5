/*
 * zlib's and gzip's encoder in WebAssembly (wasm/deflate.c, in the encoders' module), a module of its
 * own that `enableWasmEncoders` registers, so a page that only reads never loads it. Where the
 * encoders are unavailable, @z/codecs' TypeScript encoders (fflate) write the same format.
 */
import type { ChunkContext } from "@z/codecs/define";
import {
  align16,
  deflateBound,
  releaseEncode,
  reserveEncode,
  withEncodeKernels,
  type EncodeKernels,
} from "./encode-kernels.js";

/** zlib's level for numcodecs' (-1 is zlib's default, 6). */
const effective = (level: number) => (level === -1 ? 6 : level);

/** The FLEVEL bits zlib writes in the header's second byte for a compression level. */
function zlibFlevel(level: number): number {
  if (level === -1) return 2;
  if (level <= 1) return 0;
  if (level <= 5) return 1;
  if (level === 6) return 2;
  return 3;
}

const ZLIB_HEADER = 2;
const GZIP_HEADER = 10;

/**
 * Compresses `bytes` as raw DEFLATE between a `header`-byte header and a `trailer`-byte trailer,
 * all in the encoders' memory; `finish` writes both (given the memory, where the output starts and
 * where the input is) and the result is copied out. Undefined if the memory cannot grow so far.
 */
function deflateIn(
  kernels: EncodeKernels,
  bytes: Uint8Array,
  level: number,
  header: number,
  trailer: number,
  finish: (memory: Uint8Array, out: number, rawLength: number, input: number) => void,
): Uint8Array | undefined {
  const n = bytes.length;
  const cap = deflateBound(n);
  const memory = reserveEncode(kernels, align16(n + 8) + header + cap + trailer);
  if (memory === undefined) return undefined;
  try {
    const input = kernels.heapBase;
    memory.set(bytes, input);
    const out = input + align16(n + 8);
    const raw = kernels.exports.deflate_raw(input, n, out + header, cap, effective(level));
    if (raw < 0) throw new Error(`deflate_raw: ${cap} bytes were not enough for ${n}`);
    finish(memory, out, raw, input);
    return memory.slice(out, out + header + raw + trailer);
  } finally {
    releaseEncode(kernels);
  }
}

function writeU32(memory: Uint8Array, at: number, value: number, littleEndian: boolean): void {
  for (let i = 0; i < 4; i++) memory[at + (littleEndian ? i : 3 - i)] = (value >>> (8 * i)) & 255;
}

/** A zlib stream (RFC 1950) of `bytes`, with the header bytes Python's `zlib.compress` writes. */
export function zlibEncode(kernels: EncodeKernels, bytes: Uint8Array, level: number): Uint8Array | undefined {
  return deflateIn(kernels, bytes, level, ZLIB_HEADER, 4, (memory, out, raw, input) => {
    const flg = zlibFlevel(level) << 6;
    memory[out] = 0x78;
    memory[out + 1] = flg | (31 - ((0x7800 | flg) % 31));
    writeU32(memory, out + ZLIB_HEADER + raw, kernels.exports.adler32(1, input, bytes.length) >>> 0, false);
  });
}

/**
 * A gzip member (RFC 1952) of `bytes` with the header @z/codecs' gzip writes: no name, mtime 0,
 * XFL as CPython sets it, OS 255.
 */
export function gzipEncode(kernels: EncodeKernels, bytes: Uint8Array, level: number): Uint8Array | undefined {
  return deflateIn(kernels, bytes, level, GZIP_HEADER, 8, (memory, out, raw, input) => {
    memory.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, level === 9 ? 2 : level === 1 ? 4 : 0, 255], out);
    const end = out + GZIP_HEADER + raw;
    writeU32(memory, end, kernels.exports.crc32(0, input, bytes.length) >>> 0, true);
    writeU32(memory, end + 4, bytes.length >>> 0, true);
  });
}

/** Runs `encode` with the encoders, loading them first if needed; `fallback` where they are unavailable. */
function withEncoders(
  encode: (kernels: EncodeKernels) => Uint8Array | undefined,
  fallback: () => Uint8Array | Promise<Uint8Array>,
): Uint8Array | Promise<Uint8Array> {
  return withEncodeKernels((kernels) => encode(kernels) ?? fallback(), fallback);
}

/**
 * A zlib stream or gzip member of `bytes` at `config.level`, as @z/codecs' `zlib` and `gzip` write
 * them (their TypeScript encoders do where WebAssembly is unavailable).
 */
export function encodeDeflate(
  format: "zlib" | "gzip",
  bytes: Uint8Array,
  config: { level: number },
  chunk: ChunkContext,
): Uint8Array | Promise<Uint8Array> {
  const fallback = async (): Promise<Uint8Array> => {
    const ts = format === "zlib" ? (await import("@z/codecs/zlib")).zlib : (await import("@z/codecs/gzip")).gzip;
    return ts.create(config).encode(bytes, chunk) as Uint8Array | Promise<Uint8Array>;
  };
  const encode = format === "zlib" ? zlibEncode : gzipEncode;
  return withEncoders((k) => encode(k, bytes, config.level), fallback);
}
