import { checkKey, StoreError } from "@z/meta";

/** The store's base URL with a path ending in `/`, so keys resolve below it. */
export function baseUrl(url: string | URL): URL {
  let base: URL;
  try {
    base = new URL(url);
  } catch (err) {
    throw new StoreError(
      `invalid HttpStore URL ${JSON.stringify(String(url))}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
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
  checkKey(key); // URL resolution would turn `a/../b` into `b` and `/x` into the server root
  const url = new URL(base.href);
  url.pathname = base.pathname + key.split("/").map(encodeURIComponent).join("/");
  return url;
}
