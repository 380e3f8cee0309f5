/**
 * `defineCodec` and `MissingEncoderError` of `@z/codecs`, for `@z/core`'s index (one import for
 * common things). Constants rather than re-exports: with code splitting, esbuild keeps a
 * re-exported module in what a page loads first whenever a module loaded later uses it too (every
 * codec uses both, so `defineCodec`'s module and the config fields, ~4 kB min+gzip, would load
 * before any codec), whereas an unused constant is left out with its import. They are the same
 * objects as `@z/codecs`' (`reexports.test.ts`).
 */
import { defineCodec as defineCodecOf, MissingEncoderError as MissingEncoder } from "@z/codecs/define";

/**
 * Declares a codec: its numcodecs id, its config fields (in numcodecs' key order) and how to build
 * it from a parsed config. The same function as {@link @z/codecs#defineCodec} (see there);
 * register the codec with `registerCodec`.
 */
export const defineCodec: typeof defineCodecOf = defineCodecOf;

/**
 * A codec was asked to encode in a program that has not registered its encoder (`ZARR_MISSING_ENCODER`):
 * a browser page that writes compressed data calls `enableEncoders()` once first. The same class as
 * {@link @z/codecs#MissingEncoderError}.
 */
export const MissingEncoderError: typeof MissingEncoder = MissingEncoder;
/** An instance of the `MissingEncoderError` class. */
export type MissingEncoderError = MissingEncoder;
