import { StoreError } from "@z/meta";

/**
 * Why `key` cannot be mapped to a URL below the store's, or `undefined` when it can: the same
 * rules as the other stores' (no empty key or segment, no `.`/`..` segment, no leading `/`, no
 * backslash or NUL). URL resolution would turn `a/../b` into `b` and `/x` into the server root,
 * so the request would not be for the key asked for.
 */
function unsafeReason(key: string): string | undefined {
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

/** The store's base URL with a path ending in `/`, so keys resolve below it. */
export function baseUrl(url: string | URL): URL {
  let base: URL;
  try {
    base = new URL(url);
  } catch (err) {
    throw new StoreError(`invalid HttpStore URL ${JSON.stringify(String(url))}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new StoreError(`invalid HttpStore URL ${JSON.stringify(base.href)}: only http: and https: are supported`);
  }
  base.hash = "";
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return base;
}

/**
 * The URL of `key`: each segment percent-encoded (so `?`, `#`, `%` and spaces in keys stay part
 * of the path) and appended to the base path; the base URL's query (say, a signed token) is kept.
 */
export function keyUrl(base: URL, key: string): URL {
  const reason = unsafeReason(key);
  if (reason !== undefined) throw new StoreError(`refusing key ${JSON.stringify(key)}: ${reason}`, { key });
  const url = new URL(base.href);
  url.pathname = base.pathname + key.split("/").map(encodeURIComponent).join("/");
  return url;
}
