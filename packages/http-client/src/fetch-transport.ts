import { StoreError } from "@z/meta";
import { discardBody, readBody } from "./body.js";
import type { Transport } from "./transport.js";

/** The `fetch` requests are sent with. */
export type FetchFunction = (input: URL | RequestInfo, init?: RequestInit) => Promise<Response>;

/** How a {@link fetchTransport} asks `fetch`. */
export interface FetchTransportOptions {
  /**
   * `"follow"` (the default) as an HTTP store wants; `"manual"` for S3, whose redirects
   * (`PermanentRedirect` to another region) are errors to report, not places to go.
   */
  redirect?: "follow" | "manual";
  /** The `cache` mode; unset, `fetch`'s default. */
  cache?: RequestCache;
}

/** Requests with `fetch` (which decodes Content-Encoding itself). */
export function fetchTransport(fetcher: FetchFunction, options: FetchTransportOptions = {}): Transport {
  const { redirect = "follow", cache } = options;
  return async ({ method, url, headers, body, signal }) => {
    // An undefined `body` or `cache` is as good as none (WebIDL dictionaries skip them). A copy of
    // the body would be made by fetch anyway; pass a plain ArrayBuffer-backed view.
    const response = await fetcher(url, {
      method,
      headers,
      body: body as Uint8Array<ArrayBuffer>,
      signal,
      redirect,
      cache,
    });
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      body: () => readBody(response),
      discard: () => discardBody(response),
    };
  };
}

/**
 * {@link fetchTransport} over `globalThis.fetch`, looked up at each request (so it can be replaced
 * or mocked); `where` names what could have been given a `fetch` instead, for the error when
 * there is none.
 */
export function globalFetchTransport(options: FetchTransportOptions = {}, where = "the options"): Transport {
  return fetchTransport((input, init) => {
    if (typeof globalThis.fetch !== "function")
      throw new StoreError(`no fetch: this runtime has no global fetch; pass one in ${where}`);
    return globalThis.fetch(input, init);
  }, options);
}
