/*
 * The WebAssembly kernels (wasm/kernels.c: LZ4 block decoding and byte unshuffling with SIMD;
 * wasm/zstd.c: Zstandard decoding),
 * instantiated asynchronously on first use. Where WebAssembly (or its SIMD) is unavailable, or
 * the module fails to load, callers fall back to the TypeScript implementations.
 */
import { KERNELS_WASM_BASE64 } from "./kernels-wasm.js";

interface Exports {
  readonly memory: WebAssembly.Memory;
  readonly __heap_base: WebAssembly.Global;
  lz4_decode(src: number, srcLen: number, dst: number, dstLen: number): number;
  unshuffle(typesize: number, size: number, src: number, dst: number): void;
  bitunshuffle(typesize: number, size: number, src: number, dst: number): void;
  zstd_decode(src: number, srcLen: number, dst: number, dstCap: number, verify: number): number;
}

/** An instance of the kernels and its linear memory, handed out as regions. */
export interface Kernels {
  readonly exports: Exports;
  /** Where free memory starts. */
  readonly heapBase: number;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const table = new Uint8Array(128);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  const clean = text.replace(/=+$/, "");
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < clean.length; i += 4) {
    const a = table[clean.charCodeAt(i)]!;
    const b = table[clean.charCodeAt(i + 1)]!;
    const c = table[clean.charCodeAt(i + 2)] ?? 0;
    const d = table[clean.charCodeAt(i + 3)] ?? 0;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >>> 16;
    if (o < out.length) out[o++] = (n >>> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

let compiled: Promise<WebAssembly.Module | undefined> | undefined;
let current: Kernels | undefined;
let pending: Promise<Kernels | undefined> | undefined;
let disabled = false;

let unavailable = false;

/** Whether loading the kernels was tried and failed (WebAssembly or its SIMD missing). */
export function kernelsUnavailable(): boolean {
  return disabled || unavailable;
}

/** The kernels if they are ready now (else `undefined`; see `loadKernels`). */
export function readyKernels(): Kernels | undefined {
  return disabled ? undefined : current;
}

/** Instantiates the kernels (once); resolves to `undefined` where WebAssembly SIMD is unavailable. */
export function loadKernels(): Promise<Kernels | undefined> {
  if (disabled) return Promise.resolve(undefined);
  if (current) return Promise.resolve(current);
  if (!pending) {
    compiled ??= (async () => {
      try {
        if (typeof WebAssembly !== "object") return undefined;
        const bytes = decodeBase64(KERNELS_WASM_BASE64);
        if (!WebAssembly.validate(bytes)) return undefined;
        return await WebAssembly.compile(bytes);
      } catch {
        return undefined;
      }
    })();
    pending = compiled.then(async (module) => {
      if (!module) {
        unavailable = true;
        return undefined;
      }
      try {
        const instance = await WebAssembly.instantiate(module, {});
        const exports = instance.exports as unknown as Exports;
        current = { exports, heapBase: Number(exports.__heap_base.value) };
        return current;
      } catch {
        unavailable = true;
        return undefined;
      } finally {
        pending = undefined;
      }
    });
  }
  return pending;
}

/** Memory above this is given back after a decode (by dropping the instance). */
let keepMemory = 256 << 20;

/**
 * Makes the kernels' memory hold at least `bytes` past the heap base and returns a byte view of
 * it. Views taken before a later `reserve` may be detached by it.
 */
export function reserve(kernels: Kernels, bytes: number): Uint8Array {
  const memory = kernels.exports.memory;
  const needed = kernels.heapBase + bytes;
  const have = memory.buffer.byteLength;
  if (needed > have) memory.grow(Math.ceil((needed - have) / 65536));
  return new Uint8Array(memory.buffer);
}

/** Called after a decode: drops an instance whose memory grew large, so it can be collected. */
export function release(kernels: Kernels): void {
  if (kernels.exports.memory.buffer.byteLength > keepMemory && current === kernels) {
    current = undefined;
    void loadKernels();
  }
}

/** For tests: how much memory the kernels may keep between decodes (default 256 MiB). */
export function setKeptMemory(bytes: number): void {
  keepMemory = bytes;
}

/** For tests: turn the kernels off (the TypeScript paths are used) or back on. */
export function setKernelsEnabled(enabled: boolean): void {
  disabled = !enabled;
}
