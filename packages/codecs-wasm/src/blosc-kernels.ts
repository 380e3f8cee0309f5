import {
  CNAME_FORMAT,
  FLAG_BITSHUFFLE,
  FLAG_MEMCPYED,
  FLAG_SHUFFLE,
  HEADER_SIZE,
  type FrameWorkspace,
  type StreamDecoders,
} from "./blosc-frame.js";
import { streamDecoders, zstdKernel } from "./blosc-streams.js";
import { MalformedInput } from "./errors.js";
import { decodesZstd, type Kernels } from "./kernels.js";
import { lz4Problem } from "./lz4-block.js";

/**
 * Compressed frames gain from the WebAssembly kernels (LZ4 and Zstd streams, byte and bit
 * unshuffle); stored ones are copied in TypeScript. `data` starts with the frame's header.
 */
export function worthKernels(data: Uint8Array): boolean {
  if (data.length < HEADER_SIZE || (data[2]! & FLAG_MEMCPYED) !== 0) return false;
  const format = data[2]! >>> 5;
  return (
    format === CNAME_FORMAT.lz4 || format === CNAME_FORMAT.zstd || (data[2]! & (FLAG_SHUFFLE | FLAG_BITSHUFFLE)) !== 0
  );
}

/** Whether the frame `data` (from its header on) holds Zstd streams: the full kernels decode those (see kernels.ts). */
export function zstdFrame(data: Uint8Array): boolean {
  return data.length >= HEADER_SIZE && data[2]! >>> 5 === CNAME_FORMAT.zstd;
}

/**
 * The stream decoders and unshuffles that run in the kernels. Every buffer handed to them must
 * be a view of the kernels' memory (they pass `byteOffset`s to WebAssembly), with
 * `ZSTD_READ_SLACK` readable bytes after the input.
 */
export function kernelDecoders(kernels: Kernels): { decoders: StreamDecoders; workspace: FrameWorkspace } {
  // Made once per instance: a chunk's decode should not build them again.
  let made = madeFor.get(kernels);
  if (made === undefined) madeFor.set(kernels, (made = makeDecoders(kernels)));
  return made;
}

const madeFor = new WeakMap<Kernels, { decoders: StreamDecoders; workspace: FrameWorkspace }>();

function makeDecoders(kernels: Kernels): { decoders: StreamDecoders; workspace: FrameWorkspace } {
  const { lz4_decode, unshuffle, bitunshuffle } = kernels.exports;
  return {
    decoders: {
      ...streamDecoders,
      lz4(src, start, end, dst, d, n) {
        const r = lz4_decode(src.byteOffset + start, end - start, dst.byteOffset + d, n);
        if (r < 0) throw new MalformedInput(lz4Problem(r));
        if (r !== n) throw new MalformedInput(`LZ4 stream decodes to ${r} bytes, expected ${n}`);
      },
      // The LZ4 kernels have no Zstd decoder (Zstd frames go to the full ones; this is a safeguard).
      zstd: !decodesZstd(kernels)
        ? streamDecoders.zstd
        : (src, start, end, dst, d, n) => {
            // Loaded with the frame's TypeScript Zstd decoder (`loadStreamDecoder`).
            const { zstdDecodeIn, NO_CONTENT_SIZE, OUTPUT_TOO_LONG, zstdProblem } = zstdKernel()!;
            const r = zstdDecodeIn(kernels, src, start, end, dst, d, n);
            // c-blosc's Zstd streams declare their size; any other goes to the TypeScript decoder.
            if (r === NO_CONTENT_SIZE) return streamDecoders.zstd(src, start, end, dst, d, n);
            if (r < 0)
              throw new MalformedInput(
                `invalid Zstd stream (${r === OUTPUT_TOO_LONG ? `decodes to more than ${n} bytes` : zstdProblem(r)})`,
              );
            if (r !== n) throw new MalformedInput(`Zstd stream decodes to ${r} bytes, expected ${n}`);
          },
    },
    workspace: {
      unshuffleBytes: (typesize, size, src, s, dst, d) =>
        unshuffle(typesize, size, src.byteOffset + s, dst.byteOffset + d),
      unshuffleBits: (typesize, size, src, s, dst, d) =>
        bitunshuffle(typesize, size, src.byteOffset + s, dst.byteOffset + d),
    },
  };
}
