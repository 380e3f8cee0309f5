/*
 * What groups, attributes and hierarchy code need of v3 documents, in a module of its own so that
 * a page that never meets a v3 node never loads v3 metadata code.
 */
import { JsonFloat, type JsonObject, type JsonValue } from "@z/meta";
import { parseNodeMetadataV3, serializeGroupMetadataV3, serializeNodeMetadataV3 } from "@z/meta/v3";
import type { AttributesDocument } from "./attributes.js";
import { NodeNotFoundError } from "./errors.js";

const encoder = new TextEncoder();

/**
 * `value` with its floats as plain numbers, as v2's `.zattrs` reads them: the v3 document keeps
 * `JsonFloat`s (so that `1.0` is written back as `1.0`), which users of attributes should not meet.
 */
function plainJson(value: JsonValue): JsonValue {
  if (value instanceof JsonFloat) return value.value;
  if (Array.isArray(value)) return value.map(plainJson);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainJson(v)]));
  }
  return value;
}

/**
 * A v3 node's attributes: the `attributes` member of its `zarr.json`. Writing them rewrites the
 * document with its metadata as stored at that moment (another writer's `resize` is kept), as
 * zarr-python 3's `update_attributes` does; an empty object is written as `{}`, as it writes it.
 */
export const attributesV3: AttributesDocument = {
  read: (bytes, key) => plainJson(parseNodeMetadataV3(bytes, key).attributes ?? {}) as JsonObject,
  write: async (values, stored, key) => {
    const current = await stored();
    if (current === undefined)
      throw new NodeNotFoundError("array or group", key.replace(/\/?zarr\.json$/, ""), { key });
    const node = parseNodeMetadataV3(current, key);
    return encoder.encode(serializeNodeMetadataV3({ ...node, attributes: values }));
  },
};

/** Whether the `zarr.json` `bytes` is a group's (checked whole: a bad document is a `MetadataError`). */
export const isGroupV3 = (bytes: Uint8Array, key: string): boolean => nodeTypeV3(bytes, key) === "group";

/** An array's or a group's `zarr.json`, as its `node_type` says (checked whole: a bad document is a `MetadataError`). */
export const nodeTypeV3 = (bytes: Uint8Array, key: string): "array" | "group" =>
  parseNodeMetadataV3(bytes, key).nodeType;

/** A new, empty group's `zarr.json`, as zarr-python 3 writes it (`attributes: {}`, no `consolidated_metadata`). */
export const emptyGroupV3 = (): Uint8Array =>
  encoder.encode(serializeGroupMetadataV3({ zarrFormat: 3, nodeType: "group", attributes: {} }));
