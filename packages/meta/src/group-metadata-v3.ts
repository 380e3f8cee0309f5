import { compareCodePoints, stringifyJson } from "./json-stringify.js";
import { arrayMetadataV3ToJson, parseArrayMetadataV3 } from "./array-metadata-v3.js";
import type { JsonObject, JsonValue } from "./json-value.js";
import { fieldError, isJsonObject, type MetadataInput } from "./metadata-document.js";
import { readAttributes, readExtraFields, readV3Object } from "./metadata-v3-document.js";
import type { ConsolidatedMetadataV3, GroupMetadataV3, NodeMetadataV3 } from "./metadata-v3-model.js";

const KNOWN: ReadonlySet<string> = new Set(["attributes", "zarr_format", "consolidated_metadata", "node_type"]);

/**
 * Reads and checks a group's `zarr.json`, with zarr-python 3's inline consolidated metadata when
 * it has some (each node's document checked as its own `zarr.json`, named `key` + path in errors).
 */
export function parseGroupMetadataV3(input: MetadataInput, key = "zarr.json"): GroupMetadataV3 {
  const { doc } = readV3Object(input, key, "group");
  return readGroup(doc, key);
}

/** Reads an array's or a group's `zarr.json`, as its `node_type` says. */
export function parseNodeMetadataV3(input: MetadataInput, key = "zarr.json"): NodeMetadataV3 {
  const { doc, nodeType } = readV3Object(input, key);
  return nodeType === "array" ? parseArrayMetadataV3(doc, key) : readGroup(doc, key);
}

function readGroup(doc: JsonObject, key: string): GroupMetadataV3 {
  const attributes = readAttributes(doc, key);
  const consolidatedMetadata = readConsolidated(doc.consolidated_metadata, key);
  const extraFields = readExtraFields(doc, KNOWN, key);
  return {
    zarrFormat: 3,
    nodeType: "group",
    ...(attributes === undefined ? {} : { attributes }),
    ...(consolidatedMetadata === undefined ? {} : { consolidatedMetadata }),
    ...(extraFields === undefined ? {} : { extraFields }),
  };
}

/**
 * `consolidated_metadata` as zarr-python 3 writes it; `null` (as zarr-python reads it) is none. It
 * is not an extension object (it has no `name`), as the spec notes.
 */
function readConsolidated(value: JsonValue | undefined, key: string): ConsolidatedMetadataV3 | undefined {
  if (value === undefined || value === null) return undefined;
  const field = "consolidated_metadata";
  const expected = '{"kind": "inline", "must_understand": false, "metadata": {path: zarr.json document, ...}}';
  if (!isJsonObject(value)) throw fieldError(key, field, expected, value);
  if (value.kind !== "inline") throw fieldError(key, `${field}.kind`, '"inline"', value.kind ?? null);
  if (value.must_understand !== false) {
    throw fieldError(key, `${field}.must_understand`, "false", value.must_understand ?? null);
  }
  const extra = Object.keys(value).find((k) => k !== "kind" && k !== "must_understand" && k !== "metadata");
  if (extra !== undefined) {
    throw fieldError(key, field, expected, value, { at: `(unknown member ${JSON.stringify(extra)})` });
  }
  const nodes = value.metadata;
  if (!isJsonObject(nodes))
    throw fieldError(key, `${field}.metadata`, "an object of zarr.json documents by path", nodes ?? null);
  const metadata = new Map<string, NodeMetadataV3>();
  for (const [path, node] of Object.entries(nodes)) {
    if (path === "" || path.startsWith("/") || path.endsWith("/")) {
      throw fieldError(key, `${field}.metadata`, "paths relative to the group (a/b)", path);
    }
    metadata.set(path, parseNodeMetadataV3(node, `${key} (consolidated: ${path})`));
  }
  return { kind: "inline", metadata };
}

/**
 * The JSON object of a group's `zarr.json`, members in zarr-python 3's order (`attributes`,
 * `zarr_format`, `consolidated_metadata`, `node_type`, then the extra members). Consolidated
 * entries are sorted as zarr-python sorts them: by depth, then by the path's case-folded NFKC form.
 */
export function groupMetadataV3ToJson(meta: GroupMetadataV3): JsonObject {
  const doc: Record<string, JsonValue> = {};
  if (meta.attributes !== undefined) doc.attributes = meta.attributes;
  doc.zarr_format = 3;
  if (meta.consolidatedMetadata !== undefined) {
    const entries = [...meta.consolidatedMetadata.metadata].sort(([a], [b]) => consolidatedOrder(a, b));
    const nodes: Record<string, JsonValue> = {};
    for (const [path, node] of entries) nodes[path] = nodeMetadataV3ToJson(node);
    // A JS object lists integer-like keys ("0", "1") first whatever the order they were set in, so
    // such paths come first in the text: the document is read the same.
    doc.consolidated_metadata = { kind: "inline", must_understand: false, metadata: nodes };
  }
  doc.node_type = "group";
  for (const [name, value] of Object.entries(meta.extraFields ?? {})) {
    if (KNOWN.has(name)) throw fieldError("zarr.json", name, "an extra member that is not one of the spec's", value);
    doc[name] = value;
  }
  return doc;
}

/** The JSON object of an array's or a group's `zarr.json`. */
export function nodeMetadataV3ToJson(meta: NodeMetadataV3): JsonObject {
  return meta.nodeType === "array" ? arrayMetadataV3ToJson(meta) : groupMetadataV3ToJson(meta);
}

/** `zarr.json` text as zarr-python 3 writes it: `json.dumps(doc, indent=2)`, members in its order. */
export function serializeGroupMetadataV3(meta: GroupMetadataV3 = { zarrFormat: 3, nodeType: "group" }): string {
  return stringifyJson(groupMetadataV3ToJson(meta), { indent: 2, sortKeys: false });
}

/** `zarr.json` text of an array or a group. */
export function serializeNodeMetadataV3(meta: NodeMetadataV3): string {
  return stringifyJson(nodeMetadataV3ToJson(meta), { indent: 2, sortKeys: false });
}

/** zarr-python's sort key: `(path.count("/"), unicodedata.normalize("NFKC", path).casefold())`. */
function consolidatedOrder(a: string, b: string): number {
  const depth = a.split("/").length - b.split("/").length;
  return depth !== 0 ? depth : compareCodePoints(caseFold(a), caseFold(b));
}

/** Python's `casefold()` after NFKC, as near as JS comes: full case mapping up, then down (ß → ss). */
function caseFold(text: string): string {
  return text.normalize("NFKC").toUpperCase().toLowerCase();
}
