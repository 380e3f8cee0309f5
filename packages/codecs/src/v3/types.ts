import type { CodecConfig } from "@z/meta";
import type { ChunkContext, Codec } from "../codec.js";

/**
 * The three kinds of Zarr v3 codec: `array → array` (transpose, numcodecs filters), `array → bytes`
 * (the one serializer of a chain: `bytes`, `vlen-utf8`, ...) and `bytes → bytes` (compressors,
 * checksums).
 */
export type CodecKindV3 = "array-array" | "array-bytes" | "bytes-bytes";

/**
 * What a codec registered by its v2 id says about itself for Zarr v3 (`defineCodec({ v3 })`, or a
 * `CodecFactory`'s `v3`): the kind it is when an array's `codecs` name it by its id (bare, or as
 * `numcodecs.<id>`). Without it, a codec this package does not know is taken as `bytes → bytes`.
 */
export interface CodecV3Declaration {
  /** `array-array` for a filter, `array-bytes` for an object codec; `bytes-bytes` when left out. */
  readonly kind?: CodecKindV3;
}

/**
 * What a stage is told about the chunk it encodes: the representation it receives when encoding.
 * For `array → array` and `array → bytes` stages, the array it receives (its dtype, which earlier
 * stages may have changed, and its shape, permuted by transposes before it). For `bytes → bytes`
 * stages, the array the chain's `array → bytes` codec received, as z tells a v2 compressor about
 * its array: `elements * itemsize` is then the size of what that codec wrote when it writes fixed-size
 * elements, and a stage after another `bytes → bytes` stage receives that stage's output, whose
 * size the engine bounds (`ChunkContext.maxDecodedSize`).
 */
export type StageChunk = Omit<ChunkContext, "key" | "signal" | "maxDecodedSize"> & {
  readonly shape: readonly number[];
};

/** One stage of a compiled chain. */
export interface ChainStage {
  /** Encodes this stage's input to its output; decodes the reverse. */
  readonly codec: Codec;
  /** What it takes and gives: `array-array`, `array-bytes` (the chain's one serializer) or `bytes-bytes`. */
  readonly kind: CodecKindV3;
  /** The chunk as this stage receives it when encoding (see `StageChunk`). */
  readonly chunk: StageChunk;
}

/** An array's `codecs`, compiled for its chunks (`compileCodecsV3`). */
export interface CodecChainV3 {
  /**
   * Stages in encode order, leaving out stages that do nothing to z's in-memory bytes (a `bytes`
   * codec whose endian is that of the data, or any endian for 1-byte types; a `transpose` whose
   * order is the identity): the engine then keeps its fast paths (decodeInto, decodeRange, raw reads)
   * when the only real stage is one compressor.
   */
  readonly stages: readonly ChainStage[];
  /**
   * The v2 codec configs built through the registry (`{id: "blosc", ...}`), in stage order, so the
   * engine can check that a worker thread's registry builds the same codecs. Stages not from the
   * registry (`transpose`, `bytes`) are not listed.
   */
  readonly registryConfigs: readonly CodecConfig[];
}
