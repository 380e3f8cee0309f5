import {
  type FetchFunction,
  type FetchTransportOptions,
  fetchTransport as anyFetchTransport,
  globalFetchTransport as anyGlobalFetchTransport,
  type Transport,
  type TransportResponse,
} from "@z/http-client";

// The seam between the client (signing, slots, timeouts, retries) and whatever sends the bytes
// lives in @z/http-client: `fetch` everywhere, in Node its HTTP/1.1 client or `node:https`
// (node/node-transport.ts, which the `node` entry makes the default). For S3 a transport follows
// no redirects (a `PermanentRedirect` is an error to report).
export type { FetchFunction, Transport, TransportRequest } from "@z/http-client";

/** An S3 answer, whichever transport brought it. */
export type S3Response = TransportResponse;

const S3_FETCH: FetchTransportOptions = {
  redirect: "manual",
  // no-store: a browser must never answer from its HTTP cache (S3 answers carry Last-Modified, which
  // browsers cache heuristically): a chunk read after another writer replaced it would be stale.
  cache: "no-store",
};

/** Requests with `fetch`: no redirects followed, never from a browser's HTTP cache. */
export function fetchTransport(fetcher: FetchFunction): Transport {
  return headless(anyFetchTransport(fetcher, S3_FETCH));
}

/** `transport` with no body for a HEAD, whatever its Content-Length says (the store reads every answer's). */
function headless(transport: Transport): Transport {
  return async (request) => {
    const response = await transport(request);
    return request.method === "HEAD" ? { ...response, body: async () => new Uint8Array(0) } : response;
  };
}

/** `fetch` with `globalThis.fetch`, looked up at each request (so it can be replaced or mocked). */
export const globalFetchTransport: Transport = headless(anyGlobalFetchTransport(S3_FETCH, "the S3Store options"));

let defaultTransport: Transport | undefined;

/**
 * Sets what stores made from then on send with when their options name no `fetch`; `undefined`
 * for `globalThis.fetch` (the default). The `node` entry (index-node.ts) sets the Node transport.
 */
export function setDefaultTransport(transport: Transport | undefined): void {
  defaultTransport = transport;
}

/** The transport stores made now use when their options name no `fetch`. */
export function defaultTransportNow(): Transport {
  return defaultTransport ?? globalFetchTransport;
}
