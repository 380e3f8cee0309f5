import { defaultRegistry, type CodecLoader, type CodecRegistry } from "@z/codecs";
import { wasmCodecLoaders } from "@z/codecs-wasm";
import type { CodecConfig } from "@z/meta";

let registered = false;

// The built-in loaders, taken when this module loads (before any user code can register its own):
// a pool thread has exactly these, so only arrays whose codecs all use them can decode there.
const builtinLoaders: ReadonlyMap<string, CodecLoader> = new Map([
  ...defaultRegistry.ids().map((id) => [id, defaultRegistry.loader(id)!] as const),
  ...Object.entries(wasmCodecLoaders).filter(([id]) => !defaultRegistry.has(id)),
]);

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

/** True when `registry` builds every one of `configs` with the built-in codecs (as a pool thread would). */
export function usesBuiltinCodecs(registry: CodecRegistry, configs: readonly CodecConfig[]): boolean {
  return configs.every((c) => {
    const loader = registry.loader(c.id);
    return loader !== undefined && loader === builtinLoaders.get(c.id);
  });
}
