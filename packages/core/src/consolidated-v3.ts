/*
 * zarr-python 3's consolidated metadata: every `zarr.json` below a v3 group, inline in the group's
 * own `zarr.json` as `consolidated_metadata` (see `@z/meta`'s `ConsolidatedMetadataV3`). Loaded only
 * for v3 hierarchies.
 */
import { isListable, keyPrefix, type NodeMetadataV3, type WritableStore } from "@z/meta";
import {
  parseGroupMetadataV3,
  parseNodeMetadataV3,
  serializeGroupMetadataV3,
  serializeNodeMetadataV3,
} from "@z/meta/v3";
import { ArgumentError } from "./errors.js";
import { ZARR_JSON, zarrJsonKey } from "./keys.js";

const encoder = new TextEncoder();

/**
 * The documents a consolidated v3 group's `zarr.json` (`bytes`, at `key`) holds, by store key:
 * its own and those of every node below it; `undefined` when it holds no consolidation.
 */
export function consolidatedDocuments(bytes: Uint8Array, key: string): Map<string, Uint8Array> | undefined {
  const root = parseGroupMetadataV3(bytes, key);
  if (root.consolidatedMetadata === undefined) return undefined;
  const base = key.slice(0, key.length - ZARR_JSON.length);
  const documents = new Map<string, Uint8Array>([[key, bytes]]);
  for (const [path, node] of root.consolidatedMetadata.metadata) {
    documents.set(`${base}${path}/${ZARR_JSON}`, encoder.encode(serializeNodeMetadataV3(node)));
  }
  return documents;
}

/**
 * Writes the group at `path`'s `zarr.json` with every node below it inline, as zarr-python 3's
 * `consolidate_metadata` does (nested groups' own consolidations are not repeated inside).
 */
export async function consolidateV3(store: WritableStore, path: string): Promise<void> {
  if (!isListable(store)) throw new ArgumentError("consolidateMetadata needs a listable store");
  const prefix = keyPrefix(path);
  const rootKey = zarrJsonKey(path);
  const rootBytes = await store.get(rootKey);
  if (rootBytes === undefined) throw new ArgumentError(`no group at ${JSON.stringify(path)} (no ${rootKey})`);
  const root = parseGroupMetadataV3(rootBytes, rootKey);
  const metadata = new Map<string, NodeMetadataV3>();
  const keys = (await store.list(prefix)).filter((k) => k !== rootKey && k.endsWith(`/${ZARR_JSON}`)).sort();
  for (const key of keys) {
    const bytes = await store.get(key);
    if (bytes === undefined) continue;
    const node = parseNodeMetadataV3(bytes, key);
    const relative = key.slice(prefix.length, key.length - ZARR_JSON.length - 1);
    if (node.nodeType === "group") {
      const { consolidatedMetadata: _nested, ...group } = node;
      metadata.set(relative, group);
    } else metadata.set(relative, node);
  }
  const next = { ...root, consolidatedMetadata: { kind: "inline" as const, metadata } };
  await store.set(rootKey, encoder.encode(serializeGroupMetadataV3(next)));
}
