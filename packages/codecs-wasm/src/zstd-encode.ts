/*
 * The zstd codec's encoder, a module of its own that `enableWasmEncoders` registers (a page that
 * only reads never loads it): Zstandard compression by libzstd compiled to WebAssembly, from the
 * `numcodecs` npm package (numcodecs.js), whose `numcodecs/zstd` module carries the WebAssembly
 * inlined as base64 (~240 kB min+gzip), so it loads in Node and in browsers with no bundler
 * configuration. It is imported on first use only. numcodecs.js treats levels <= 0 as 1 and levels
 * above 22 as 22, as numcodecs 0.11 does.
 */
import { xxh64 } from "./xxhash64.js";

interface ZstdInstance {
  encode(data: Uint8Array): Promise<Uint8Array>;
}
type ZstdConstructor = new (level?: number) => ZstdInstance;

let loading: Promise<ZstdConstructor> | undefined;

function load(): Promise<ZstdConstructor> {
  if (!loading) {
    loading = import("numcodecs/zstd").then((module) => (module as unknown as { default: ZstdConstructor }).default);
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}

/** Compresses `data` as one Zstandard frame (with its content size) at `level`. */
export async function zstdCompress(data: Uint8Array, level: number): Promise<Uint8Array> {
  const Zstd = await load();
  return new Zstd(level).encode(data);
}

/** numcodecs' Zstd of `bytes`: one frame with its content size, and with `checksum` a content checksum. */
export async function encodeZstd(bytes: Uint8Array, level: number, checksum: boolean): Promise<Uint8Array> {
  const frame = await zstdCompress(bytes, level);
  if (!checksum) return frame;
  // Set the frame header's Content_Checksum_flag and append the low 32 bits of XXH64(content).
  const out = new Uint8Array(frame.length + 4);
  out.set(frame);
  out[4] = out[4]! | 4;
  const [, low] = xxh64(bytes);
  new DataView(out.buffer).setUint32(frame.length, low, true);
  return out;
}
