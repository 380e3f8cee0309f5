/**
 * `@z/codecs-wasm/fallbacks`: the switches for measuring and testing this package's TypeScript
 * paths against its WebAssembly ones (as `apps/bench/micro/` does), and the XXH64 hash Zstandard's
 * content checksum uses.
 *
 * @packageDocumentation
 */
import { setInflateEnabled } from "./inflate-kernels.js";
import { loadKernels, setKernelsEnabled } from "./kernels.js";

/**
 * Turns this package's WebAssembly kernels (and the inflate kernel) on or off: off, every codec
 * takes the TypeScript path it falls back to where WebAssembly is missing or refused.
 */
export function setWasmKernelsEnabled(enabled: boolean): void {
  setKernelsEnabled(enabled);
  setInflateEnabled(enabled);
}

/** Loads the WebAssembly kernels now (they load on a codec's first use otherwise); `false` when they cannot load. */
export const preloadWasmKernels = async (): Promise<boolean> => (await loadKernels()) !== undefined;

export { xxh64 } from "./xxhash64.js";
