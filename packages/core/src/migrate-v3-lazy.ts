/*
 * The v2 → v3 migration functions, loaded (migrate-v3.ts, with v3 metadata code) when first called:
 * a page that never migrates loads none of it.
 */
import type { ArrayMetadata, ArrayMetadataV3, Store } from "@z/meta";
import type { MigratedDocument, MigrateToV3Options, RemoveMetadataOptions } from "./migrate-v3.js";

export type { MigratedDocument, MigrateToV3Options, RemoveMetadataOptions } from "./migrate-v3.js";

/**
 * Writes a Zarr v3 `zarr.json` beside the v2 documents of the node at `options.path` and of every
 * array and group below it, as zarr-python 3's `zarr migrate v3`: chunks stay where they are (the
 * `v2` chunk key encoding names them), v2 documents are never changed, the starting node's
 * document is written last. Returns the documents in the order written.
 */
export async function migrateToV3(store: Store, options: MigrateToV3Options = {}): Promise<MigratedDocument[]> {
  return (await import("./migrate-v3.js")).migrateToV3(store, options);
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
  options: { readonly attributes?: import("@z/meta").JsonObject; readonly separator: "." | "/"; readonly key?: string },
): Promise<ArrayMetadataV3> {
  return (await import("./migrate-v3.js")).arrayMetadataV3FromV2(meta, options);
}
