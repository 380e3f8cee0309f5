import { StoreError } from "@z/meta";
import { discardBody, readBody } from "./response-body.js";
import type { Transport } from "./transport.js";

export type FetchFunction = (input: URL | RequestInfo, init?: RequestInit) => Promise<Response>;

/** Requests with `fetch` (which follows redirects and decodes Content-Encoding itself). */
export function fetchTransport(fetcher: FetchFunction): Transport {
  return async ({ method, url, headers, body, signal }) => {
    const response = await fetcher(url, {
      method,
      headers,
      // A copy would be made by fetch anyway; pass a plain ArrayBuffer-backed view.
      ...(body === undefined ? {} : { body: body as Uint8Array<ArrayBuffer> }),
      signal,
      redirect: "follow",
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

/** `fetch` with `globalThis.fetch`, looked up at each request (so it can be replaced or mocked). */
export const globalFetchTransport: Transport = fetchTransport((input, init) => {
  if (typeof globalThis.fetch !== "function")
    throw new StoreError("no fetch: this runtime has no global fetch; pass one in the options");
  return globalThis.fetch(input, init);
});
