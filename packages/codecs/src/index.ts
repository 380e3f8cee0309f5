export type * from "./codec.js";
export * from "./errors.js";
export {
  boolean,
  describeValue,
  dtype,
  field,
  FieldMismatch,
  integer,
  json,
  list,
  normalizeDtype,
  nullable,
  number,
  object,
  optional,
  parseConfig,
  serializeConfig,
  string,
  UnknownField,
  type ConfigInput,
  type ConfigSchema,
  type ConfigValues,
  type Field,
  type FieldValue,
} from "./config-schema.js";
export * from "./define-codec.js";
export * from "./chunk-bytes.js";
export * from "./registry.js";
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
