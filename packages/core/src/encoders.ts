import { enableWasmEncoders } from "@z/codecs-wasm/loaders";

/**
 * Registers every built-in encoder (`@z/codecs`' and `@z/codecs-wasm`'s), each loaded when a codec
 * first encodes with it. Encoders are modules of their own, which browser bundles leave out unless
 * a page registers them, so a page that only reads ships none: call this once in a page that writes
 * compressed data (writing otherwise fails with a `MissingEncoderError`). Node's entries of
 * `@z/core` call it.
 */
export function enableEncoders(): void {
  enableWasmEncoders();
}
