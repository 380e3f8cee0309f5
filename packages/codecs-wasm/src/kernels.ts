/*
 * The WebAssembly kernels (wasm/kernels.c: LZ4 block decoding and byte and bit unshuffling with
 * SIMD; wasm/zstd.c: Zstandard decoding; wasm/blosc.c: whole Blosc frames with those), instantiated asynchronously on first use. Where
 * WebAssembly (or its SIMD) is unavailable, or the module fails to load, callers fall back to the
 * TypeScript implementations.
 */
import { LazyWasm, type Instance, type ModuleExports } from "./lazy-wasm.js";

interface Exports extends ModuleExports {
  lz4_decode(src: number, srcLen: number, dst: number, dstLen: number): number;
  unshuffle(typesize: number, size: number, src: number, dst: number): void;
  bitunshuffle(typesize: number, size: number, src: number, dst: number): void;
  zstd_decode(src: number, srcLen: number, dst: number, dstCap: number, verify: number): number;
  blosc_decode(src: number, srcLen: number, dst: number, dstCap: number, tmp: number): number;
}

/** An instance of the kernels and its linear memory, handed out as regions. */
export type Kernels = Instance<Exports>;

// The module's base64 is a chunk of its own, loaded with the first decode that uses it.
const module = new LazyWasm<Exports>(async () => (await import("./kernels-wasm.js")).KERNELS_WASM_BASE64, 256 << 20);

/** Whether loading the kernels was tried and failed (WebAssembly or its SIMD missing). */
export const kernelsUnavailable = (): boolean => module.unavailable();

/** The kernels if they are ready now (else `undefined`; see `loadKernels`). */
export const readyKernels = (): Kernels | undefined => module.ready();

/** Instantiates the kernels (once); resolves to `undefined` where WebAssembly SIMD is unavailable. */
export const loadKernels = (): Promise<Kernels | undefined> => module.load();

/**
 * Makes the kernels' memory hold at least `bytes` past the heap base and returns a byte view of
 * it; throws a `RangeError` if it cannot grow that far. Views taken before a later `reserve` may
 * be detached by it.
 */
export function reserve(kernels: Kernels, bytes: number): Uint8Array {
  const memory = module.reserve(kernels, bytes);
  if (memory === undefined) throw new RangeError(`the kernels' memory cannot grow to ${bytes} bytes`);
  return memory;
}

/** Called after a decode: drops an instance whose memory grew large, so it can be collected. */
export const release = (kernels: Kernels): void => module.release(kernels);

/** For tests: how much memory the kernels may keep between decodes (default 256 MiB). */
export function setKeptMemory(bytes: number): void {
  module.keepMemory = bytes;
}

/** For tests: turn the kernels off (the TypeScript paths are used) or back on. */
export const setKernelsEnabled = (enabled: boolean): void => module.setEnabled(enabled);
