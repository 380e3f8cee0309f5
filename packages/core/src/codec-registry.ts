import { defaultRegistry, type CodecLoader, type CodecRegistry } from "@z/codecs/registry";
import { wasmCodecLoaders } from "@z/codecs-wasm/loaders";
import type { CodecConfig } from "@z/meta";

let registered = false;

// The loaders `@z/codecs` registered, taken when this module loads (before user code can replace
// any): an id still on its original loader may be upgraded to the WebAssembly one.
const codecsLoaders: ReadonlyMap<string, CodecLoader> = new Map(
  defaultRegistry.ids().map((id) => [id, defaultRegistry.loader(id)!] as const),
);

// What a pool thread's registry holds: the WebAssembly codecs where this package has one (blosc,
// zstd, lz4, and zlib/gzip, which encode faster there), `@z/codecs`' for the rest. Only arrays whose
// codecs all use these can go to a pool thread.
const builtinLoaders: ReadonlyMap<string, CodecLoader> = new Map([
  ...codecsLoaders,
  ...Object.entries(wasmCodecLoaders),
]);

/**
 * The registry arrays use when not given one: `@z/codecs`' default registry with the WebAssembly
 * codecs added (blosc, zstd, lz4) or preferred (zlib, gzip: the same formats, encoded faster). A
 * codec the user registered under one of those ids is kept. They are registered on first use
 * rather than on import (so importing `@z/core` has no side effects), and each loads its code
 * only when an array first needs it.
 */
export function defaultCodecRegistry(): CodecRegistry {
  if (!registered) {
    for (const [id, load] of Object.entries(wasmCodecLoaders)) {
      const current = defaultRegistry.loader(id);
      if (current === undefined || current === codecsLoaders.get(id)) defaultRegistry.register(id, load);
    }
    registered = true;
  }
  return defaultRegistry;
}

/**
 * True when `registry` builds every one of `configs` with the built-in codecs (as a pool thread
 * would): under the built-in loader, or under a loader of its own that gives the built-in factory
 * (an application registering `@z/codecs-wasm`'s `blosc` itself, say). A loader that fails counts
 * as not built in.
 */
export async function usesBuiltinCodecs(registry: CodecRegistry, configs: readonly CodecConfig[]): Promise<boolean> {
  for (const c of configs) {
    const loader = registry.loader(c.id);
    const builtin = builtinLoaders.get(c.id);
    if (loader === undefined || builtin === undefined) return false;
    if (loader === builtin) continue;
    try {
      if ((await registry.factory(c.id)) !== (await builtin())) return false;
    } catch {
      return false;
    }
  }
  return true;
}
