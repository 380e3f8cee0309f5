import { StoreError, type ByteRange } from "@z/meta";

/**
 * Why `key` is not a canonical store key, or `undefined` when it is one: empty, a backslash (a
 * separator on Windows, and zip names use `/` only), NUL, a leading `/`, an empty segment, or a
 * `.`/`..` segment. A zip cannot be escaped, but tools that extract it can be, and a key that is
 * not canonical is not the key the caller meant; the same rules as `@z/store-fs`'s.
 */
export function unsafeReason(key: string): string | undefined {
  if (key === "") return "it is empty";
  if (key.includes("\\")) return "it contains a backslash";
  if (key.includes("\0")) return "it contains a NUL character";
  if (key.startsWith("/")) return "it is absolute (starts with /)";
  for (const segment of key.split("/")) {
    if (segment === "") return "it has an empty segment (// or a trailing /)";
    if (segment === "." || segment === "..") return `it has a ${JSON.stringify(segment)} segment`;
  }
  return undefined;
}

/** Throws a `StoreError` naming `key` unless it is canonical. */
export function checkKey(key: string, what = "key"): void {
  const reason = unsafeReason(key);
  if (reason !== undefined) throw new StoreError(`refusing ${what} ${JSON.stringify(key)}: ${reason}`, { key });
}

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
  const fields: [string, number | undefined][] = "suffixLength" in range ? [["suffixLength", range.suffixLength]] : [["offset", range.offset], ["length", range.length]];
  for (const [name, value] of fields) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
      throw new StoreError(`invalid byte range for ${JSON.stringify(key)}: ${name} must be a non-negative integer, got ${value}`, { key });
    }
  }
  if ("suffixLength" in range) return { start: Math.max(0, size - range.suffixLength), end: size };
  const start = Math.min(range.offset, size);
  return { start, end: range.length === undefined ? size : Math.min(size, range.offset + range.length) };
}
