import type { JsonValue, NamedConfig } from "./json-value.js";
import { fieldError, isJsonObject } from "./metadata-document.js";

const MEMBERS = new Set(["name", "configuration", "must_understand"]);

/**
 * An extension point of `zarr.json` (a codec, a chunk grid, a chunk key encoding, a storage
 * transformer) as a `NamedConfig`: an object with a string `name`, an optional object
 * `configuration` and an optional boolean `must_understand`, or the short-hand bare name, which is
 * `{ name }`. Anything else is a `MetadataError` naming `key` and `field` (e.g. `codecs[1]`).
 */
export function readNamedConfig(json: JsonValue, key: string, field: string): NamedConfig {
  if (typeof json === "string") return { name: json };
  const expected = 'a name or an object with a string "name" and an optional object "configuration"';
  if (!isJsonObject(json) || typeof json.name !== "string") throw fieldError(key, field, expected, json);
  const extra = Object.keys(json).find((k) => !MEMBERS.has(k));
  if (extra !== undefined) {
    throw fieldError(key, field, `only "name", "configuration" and "must_understand"`, json, {
      at: `(unknown member ${JSON.stringify(extra)})`,
    });
  }
  const { name, configuration, must_understand: mustUnderstand } = json;
  if (configuration !== undefined && !isJsonObject(configuration)) {
    throw fieldError(key, `${field}.configuration`, "an object", configuration);
  }
  if (mustUnderstand !== undefined && typeof mustUnderstand !== "boolean") {
    throw fieldError(key, `${field}.must_understand`, "true or false", mustUnderstand);
  }
  return {
    name,
    ...(configuration === undefined ? {} : { configuration }),
    ...(mustUnderstand === undefined ? {} : { must_understand: mustUnderstand }),
  };
}

/** A `NamedConfig` as `zarr.json` holds it: `name`, then `configuration`, then `must_understand`, each when present. */
export function namedConfigToJson(config: NamedConfig): JsonValue {
  return {
    name: config.name,
    ...(config.configuration === undefined ? {} : { configuration: config.configuration }),
    ...(config.must_understand === undefined ? {} : { must_understand: config.must_understand }),
  };
}
