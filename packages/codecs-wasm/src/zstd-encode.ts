/*
 * Zstandard compression: libzstd compiled to WebAssembly, from the `numcodecs` npm package
 * (numcodecs.js), whose `numcodecs/zstd` module carries the WebAssembly inlined as base64, so it
 * loads in Node and in browsers with no bundler configuration. It is imported on first use only.
 * numcodecs.js treats levels <= 0 as 1 and levels above 22 as 22, as numcodecs 0.11 does.
 */

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
