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
