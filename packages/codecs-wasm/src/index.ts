/**
 * `@z/codecs-wasm`: numcodecs' Blosc, Zstd and LZ4 codecs, and Zlib and GZip with a WebAssembly
 * DEFLATE encoder and decoder (the same codecs as `@z/codecs`' `zlib` and `gzip`, encoding several
 * times faster, decoding two to three times faster).
 *
 * Register them lazily, so their code loads only when an array uses one of them:
 *
 * ```ts
 * import { defaultRegistry } from "@z/codecs";
 * import { registerWasmCodecs } from "@z/codecs-wasm";
 * registerWasmCodecs(defaultRegistry);
 * ```
 *
 * @packageDocumentation
 */
import type { CodecFactory, CodecLoader } from "@z/codecs";

/** Loads the `blosc` codec factory (on first use). */
export const loadBlosc: CodecLoader = () => import("./blosc.js").then((m): CodecFactory => m.blosc);
/** Loads the `zstd` codec factory (on first use). */
export const loadZstd: CodecLoader = () => import("./zstd.js").then((m): CodecFactory => m.zstd);
/** Loads the `lz4` codec factory (on first use). */
export const loadLz4: CodecLoader = () => import("./lz4.js").then((m): CodecFactory => m.lz4);

/** Loads the `zlib` codec factory with the WebAssembly encoder and decoder (on first use). */
export const loadZlib: CodecLoader = () => import("./deflate.js").then((m): CodecFactory => m.zlib);
/** Loads the `gzip` codec factory with the WebAssembly encoder and decoder (on first use). */
export const loadGzip: CodecLoader = () => import("./deflate.js").then((m): CodecFactory => m.gzip);

/** The codec ids this package provides, with their lazy loaders. */
export const wasmCodecLoaders: Readonly<Record<"blosc" | "zstd" | "lz4" | "zlib" | "gzip", CodecLoader>> =
  Object.freeze({
    blosc: loadBlosc,
    zstd: loadZstd,
    lz4: loadLz4,
    zlib: loadZlib,
    gzip: loadGzip,
  });

/** Anything codecs can be registered with (a `CodecRegistry`). */
export interface CodecRegistryLike {
  /** Registers (or replaces) codec `id`, built by `loader` when first needed. */
  register(id: string, loader: CodecLoader): unknown;
}

/**
 * Registers `blosc`, `zstd`, `lz4`, `zlib` and `gzip` in `registry` (replacing what it had under
 * those ids), each loaded on first use. Returns the registry.
 */
export function registerWasmCodecs<R extends CodecRegistryLike>(registry: R): R {
  for (const [id, loader] of Object.entries(wasmCodecLoaders)) registry.register(id, loader);
  return registry;
}

export { blosc, bloscConfig } from "./blosc.js";
export type { BloscCname } from "./blosc-frame.js";
export { zstd, zstdConfig } from "./zstd.js";
export { lz4, lz4Config } from "./lz4.js";
export { gzip, zlib } from "./deflate.js";
