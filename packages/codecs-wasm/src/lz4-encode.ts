/*
 * The lz4 codec's encoder, a module of its own that `enableWasmEncoders` registers (a page that
 * only reads never loads it): LZ4_compress_fast in the WebAssembly encoders, or in TypeScript.
 */
import {
  align16,
  encodeKernelsUnavailable,
  loadEncodeKernels,
  readyEncodeKernels,
  releaseEncode,
  reserveEncode,
  type EncodeKernels,
} from "./encode-kernels.js";
import { lz4Bound } from "./lz4-block.js";
import { lz4EncodeBlock } from "./lz4-block-encode.js";

/** numcodecs' LZ4 of `bytes`: their size (4 bytes, little-endian), then one LZ4 block. */
export function encodeLz4(bytes: Uint8Array, acceleration: number): Uint8Array | Promise<Uint8Array> {
  const encoders = readyEncodeKernels();
  if (encoders !== undefined) return encodeLz4InWasm(encoders, bytes, acceleration) ?? encodeLz4Ts(bytes, acceleration);
  if (encodeKernelsUnavailable() || bytes.length < 4096) return encodeLz4Ts(bytes, acceleration);
  return loadEncodeKernels().then(
    (loaded) => (loaded && encodeLz4InWasm(loaded, bytes, acceleration)) ?? encodeLz4Ts(bytes, acceleration),
  );
}

function encodeLz4Ts(bytes: Uint8Array, acceleration: number): Uint8Array {
  const out = new Uint8Array(4 + lz4Bound(bytes.length));
  new DataView(out.buffer).setUint32(0, bytes.length, true);
  const end = lz4EncodeBlock(bytes, 0, bytes.length, out, 4, acceleration <= 0 ? 1 : acceleration);
  return out.slice(0, end);
}

/** `encodeLz4Ts` in the WebAssembly encoders (the same bytes); undefined if their memory cannot grow so far. */
function encodeLz4InWasm(kernels: EncodeKernels, bytes: Uint8Array, acceleration: number): Uint8Array | undefined {
  const inAt = kernels.heapBase;
  const outAt = inAt + align16(bytes.length + 8);
  const memory = reserveEncode(kernels, outAt - inAt + 4 + lz4Bound(bytes.length));
  if (memory === undefined) return undefined;
  try {
    memory.set(bytes, inAt);
    const n = kernels.exports.lz4_encode(inAt, bytes.length, outAt + 4, acceleration <= 0 ? 1 : acceleration);
    const out = memory.slice(outAt, outAt + 4 + n);
    new DataView(out.buffer).setUint32(0, bytes.length, true);
    return out;
  } finally {
    releaseEncode(kernels);
  }
}
