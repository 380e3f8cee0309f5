import type { TransportRequest } from "../transport.js";

/** What is sent on one hop: the request as it stands after the redirects so far. */
export interface Hop {
  method: TransportRequest["method"];
  url: URL;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

/** As many as `fetch` follows before it fails. */
export const MAX_REDIRECTS = 20;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Dropped with the body when a 303 turns a request into a GET (the Fetch standard's "request-body-header names"). */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];
/** Not sent to another origin (as undici's fetch does). */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie"];

/**
 * The next hop after a response with `status` and `location`, as `fetch` (`redirect: "follow"`)
 * makes it; `undefined` when the response is not a redirect to follow (no Location: it is then
 * the answer). A 303 turns a PUT or DELETE into a GET without body; 301, 302, 307 and 308 keep
 * the method and body (only POST, which stores never send, would change). Credentials stay with
 * their origin. Throws for a Location that is not an http(s) URL.
 */
export function redirectHop(hop: Hop, status: number, location: string | undefined): Hop | undefined {
  if (!REDIRECTS.has(status) || location === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new Error(`a ${status} redirect to an invalid URL ${JSON.stringify(location)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`a ${status} redirect to ${url.href}, which is not http(s)`);
  // The fragment is the client's business; fetch keeps the original one when the new URL has none.
  url.hash = "";
  const headers = { ...hop.headers };
  let { method, body } = hop;
  if (status === 303 && method !== "GET" && method !== "HEAD") {
    method = "GET";
    body = undefined;
    for (const name of BODY_HEADERS) delete headers[name];
  }
  if (url.origin !== hop.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  return { method, url, headers, body };
}
