import { checkByteRange, checkKey, StoreError, type ByteRange } from "@z/meta";

// A zip cannot be escaped, but tools that extract it can be: keys follow the shared rules of @z/meta.
export { checkKey };

/** A `listDir` prefix in the form names are matched with: `""` or `a/b/`. */
export function directoryPrefix(prefix: string): string {
  if (prefix === "") return "";
  const bare = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
  checkKey(bare, "prefix");
  return `${bare}/`;
}

/** Checks a `list` prefix: everything up to its last `/` must be a canonical directory. */
export function checkListPrefix(prefix: string): void {
  const slash = prefix.lastIndexOf("/");
  const partial = prefix.slice(slash + 1);
  if (partial.includes("\\") || partial.includes("\0")) {
    throw new StoreError(`refusing prefix ${JSON.stringify(prefix)}: it contains a backslash or NUL`, { key: prefix });
  }
  if (slash >= 0) directoryPrefix(prefix.slice(0, slash + 1));
}

/** `range` clamped to a value of `size` bytes, like `Uint8Array.prototype.slice`. */
export function clampRange(key: string, range: ByteRange, size: number): { start: number; end: number } {
  checkByteRange(key, range);
  if ("suffixLength" in range) return { start: Math.max(0, size - range.suffixLength), end: size };
  const start = Math.min(range.offset, size);
  return { start, end: range.length === undefined ? size : Math.min(size, range.offset + range.length) };
}
