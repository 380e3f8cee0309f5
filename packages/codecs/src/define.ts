/**
 * `@z/codecs/define`: what defining a codec takes (`defineCodec`, config fields, chunk byte helpers,
 * `withEncoder`) and the errors, without any codec: what `@z/codecs-wasm`'s codecs build on.
 *
 * @packageDocumentation
 */

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
export type { CodecKindV3, CodecV3Declaration } from "./v3/types.js";
export * from "./chunk-bytes.js";
export { adviseLargeBuffer } from "./large-buffers.js";
