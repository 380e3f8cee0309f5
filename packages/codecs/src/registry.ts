/**
 * `@z/codecs/registry`: the codec registry, the codec contract's types, encoder registration and
 * the errors, without any codec and without what defining one takes (`@z/codecs/define`). What
 * `@z/core` builds on: importing it loads no codec, so a page loads each codec when an array first
 * uses it (the registry's loaders are dynamic imports), and no encoder unless it registers them
 * (`enableEncoders`).
 *
 * @packageDocumentation
 */

export type * from "./codec.js";
export type { CodecCreateContext, CodecFactory } from "./define-codec.js";
export type { CodecKindV3, CodecV3Declaration } from "./v3/types.js";
export * from "./errors.js";
export * from "./codec-registry.js";
export { adviseLargeBuffer, setLargeBufferAdvice } from "./large-buffers.js";
export { hasEncoder, registerEncoder, type EncoderLoader } from "./encoders.js";
export { enableEncoders } from "./enable-encoders.js";
