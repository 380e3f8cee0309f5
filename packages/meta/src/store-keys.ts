import { StoreError } from "./errors.js";

/**
 * Why `key` is not a canonical store key, or `undefined` when it is one: empty, a backslash (a
 * separator on Windows), NUL, a leading `/`, an empty segment (`//`, a trailing `/`), or a `.`/`..`
 * segment. Stores that map keys to paths, URLs or archive names refuse such keys: mapped, they
 * could escape the store or name something other than what the caller asked for.
 */
export function unsafeKeyReason(key: string): string | undefined {
  if (plainKey(key)) return undefined;
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

/**
 * True for a key that is certainly canonical, in one pass over its characters (no split, no
 * strings made): stores check the key of every chunk they read. Anything unusual (`\\`, NUL, an
 * empty segment, a segment starting with `.`) is left to the full check, which says why.
 */
function plainKey(key: string): boolean {
  const n = key.length;
  if (n === 0) return false;
  let segmentStart = true;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c === 92 || c === 0) return false; // "\\", NUL
    if (c === 47) {
      // "/": a leading one or "//"
      if (segmentStart) return false;
      segmentStart = true;
    } else {
      if (segmentStart && c === 46) return false; // a segment starting with "." (maybe "." or "..")
      segmentStart = false;
    }
  }
  return !segmentStart; // a trailing "/"
}

/** Throws a `StoreError` naming `key` unless it is canonical (see {@link unsafeKeyReason}). */
export function checkKey(key: string, what = "key"): void {
  const reason = unsafeKeyReason(key);
  if (reason !== undefined) throw new StoreError(`refusing ${what} ${JSON.stringify(key)}: ${reason}`, { key });
}
