import type { DimensionSeparator } from "./array-metadata-model.js";
import { UnsupportedExtensionError } from "./errors.js";
import type { JsonValue, NamedConfig } from "./json-value.js";
import { fieldError } from "./metadata-document.js";
import { readNamedConfig } from "./named-config.js";
import { parseChunkKey } from "./chunk-key.js";

/**
 * How a v3 array names its chunks in the store: `default` (`c/1/2`, or `c.1.2` with separator
 * `.`; the one chunk of a 0-d array is `c`) or `v2` (`1.2`, or `1/2`; a 0-d array's chunk is `0`),
 * as the core spec's two chunk key encodings define them.
 */
export interface ChunkKeyEncodingV3 {
  readonly name: "default" | "v2";
  readonly separator: DimensionSeparator;
}

/**
 * Reads `chunk_key_encoding` (`{"name": "default"}`, the `v2` encoding with a separator, or the
 * bare name): the encoding, and the member as written (kept so that it is written
 * back as it was: TensorStore leaves out a default separator, zarr-python writes it). An unknown
 * encoding is an `UnsupportedExtensionError`; `must_understand: false` does not make it ignorable
 * (the spec does not allow that for chunk key encodings).
 */
export function parseChunkKeyEncoding(
  json: JsonValue,
  key = "zarr.json",
): { readonly encoding: ChunkKeyEncodingV3; readonly config: NamedConfig } {
  const field = "chunk_key_encoding";
  const config = readNamedConfig(json, key, field);
  if (config.name !== "default" && config.name !== "v2") {
    throw new UnsupportedExtensionError(
      `"${key}" has a chunk key encoding z does not support: ${JSON.stringify(config.name)} (supported: default, v2)`,
      { key, field, extension: config.name },
    );
  }
  const configuration = config.configuration;
  const extra = Object.keys(configuration ?? {}).find((k) => k !== "separator");
  if (extra !== undefined) {
    throw fieldError(key, `${field}.configuration`, 'only "separator"', configuration!, {
      at: `(unknown member ${JSON.stringify(extra)})`,
    });
  }
  const separator = configuration?.separator ?? (config.name === "default" ? "/" : ".");
  if (separator !== "/" && separator !== ".") {
    throw fieldError(key, `${field}.configuration.separator`, '"/" or "."', separator);
  }
  return { encoding: { name: config.name, separator }, config };
}

/** The store key of a chunk, relative to its array (see `ChunkKeyEncodingV3`). */
export function chunkKeyV3(coords: readonly number[], encoding: ChunkKeyEncodingV3): string {
  if (encoding.name === "v2") return coords.length === 0 ? "0" : coords.join(encoding.separator);
  return coords.length === 0 ? "c" : `c${encoding.separator}${coords.join(encoding.separator)}`;
}

/**
 * The chunk indices a key names, or `undefined` when the key is not one `chunkKeyV3` would write
 * for an array of `ndim` dimensions (`zarr.json`, `c/01`, indices beyond 2^53, ...).
 */
export function parseChunkKeyV3(key: string, ndim: number, encoding: ChunkKeyEncodingV3): number[] | undefined {
  if (encoding.name === "v2") return parseChunkKey(key, ndim, encoding.separator);
  if (ndim === 0) return key === "c" ? [] : undefined;
  const prefix = `c${encoding.separator}`;
  return key.startsWith(prefix) ? parseChunkKey(key.slice(prefix.length), ndim, encoding.separator) : undefined;
}
