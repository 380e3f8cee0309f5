/**
 * The codecs of Zarr v2 arrays (the `compressor` and `filters` of `.zarray`), compatible with
 * numcodecs: the `Codec` contract, `defineCodec` (a config declared once), the lazy
 * `CodecRegistry` (`defaultRegistry`, `registerCodec`), and pure-TypeScript zlib, gzip, bz2, lzma
 * and every numcodecs filter, checksum and object codec. The codec contract's test kit is
 * `@z/codecs/testing`. No Node built-ins.
 *
 * @packageDocumentation
 */
export * from "./registry.js";
export * from "./define.js";
export { zlib, zlibConfig } from "./zlib.js";
export { gzip, gzipConfig } from "./gzip.js";
export { bz2, bz2Config } from "./bz2.js";
export {
  lzma,
  lzmaConfig,
  LZMA_FILTER_DELTA,
  LZMA_FILTER_LZMA1,
  LZMA_FILTER_LZMA2,
  LZMA_FORMAT_ALONE,
  LZMA_FORMAT_AUTO,
  LZMA_FORMAT_RAW,
  LZMA_FORMAT_XZ,
  LZMA_PRESET_EXTREME,
  type LzmaFilterSpec,
} from "./lzma.js";
export { delta, deltaConfig } from "./delta.js";
export { fixedscaleoffset, fixedScaleOffsetConfig } from "./fixedscaleoffset.js";
export { quantize, quantizeConfig, quantizeScale } from "./quantize.js";
export { packbits, packbitsConfig } from "./packbits.js";
export { categorize, categorizeConfig } from "./categorize.js";
export { astype, astypeConfig } from "./astype.js";
export { shuffle, shuffleConfig } from "./shuffle.js";
export { bitround, bitroundConfig } from "./bitround.js";
export { crc32, crc32Config } from "./crc32.js";
export { crc32c, crc32cConfig } from "./crc32c.js";
export { adler32, adler32Config } from "./adler32.js";
export { fletcher32, fletcher32Config } from "./fletcher32.js";
export { jenkinsLookup3, jenkinsLookup3Config } from "./jenkins-lookup3.js";
export type { ChecksumLocation } from "./checksum32.js";
export type { PyNumber } from "./numeric-fields.js";
export { vlenUtf8, vlenUtf8Config } from "./vlen-utf8.js";
export { vlenBytes, vlenBytesConfig } from "./vlen-bytes.js";
export { vlenArray, vlenArrayConfig } from "./vlen-array.js";
export { json2, json2Config } from "./json2.js";
export { msgpack2, msgpack2Config, MsgpackExt } from "./msgpack2.js";
export { base64, base64Config } from "./base64.js";
