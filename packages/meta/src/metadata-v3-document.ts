// What array and group `zarr.json` documents share: the version and node type, `attributes`, and
// the rule for members the spec does not define (kept when marked `must_understand: false`,
// refused by name otherwise).

import { UnsupportedExtensionError } from "./errors.js";
import type { JsonObject, JsonValue } from "./json-value.js";
import { fieldError, isJsonObject, readMetadataObject, requireField, type MetadataInput } from "./metadata-document.js";

/**
 * The JSON object of a `zarr.json` whose `zarr_format` is 3 and whose `node_type` is `nodeType`
 * (either, when not given). Numbers written as floats stay floats (`JsonFloat`), so attributes
 * and codec configurations are written back as they were.
 */
export function readV3Object(
  input: MetadataInput,
  key: string,
  nodeType?: "array" | "group",
): { readonly doc: JsonObject; readonly nodeType: "array" | "group" } {
  const doc = readMetadataObject(input, key, { keepFloats: true });
  const format = requireField(doc, "zarr_format", key);
  if (format !== 3) throw fieldError(key, "zarr_format", "3 (a Zarr v3 zarr.json)", format);
  const type = requireField(doc, "node_type", key);
  const expected = nodeType === undefined ? '"array" or "group"' : `"${nodeType}"`;
  if (type !== "array" && type !== "group") throw fieldError(key, "node_type", expected, type);
  if (nodeType !== undefined && type !== nodeType) {
    throw fieldError(key, "node_type", `${expected} (this is a${type === "array" ? "n" : ""} ${type})`, type);
  }
  return { doc, nodeType: type };
}

/** The optional `attributes`: any JSON object. */
export function readAttributes(doc: JsonObject, key: string): JsonObject | undefined {
  const value = doc.attributes;
  if (value === undefined) return undefined;
  if (!isJsonObject(value)) throw fieldError(key, "attributes", "an object", value);
  return value;
}

/**
 * The members of `doc` outside `known`: each must be an object with `must_understand: false`
 * (then it is kept verbatim and otherwise ignored); any other is an `UnsupportedExtensionError`
 * naming it, as the spec requires.
 */
export function readExtraFields(doc: JsonObject, known: ReadonlySet<string>, key: string): JsonObject | undefined {
  const extra: Record<string, JsonValue> = {};
  let any = false;
  for (const [name, value] of Object.entries(doc)) {
    if (known.has(name)) continue;
    if (!isJsonObject(value) || value.must_understand !== false) {
      throw new UnsupportedExtensionError(
        `"${key}" has a member z does not know and that is not marked "must_understand": false: ${JSON.stringify(name)}`,
        { key, field: name, extension: name },
      );
    }
    extra[name] = value;
    any = true;
  }
  return any ? extra : undefined;
}
