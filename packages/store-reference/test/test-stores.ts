// Stores the tests read reference sets and targets from, with only @z/meta (this package's layer):
// a directory, and files over HTTP with fetch and Range headers.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ByteRange, Store } from "@z/meta";

/** A directory, read with node:fs; a missing file is `undefined`. */
export function directory(root: string): Store & { reads: string[] } {
  const reads: string[] = [];
  const read = async (key: string): Promise<Uint8Array | undefined> => {
    reads.push(key);
    try {
      return new Uint8Array(await readFile(join(root, key)));
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT" || (error as { code?: string }).code === "ENOTDIR")
        return undefined;
      throw error;
    }
  };
  return {
    reads,
    get: read,
    getRange: async (key: string, range: ByteRange) => {
      const b = await read(key);
      if (b === undefined) return undefined;
      return "suffixLength" in range
        ? b.subarray(Math.max(0, b.length - range.suffixLength))
        : b.subarray(range.offset, range.length === undefined ? undefined : range.offset + range.length);
    },
  };
}

/** Files under `base` (ending in `/`) over HTTP: Range requests for `getRange`; a 404 is `undefined`. */
export function http(base: string): Store {
  const fetchKey = async (key: string, headers: Record<string, string>): Promise<Uint8Array | undefined> => {
    const response = await fetch(base + key.split("/").map(encodeURIComponent).join("/"), { headers });
    if (response.status === 404 || response.status === 416)
      return response.status === 416 ? new Uint8Array(0) : undefined;
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${key}`);
    return new Uint8Array(await response.arrayBuffer());
  };
  return {
    get: (key) => fetchKey(key, {}),
    getRange: (key, range) =>
      fetchKey(key, {
        range:
          "suffixLength" in range
            ? `bytes=-${range.suffixLength}`
            : `bytes=${range.offset}-${range.length === undefined ? "" : range.offset + range.length - 1}`,
      }),
  };
}

/** Values in a Map (a reference file and its targets, made in a test). */
export function memory(entries: Record<string, Uint8Array | string>): Store {
  const values = new Map(
    Object.entries(entries).map(([k, v]) => [k, typeof v === "string" ? new TextEncoder().encode(v) : v]),
  );
  return {
    get: async (key) => values.get(key)?.slice(),
    getRange: async (key, range) => {
      const b = values.get(key);
      if (b === undefined) return undefined;
      return "suffixLength" in range
        ? b.slice(Math.max(0, b.length - range.suffixLength))
        : b.slice(range.offset, range.length === undefined ? undefined : range.offset + range.length);
    },
  };
}
