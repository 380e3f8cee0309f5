/*
 * numcodecs' `zlib` and `gzip` with this package's DEFLATE decoder (wasm/inflate.c, see inflate.ts)
 * and encoder (wasm/deflate.c, see deflate-encode.ts, a module of its own that
 * `enableWasmEncoders` registers): the same ids, configs, results and errors as @z/codecs' `zlib`
 * and `gzip`, several times faster at encoding and about twice as fast at decoding as their
 * TypeScript code (fflate), which they fall back to where WebAssembly is unavailable (loaded then).
 */
import { defineCodec, integer, requireBytes, withEncoder, type ChunkContext } from "@z/codecs/define";
import type { encodeDeflate } from "./deflate-encode.js";
import { inflateDecode, inflateDecodeInto, type FallbackSource } from "./inflate.js";

/** @z/codecs' `zlibConfig` and `gzipConfig` (numcodecs' `level`, -1 to 9, default 1), the same declaration. */
const levelConfig = { level: integer({ min: -1, max: 9, default: 1 }) };

/** @z/codecs' TypeScript codec for `config`, made (and its module loaded) on first need. */
function typescriptCodec(format: "zlib" | "gzip", config: { level: number }): FallbackSource {
  let codec: ReturnType<FallbackSource> | undefined;
  return () =>
    (codec ??=
      format === "zlib"
        ? import("@z/codecs/zlib").then((m) => (codec = m.zlib.create(config)))
        : import("@z/codecs/gzip").then((m) => (codec = m.gzip.create(config))));
}

/** numcodecs `Zlib`, as `@z/codecs`' `zlib` (same config, results and errors), in WebAssembly. */
export const zlib = defineCodec({
  id: "zlib",
  config: levelConfig,
  create: (config) => {
    const ts = typescriptCodec("zlib", config);
    return {
      encode: (data, chunk: ChunkContext) => {
        const bytes = requireBytes(data, "zlib", chunk);
        return withEncoder("wasm-deflate", "zlib", chunk, (m: { encodeDeflate: typeof encodeDeflate }) =>
          m.encodeDeflate("zlib", bytes, config, chunk),
        );
      },
      decode: (data, chunk) => inflateDecode("zlib", requireBytes(data, "zlib", chunk), chunk, ts),
      decodeInto: (data, out, chunk) => inflateDecodeInto("zlib", data, out, chunk, ts),
    };
  },
});

/** numcodecs `GZip`, as `@z/codecs`' `gzip` (same config, results and errors), in WebAssembly. */
export const gzip = defineCodec({
  id: "gzip",
  config: levelConfig,
  create: (config) => {
    const ts = typescriptCodec("gzip", config);
    return {
      encode: (data, chunk: ChunkContext) => {
        const bytes = requireBytes(data, "gzip", chunk);
        return withEncoder("wasm-deflate", "gzip", chunk, (m: { encodeDeflate: typeof encodeDeflate }) =>
          m.encodeDeflate("gzip", bytes, config, chunk),
        );
      },
      decode: (data, chunk) => inflateDecode("gzip", requireBytes(data, "gzip", chunk), chunk, ts),
      decodeInto: (data, out, chunk) => inflateDecodeInto("gzip", data, out, chunk, ts),
    };
  },
});
