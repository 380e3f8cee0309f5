import { CNAME_FORMAT, FLAG_BITSHUFFLE, FLAG_MEMCPYED, FLAG_SHUFFLE, HEADER_SIZE, type FrameWorkspace, type StreamDecoders } from "./blosc-frame.js";
import { streamDecoders } from "./blosc-streams.js";
import { MalformedInput } from "./errors.js";
import type { Kernels } from "./kernels.js";
import { lz4Problem } from "./lz4-block.js";

/**
 * Compressed frames gain from the WebAssembly kernels (LZ4 streams, byte and bit unshuffle);
 * stored ones are copied in TypeScript. `data` starts with the frame's header.
 */
export function worthKernels(data: Uint8Array): boolean {
  if (data.length < HEADER_SIZE || (data[2]! & FLAG_MEMCPYED) !== 0) return false;
  return data[2]! >>> 5 === CNAME_FORMAT.lz4 || (data[2]! & (FLAG_SHUFFLE | FLAG_BITSHUFFLE)) !== 0;
}

/**
 * The stream decoders and unshuffles that run in the kernels. Every buffer handed to them must
 * be a view of the kernels' memory (they pass `byteOffset`s to WebAssembly).
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
    },
    workspace: {
      unshuffleBytes: (typesize, size, src, s, dst, d) => unshuffle(typesize, size, src.byteOffset + s, dst.byteOffset + d),
      unshuffleBits: (typesize, size, src, s, dst, d) => bitunshuffle(typesize, size, src.byteOffset + s, dst.byteOffset + d),
    },
  };
}
