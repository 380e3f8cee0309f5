import type { ChunkContext, Codec, CodecRegistry } from "@z/codecs/registry";
import type { ArrayLayout } from "./array-layout.js";

/** What a stage of a chain is told about the chunk it encodes (its shape as that stage sees it). */
export type StageChunk = Omit<ChunkContext, "key" | "signal" | "maxDecodedSize">;

/**
 * An array's codecs as one chain of stages, in encode order: what the engine runs, for either
 * format. v2's filters then compressor make one; v3's `codecs` another (`@z/codecs/v3`'s
 * `compileCodecsV3`, whose stages have this shape). Stages that change nothing in z's in-memory
 * bytes (v3's `bytes` codec, little-endian) are left out, so a chain of one compressor keeps the
 * fast paths whatever the format.
 */
export type CodecChain = readonly ChainStage[];

/** One stage: its codec, the chunk as it sees it, and (v3) its kind. */
export interface ChainStage {
  readonly codec: Codec;
  readonly chunk: StageChunk;
  /** v3's kind of the codec; v2's filters and compressor have none. */
  readonly kind?: "array-array" | "array-bytes" | "bytes-bytes";
}

/** The chain of a v2 (or v1) array: its filters in order, then its compressor, each seeing the whole chunk. */
export async function chainV2(meta: ArrayLayout, registry: CodecRegistry, key: string): Promise<CodecChain> {
  const configs = [...(meta.filters ?? []), ...(meta.compressor ? [meta.compressor] : [])];
  const codecs = await Promise.all(configs.map((config) => registry.create(config, { key })));
  const chunk: StageChunk = {
    dtype: meta.dtype,
    itemsize: meta.dtype.itemsize,
    elements: meta.chunks.reduce((a, b) => a * b, 1),
    shape: meta.chunks,
  };
  return codecs.map((codec) => ({ codec, chunk }));
}
