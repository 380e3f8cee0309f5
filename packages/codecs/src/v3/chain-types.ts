import type { CodecConfig, FillValue, NamedConfig } from "@z/meta";
import type { CodecRegistry } from "../codec-registry.js";
import type { ShardingOptions } from "./shard-options.js";
import type { ChainStage, CodecChainV3, StageChunk } from "./types.js";

/** One codec of a chain, built for the chunk it receives. */
export interface BuiltStage extends ChainStage {
  /** What the next stage receives (for bytes → bytes stages, the chunk they were given). */
  readonly output: StageChunk;
  /** Whether it leaves z's in-memory bytes as they are (a chain leaves it out). */
  readonly identity: boolean;
  /** The v2 configs of what the registry built for it: its own, or a shard's inner and index codecs'. */
  readonly registryConfigs: readonly CodecConfig[];
}

/** What building a chain's codecs needs besides each codec's input. */
export interface ChainEnv {
  readonly registry: CodecRegistry;
  /** The array's fill value (what a shard's missing inner chunks hold). */
  readonly fillValue: FillValue;
  readonly sharding: ShardingOptions;
  /** Compiles a chain of codecs nested in a codec's configuration (`sharding_indexed`'s `codecs`). */
  compile(codecs: readonly NamedConfig[], input: StageChunk, member: string): Promise<CompiledChain>;
}

/** A chain compiled for its input, and what it outputs. */
export interface CompiledChain extends CodecChainV3 {
  readonly output: StageChunk;
}
