/*
 * The TypeScript decoders of the streams inside Blosc frames. BloscLZ's, LZ4's and Snappy's are
 * small and always here; zlib's (@z/codecs' zlib) and Zstd's (zstd-decode.ts, and what the kernels'
 * Zstd decoding needs, zstd-wasm.ts) load when a frame first needs them (`loadStreamDecoder`), so
 * reading lz4 frames loads none of them.
 */
import { CNAME_FORMAT, HEADER_SIZE, type StreamDecoder, type StreamDecoders } from "./blosc-frame.js";
import { blosclzDecode } from "./blosclz.js";
import { MalformedInput, OutputTooLarge } from "./errors.js";
import { lz4DecodeBlock, lz4Problem } from "./lz4-block.js";
import { snappyDecode } from "./snappy.js";

const wrongSize = (name: string, got: number, n: number): never => {
  throw new MalformedInput(`${name} stream decodes to ${got} bytes, expected ${n}`);
};

let zlibStream: StreamDecoder | undefined;
let zstdStream: StreamDecoder | undefined;
let zstdWasm: typeof import("./zstd-wasm.js") | undefined;

/** What the full kernels' Zstd decoding needs (zstd-wasm.ts), once `loadStreamDecoder` loaded it for a Zstd frame. */
export const zstdKernel = (): typeof import("./zstd-wasm.js") | undefined => zstdWasm;

const notLoaded = (name: string): never => {
  throw new Error(`the ${name} stream decoder is used before loadStreamDecoder loaded it`);
};

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
  zlib: (...args) => (zlibStream ?? notLoaded("zlib"))(...args),
  zstd: (...args) => (zstdStream ?? notLoaded("Zstd"))(...args),
};

const BYTE = { kind: "u", byteOrder: "|", itemsize: 1 } as const;

/**
 * Loads the TypeScript decoder the streams of the frame `data` (from its header on) need, when it
 * is not loaded yet: a promise to wait for before decoding, or undefined when nothing is missing.
 */
export function loadStreamDecoder(data: Uint8Array): Promise<void> | undefined {
  if (data.length < HEADER_SIZE) return undefined;
  const format = data[2]! >>> 5;
  if (format === CNAME_FORMAT.zlib && zlibStream === undefined) {
    return import("@z/codecs/zlib").then(({ zlib }) => {
      const codec = zlib.create();
      zlibStream ??= (src, start, end, dst, d, n) => {
        let out: Uint8Array;
        try {
          out = codec.decode(src.subarray(start, end), { dtype: BYTE, itemsize: 1, elements: n }) as Uint8Array;
        } catch (error) {
          throw new MalformedInput(`invalid zlib stream (${error instanceof Error ? error.message : String(error)})`);
        }
        if (out.length !== n) wrongSize("zlib", out.length, n);
        dst.set(out, d);
      };
    });
  }
  if (format === CNAME_FORMAT.zstd && (zstdStream === undefined || zstdWasm === undefined)) {
    return Promise.all([import("./zstd-decode.js"), import("./zstd-wasm.js")]).then(([{ zstdDecode }, wasm]) => {
      zstdWasm = wasm;
      zstdStream ??= (src, start, end, dst, d, n) => {
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
      };
    });
  }
  return undefined;
}
