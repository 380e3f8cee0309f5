/**
 * `@z/codecs-wasm/loaders`: this package's codecs as lazy loaders, and its encoders' registration,
 * without any codec: what `@z/core` imports, so that a page loads a codec when an array first uses
 * it, and an encoder only if it registers them (`enableWasmEncoders`).
 *
 * @packageDocumentation
 */

import { enableEncoders, registerEncoder, type CodecFactory, type CodecLoader } from "@z/codecs/registry";

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

// Each loader is the same function every time, so enabling twice keeps what was loaded.
const encoderLoaders = {
  blosc: () => import("./blosc-encode.js"),
  lz4: () => import("./lz4-encode.js"),
  zstd: () => import("./zstd-encode.js"),
  "wasm-deflate": () => import("./deflate-encode.js"),
};

/**
 * Registers this package's encoders (blosc's, LZ4's, Zstandard's — libzstd, ~240 kB min+gzip — and
 * the WebAssembly DEFLATE of zlib and gzip), and `@z/codecs`' (their TypeScript fallbacks), each
 * loaded when a codec first encodes with it. Node's entry of this package calls it; in a browser,
 * call `enableEncoders()` of `@z/core` (or this) before writing.
 */
export function enableWasmEncoders(): void {
  enableEncoders();
  for (const [name, load] of Object.entries(encoderLoaders)) registerEncoder(name, load);
}
