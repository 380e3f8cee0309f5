/*
 * The WebAssembly encoders (wasm/encode.c and wasm/deflate.c: Blosc's byte and bit shuffle, LZ4
 * block compression, DEFLATE, Adler-32 and CRC-32), instantiated on first use. A module apart
 * from the decode kernels (kernels.ts), so reading never loads the encoders. Where WebAssembly
 * (or its SIMD) is unavailable, or the module fails to load, callers use the TypeScript encoders.
 *
 * One instance serves every encode; an encode lays out its input, output and scratch at the heap
 * base and must finish synchronously (no await in between), so encodes never overlap in memory.
 */
interface EncodeExports {
  readonly memory: WebAssembly.Memory;
  readonly __heap_base: WebAssembly.Global;
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
export interface EncodeKernels {
  readonly exports: EncodeExports;
  /** Where free memory starts. */
  readonly heapBase: number;
}

let compiled: WebAssembly.Module | undefined;
let current: EncodeKernels | undefined;
let pending: Promise<EncodeKernels | undefined> | undefined;
let unavailable = false;
let disabled = false;

/** The encoders if they are ready now (else `undefined`; see `loadEncodeKernels`). */
export function readyEncodeKernels(): EncodeKernels | undefined {
  return disabled ? undefined : current;
}

/** Whether loading the encoders was tried and failed, or they are turned off. */
export function encodeKernelsUnavailable(): boolean {
  return disabled || unavailable;
}

/** Instantiates the encoders (once); resolves to `undefined` where WebAssembly SIMD is unavailable. */
export function loadEncodeKernels(): Promise<EncodeKernels | undefined> {
  if (disabled || unavailable) return Promise.resolve(undefined);
  if (current) return Promise.resolve(current);
  pending ??= (async () => {
    try {
      if (typeof WebAssembly !== "object") throw new Error("no WebAssembly");
      // The module's base64 is a chunk of its own: importing the package (or decoding) never loads it.
      const { ENCODE_WASM_BASE64 } = await import("./encode-wasm.js");
      compiled ??= await WebAssembly.compile(Uint8Array.from(atob(ENCODE_WASM_BASE64), (c) => c.charCodeAt(0)));
      const instance = await WebAssembly.instantiate(compiled, {});
      const exports = instance.exports as unknown as EncodeExports;
      current = { exports, heapBase: Number(exports.__heap_base.value) };
      return current;
    } catch {
      unavailable = true;
      return undefined;
    } finally {
      pending = undefined;
    }
  })();
  return pending;
}

/** Memory above this is given back after an encode (by dropping the instance). */
const KEEP_MEMORY = 64 << 20;

/**
 * Makes the encoders' memory hold at least `bytes` past the heap base and returns a byte view of
 * all of it, or `undefined` if it cannot grow that far. Earlier views may be detached by it.
 */
export function reserveEncode(kernels: EncodeKernels, bytes: number): Uint8Array | undefined {
  const memory = kernels.exports.memory;
  const needed = kernels.heapBase + bytes;
  const have = memory.buffer.byteLength;
  try {
    if (needed > have) memory.grow(Math.ceil((needed - have) / 65536));
  } catch {
    return undefined;
  }
  return new Uint8Array(memory.buffer);
}

/** Called after an encode: drops an instance whose memory grew large, so it can be collected. */
export function releaseEncode(kernels: EncodeKernels): void {
  if (kernels.exports.memory.buffer.byteLength > KEEP_MEMORY && current === kernels) {
    current = undefined;
    void loadEncodeKernels();
  }
}

/** Rounds up to a multiple of 16 (SIMD loads and stores like aligned regions). */
export const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** Room for raw DEFLATE of `n` bytes (see deflate_raw in wasm/deflate.c). */
export function deflateBound(n: number): number {
  return n + Math.floor(n / 2048) + 64;
}

/** For tests: turn the encoders off (the TypeScript encoders are used) or back on. */
export function setEncodeKernelsEnabled(enabled: boolean): void {
  disabled = !enabled;
}
