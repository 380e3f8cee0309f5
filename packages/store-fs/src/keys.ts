import { StoreError, unsafeKeyReason } from "@z/meta";

/**
 * The `/`-separated segments of `key`, after making sure it cannot name anything outside the
 * store's root: no empty key, no leading or trailing `/`, no `//`, no `.` or `..` segment, no
 * backslash (a separator on Windows) and no NUL. Throws a `StoreError` naming the key otherwise.
 * zarr-python's `normalize_storage_path` would quietly repair some of these (`a//b`, `/a`, `a\b`);
 * a store refuses them, because the key a caller asked for is not the key it would get.
 */
export function keySegments(key: string, what = "key"): string[] {
  const reason = unsafeKeyReason(key);
  if (reason !== undefined) {
    throw new StoreError(`refusing ${what} ${JSON.stringify(key)}: ${reason}`, { key });
  }
  return key.split("/");
}

/** The segments of a directory prefix: `""` for the root, else a key with an optional trailing `/`. */
export function prefixSegments(prefix: string): string[] {
  if (prefix === "") return [];
  return keySegments(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix, "prefix");
}

/**
 * Splits a `list` prefix into the directory it lies in and the start of a name in that directory:
 * `a/b/c` → `{ dir: ["a", "b"], partial: "c" }`, `a/b/` → `{ dir: ["a", "b"], partial: "" }`.
 */
export function listPrefix(prefix: string): { dir: string[]; partial: string } {
  const slash = prefix.lastIndexOf("/");
  const partial = prefix.slice(slash + 1);
  if (partial.includes("\\") || partial.includes("\0")) {
    throw new StoreError(`refusing prefix ${JSON.stringify(prefix)}: it contains a backslash or NUL`, { key: prefix });
  }
  return { dir: slash === -1 ? [] : prefixSegments(prefix.slice(0, slash + 1)), partial };
}
