/*
 * The WebAssembly kernels (wasm/kernels.c: LZ4 block decoding and byte and bit unshuffling with
 * SIMD; wasm/zstd.c: Zstandard decoding; wasm/blosc.c: whole Blosc frames with those), in two
 * modules built from the same C (wasm/build.sh): the full kernels, and the LZ4 kernels without the
 * Zstandard decoder (a third of the size), which the lz4 codec and Blosc frames of other streams
 * than Zstd use, so reading those never loads a Zstd decoder. Each is instantiated asynchronously
 * on first use (`zstd` says which); where WebAssembly (or its SIMD) is unavailable, or a module
 * fails to load, callers fall back to the TypeScript implementations.
 */
import { LazyWasm, type Instance, type ModuleExports } from "./lazy-wasm.js";

interface Exports extends ModuleExports {
  lz4_decode(src: number, srcLen: number, dst: number, dstLen: number): number;
  unshuffle(typesize: number, size: number, src: number, dst: number): void;
  bitunshuffle(typesize: number, size: number, src: number, dst: number): void;
  /** The full kernels' only (see `zstd`). */
  zstd_decode?(src: number, srcLen: number, dst: number, dstCap: number, verify: number): number;
  blosc_decode(src: number, srcLen: number, dst: number, dstCap: number, tmp: number): number;
}

/** How many bytes past its input the kernels' `zstd_decode` may read (wild copies of literals). */
export const ZSTD_READ_SLACK = 32;

/** An instance of the kernels and its linear memory, handed out as regions. */
export type Kernels = Instance<Exports>;

// Each module's base64 is a chunk of its own, loaded with the first decode that uses it.
const full = new LazyWasm<Exports>(async () => (await import("./kernels-wasm.js")).KERNELS_WASM_BASE64, 256 << 20);
const lz4 = new LazyWasm<Exports>(
  async () => (await import("./kernels-lz4-wasm.js")).KERNELS_LZ4_WASM_BASE64,
  256 << 20,
);

/** The module: the full kernels for Zstd (`zstd`), else the LZ4 kernels. */
const moduleFor = (zstd: boolean): LazyWasm<Exports> => (zstd ? full : lz4);
const moduleOf = (kernels: Kernels): LazyWasm<Exports> => (kernels.exports.zstd_decode === undefined ? lz4 : full);

/** Whether loading the kernels (the full ones with `zstd`) was tried and failed (WebAssembly or its SIMD missing). */
export const kernelsUnavailable = (zstd = false): boolean => moduleFor(zstd).unavailable();

/** The kernels (the full ones with `zstd`) if they are ready now (else `undefined`; see `loadKernels`). */
export const readyKernels = (zstd = false): Kernels | undefined => moduleFor(zstd).ready();

/** Instantiates the kernels (the full ones with `zstd`), once; resolves to `undefined` where WebAssembly SIMD is unavailable. */
export const loadKernels = (zstd = false): Promise<Kernels | undefined> => moduleFor(zstd).load();

/** Whether `kernels` decode Zstandard (the full kernels). */
export const decodesZstd = (kernels: Kernels): boolean => kernels.exports.zstd_decode !== undefined;

/**
 * Makes the kernels' memory hold at least `bytes` past the heap base and returns a byte view of
 * it; throws a `RangeError` if it cannot grow that far. Views taken before a later `reserve` may
 * be detached by it.
 */
export function reserve(kernels: Kernels, bytes: number): Uint8Array {
  const memory = moduleOf(kernels).reserve(kernels, bytes);
  if (memory === undefined) throw new RangeError(`the kernels' memory cannot grow to ${bytes} bytes`);
  return memory;
}

/** Called after a decode: drops an instance whose memory grew large, so it can be collected. */
export const release = (kernels: Kernels): void => moduleOf(kernels).release(kernels);

/** For tests: how much memory each kernels module may keep between decodes (default 256 MiB). */
export function setKeptMemory(bytes: number): void {
  full.keepMemory = bytes;
  lz4.keepMemory = bytes;
}

/** For tests: turn the kernels off (the TypeScript paths are used) or back on. */
export function setKernelsEnabled(enabled: boolean): void {
  full.setEnabled(enabled);
  lz4.setEnabled(enabled);
}
