/*
 * The v2 → v3 migration functions, loaded (migrate-v3.ts, with v3 metadata code) when first called:
 * a page that never migrates loads none of it.
 */
import type { CodecRegistry } from "@z/codecs/registry";
import type { ArrayMetadata, ArrayMetadataV3, JsonObject, Store } from "@z/meta";
import { defaultCodecRegistry } from "./codec-registry.js";
import type { MigratedDocument, MigrateToV3Options, RemoveMetadataOptions } from "./migrate-v3.js";

export type { MigratedDocument, MigrateToV3Options, RemoveMetadataOptions } from "./migrate-v3.js";

/**
 * Writes a Zarr v3 `zarr.json` beside the v2 documents of the node at `options.path` and of every
 * array and group below it, as zarr-python 3's `zarr migrate v3`: chunks stay where they are (the
 * `v2` chunk key encoding names them), v2 documents are never changed, the starting node's
 * document is written last. Returns the documents in the order written.
 */
export async function migrateToV3(store: Store, options: MigrateToV3Options = {}): Promise<MigratedDocument[]> {
  // the registry is found here, in what a page loads anyway: importing it from migrate-v3.js would
  // split it off into a chunk of its own in every page (esbuild's code splitting)
  const registry = options.registry ?? defaultCodecRegistry();
  return (await import("./migrate-v3.js")).migrateToV3(store, { ...options, registry });
}

/**
 * Removes one format's metadata documents (v2: `.zarray`, `.zattrs`, `.zgroup`, `.zmetadata`; v3:
 * `zarr.json`) below `options.path`, as zarr-python 3's `zarr remove-metadata`; refused where a
 * node has no metadata of the other format, unless `force`. Returns the keys removed.
 */
export async function removeMetadata(
  store: Store,
  zarrFormat: 2 | 3,
  options: RemoveMetadataOptions = {},
): Promise<string[]> {
  return (await import("./migrate-v3.js")).removeMetadata(store, zarrFormat, options);
}

/** The v3 metadata zarr-python 3's migration writes for a v2 array whose chunks use `separator`. */
export async function arrayMetadataV3FromV2(
  meta: ArrayMetadata,
  options: {
    readonly attributes?: JsonObject;
    readonly separator: "." | "/";
    readonly key?: string;
    readonly registry?: CodecRegistry;
  },
): Promise<ArrayMetadataV3> {
  const registry = options.registry ?? defaultCodecRegistry();
  return (await import("./migrate-v3.js")).arrayMetadataV3FromV2(meta, { ...options, registry });
}
