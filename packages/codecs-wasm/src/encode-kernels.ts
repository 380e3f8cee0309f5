/*
 * The WebAssembly encoders (wasm/encode.c and wasm/deflate.c: Blosc's byte and bit shuffle, LZ4
 * block compression, DEFLATE, Adler-32 and CRC-32), instantiated on first use. A module apart
 * from the decode kernels (kernels.ts), so reading never loads the encoders. Where WebAssembly
 * (or its SIMD) is unavailable, or the module fails to load, callers use the TypeScript encoders.
 *
 * One instance serves every encode; an encode lays out its input, output and scratch at the heap
 * base and must finish synchronously (no await in between), so encodes never overlap in memory.
 */
import { LazyWasm, type Instance, type ModuleExports } from "./lazy-wasm.js";

interface EncodeExports extends ModuleExports {
  shuffle(typesize: number, size: number, src: number, dst: number): void;
  bitshuffle(typesize: number, size: number, src: number, dst: number, tmp: number): void;
  /** LZ4 block of src[0, n) into dst (room for lz4Bound(n)); returns its length. */
  lz4_encode(src: number, n: number, dst: number, acceleration: number): number;
  crc32(crc: number, src: number, n: number): number;
  adler32(adler: number, src: number, n: number): number;
  /** Raw DEFLATE of src[0, n) (8 readable bytes after it) into dst[0, cap); -1 if cap is too small. */
  deflate_raw(src: number, n: number, dst: number, cap: number, level: number): number;
}

/** An instance of the encoders and its linear memory. */
export type EncodeKernels = Instance<EncodeExports>;

// The module's base64 is a chunk of its own: importing the package (or decoding) never loads it.
const module = new LazyWasm<EncodeExports>(async () => (await import("./encode-wasm.js")).ENCODE_WASM_BASE64, 64 << 20);

/** The encoders if they are ready now (else `undefined`; see `loadEncodeKernels`). */
export const readyEncodeKernels = (): EncodeKernels | undefined => module.ready();

/** Whether loading the encoders was tried and failed, or they are turned off. */
export const encodeKernelsUnavailable = (): boolean => module.unavailable();

/** Instantiates the encoders (once); resolves to `undefined` where WebAssembly SIMD is unavailable. */
export const loadEncodeKernels = (): Promise<EncodeKernels | undefined> => module.load();

/** `run` with the encoders, loading them first if needed; `fallback` where they are unavailable. */
export const withEncodeKernels = <T>(
  run: (kernels: EncodeKernels) => T | Promise<T>,
  fallback: () => T | Promise<T>,
): T | Promise<T> => module.use(run, fallback);

/**
 * Makes the encoders' memory hold at least `bytes` past the heap base and returns a byte view of
 * all of it, or `undefined` if it cannot grow that far. Earlier views may be detached by it.
 */
export const reserveEncode = (kernels: EncodeKernels, bytes: number): Uint8Array | undefined =>
  module.reserve(kernels, bytes);

/** Called after an encode: drops an instance whose memory grew large, so it can be collected. */
export const releaseEncode = (kernels: EncodeKernels): void => module.release(kernels);

/** Rounds up to a multiple of 16 (SIMD loads and stores like aligned regions). */
export const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** Room for raw DEFLATE of `n` bytes (see deflate_raw in wasm/deflate.c). */
export function deflateBound(n: number): number {
  return n + Math.floor(n / 2048) + 64;
}

/** For tests: turn the encoders off (the TypeScript encoders are used) or back on. */
export const setEncodeKernelsEnabled = (enabled: boolean): void => module.setEnabled(enabled);
