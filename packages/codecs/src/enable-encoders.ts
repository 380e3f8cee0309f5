import { registerEncoder } from "./encoders.js";

// Each loader is the same function every time, so enabling twice keeps what was loaded.
const loaders = {
  zlib: () => import("./zlib-encode.js"),
  gzip: () => import("./gzip-encode.js"),
  lzma: () => import("./lzma-encode.js"),
  bz2: () => import("./bz2-encode.js"),
  sharding_indexed: () => import("./v3/shard-encode.js"),
};

/**
 * Registers this package's encoders (zlib's and gzip's DEFLATE, LZMA, bzip2, and the v3
 * `sharding_indexed` codec's shard writer), each loaded when a
 * codec first encodes with it. Node's entry of this package calls it; in a browser, call
 * `enableEncoders()` of `@z/core` (which also registers `@z/codecs-wasm`'s) before writing.
 */
export function enableEncoders(): void {
  for (const [name, load] of Object.entries(loaders)) registerEncoder(name, load);
}
