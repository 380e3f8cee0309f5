/**
 * `@z/codecs-wasm`: numcodecs' Blosc, Zstd and LZ4 codecs, and Zlib and GZip with a WebAssembly
 * DEFLATE encoder and decoder (the same codecs as `@z/codecs`' `zlib` and `gzip`, encoding several
 * times faster, decoding two to three times faster).
 *
 * Register them lazily, so their code loads only when an array uses one of them (`@z/core`'s
 * default registry has them already); to encode, register the encoders too (Node does):
 *
 * ```ts
 * import { defaultRegistry } from "@z/codecs/define";
 * import { enableWasmEncoders, registerWasmCodecs } from "@z/codecs-wasm/loaders";
 * registerWasmCodecs(defaultRegistry);
 * enableWasmEncoders();
 * ```
 *
 * @packageDocumentation
 */
export * from "./loaders.js";
export { blosc, bloscConfig } from "./blosc.js";
export type { BloscCname } from "./blosc-frame.js";
export { zstd, zstdConfig } from "./zstd.js";
export { lz4, lz4Config } from "./lz4.js";
export { gzip, zlib } from "./deflate.js";
