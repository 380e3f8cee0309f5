/*
 * The WebAssembly inflater (wasm/inflate.c and wasm/checksum.c: DEFLATE decoding in zlib and gzip
 * wrappers), instantiated on first use. A module of its own, apart from the Blosc kernels
 * (kernels.ts) and the encoders (encode-kernels.ts), so reading zlib or gzip chunks loads only it.
 * Where WebAssembly (or its SIMD) is unavailable, or the module fails to load, callers use the
 * TypeScript decoders.
 *
 * One instance serves every decode; a decode lays out its input and output at the heap base and
 * finishes synchronously, so decodes never overlap in memory.
 */
import { LazyWasm, type Instance, type ModuleExports } from "./lazy-wasm.js";

interface InflateExports extends ModuleExports {
  /** The zlib stream of src[0, n) into dst[0, cap): the decoded length, or a negative failure code. */
  inflate_zlib(src: number, n: number, dst: number, cap: number): number;
  /** The gzip members of src[0, n) into dst[0, cap): the decoded length, or a negative failure code. */
  inflate_gzip(src: number, n: number, dst: number, cap: number): number;
  crc32(crc: number, src: number, n: number): number;
  adler32(adler: number, src: number, n: number): number;
}

/** An instance of the inflater and its linear memory. */
export type InflateKernels = Instance<InflateExports>;

// The module's base64 is a chunk of its own, loaded with the first zlib or gzip decode.
const module = new LazyWasm<InflateExports>(
  async () => (await import("./inflate-wasm.js")).INFLATE_WASM_BASE64,
  256 << 20,
);

/** `run` with the inflater, loading it first if needed; `fallback` where it is unavailable. */
export const withInflate = <T>(
  run: (kernels: InflateKernels) => T | Promise<T>,
  fallback: () => T | Promise<T>,
): T | Promise<T> => module.use(run, fallback);

/** Instantiates the inflater (once); resolves to `undefined` where WebAssembly SIMD is unavailable. */
export const loadInflate = (): Promise<InflateKernels | undefined> => module.load();

/**
 * Makes the inflater's memory hold at least `bytes` past the heap base and returns a byte view of
 * all of it, or `undefined` if it cannot grow that far. Earlier views may be detached by it.
 */
export const reserveInflate = (kernels: InflateKernels, bytes: number): Uint8Array | undefined =>
  module.reserve(kernels, bytes);

/** Called after a decode: drops an instance whose memory grew past 256 MiB, so it can be collected. */
export const releaseInflate = (kernels: InflateKernels): void => module.release(kernels);

/** For tests: turn the inflater off (the TypeScript decoders are used) or back on. */
export const setInflateEnabled = (enabled: boolean): void => module.setEnabled(enabled);
