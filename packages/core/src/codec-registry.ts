import { defaultRegistry, type CodecRegistry } from "@z/codecs";
import { wasmCodecLoaders } from "@z/codecs-wasm";

let registered = false;

/**
 * The registry arrays use when not given one: `@z/codecs`' default registry with blosc, zstd and
 * lz4 added. They are registered on first use rather than on import (so importing `@z/core` has no
 * side effects), and each loads its code only when an array first needs it.
 */
export function defaultCodecRegistry(): CodecRegistry {
  if (!registered) {
    for (const [id, load] of Object.entries(wasmCodecLoaders)) {
      if (!defaultRegistry.has(id)) defaultRegistry.register(id, load);
    }
    registered = true;
  }
  return defaultRegistry;
}
