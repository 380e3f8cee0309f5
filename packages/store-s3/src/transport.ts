import { StoreError } from "@z/meta";
import { readBody } from "./body.js";

/**
 * The seam between {@link S3Client} (signing, slots, timeouts, retries) and whatever sends the
 * bytes: `fetch` everywhere, `node:http`/`node:https` in Node (node/node-transport.ts, which the
 * `node` entry makes the default). A transport makes one attempt, follows no redirects, and hands
 * back a response whose body is read whole or let go of, nothing in between.
 */
export interface TransportRequest {
  method: "GET" | "HEAD" | "PUT" | "DELETE";
  url: URL;
  /** Every header to send (signed ones included), by lower-case name. */
  headers: Readonly<Record<string, string>>;
  body?: Uint8Array;
  /** Aborts the attempt: a pending send or `body()` then rejects. */
  signal: AbortSignal;
}

/** An S3 answer, whichever transport brought it. */
export interface S3Response {
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  /**
   * The whole body (decoded when it came with a Content-Encoding). A body of another length than
   * its Content-Length rejects with a `TransientFailure`, a connection lost part way with an `Error`.
   */
  body(): Promise<Uint8Array>;
  /** Lets go of the body unread, so the connection can serve another request (or is closed). */
  discard(): Promise<void>;
}

export type Transport = (request: TransportRequest) => Promise<S3Response>;

/** Requests with `fetch`: no redirects followed, never from a browser's HTTP cache. */
export function fetchTransport(fetcher: FetchFunction): Transport {
  return async ({ method, url, headers, body, signal }) => {
    const response = await fetcher(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body: body as Uint8Array<ArrayBuffer> }),
      signal,
      redirect: "manual",
      // no-store: a browser must never answer from its HTTP cache (S3 answers carry Last-Modified, which
      // browsers cache heuristically): a chunk read after another writer replaced it would be stale.
      cache: "no-store",
    });
    return {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      // A HEAD has no body, whatever its Content-Length says.
      body: async () => (method === "HEAD" ? new Uint8Array(0) : readBody(response)),
      discard: async () => {
        try {
          await response.body?.cancel();
        } catch {
          // nothing to do: the body is being thrown away
        }
      },
    };
  };
}

/** `fetch` with `globalThis.fetch`, looked up at each request (so it can be replaced or mocked). */
export const globalFetchTransport: Transport = fetchTransport((input, init) => {
  if (typeof globalThis.fetch !== "function")
    throw new StoreError("no fetch: this runtime has no global fetch; pass one in the S3Store options");
  return globalThis.fetch(input, init);
});

/** The `fetch` requests are sent with. */
export type FetchFunction = (input: URL | RequestInfo, init?: RequestInit) => Promise<Response>;

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
