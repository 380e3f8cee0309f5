/**
 * The seam between {@link HttpClient} (slots, timeouts, retries) and whatever sends the bytes:
 * `fetch` everywhere (fetch-transport.ts), in Node our HTTP/1.1 client or `node:https` (node/node-transport.ts). A
 * transport makes one attempt, follows redirects, and hands back a response whose body is read
 * whole or thrown away, nothing in between, so no transport has to build a WHATWG `Response`.
 */
export interface TransportRequest {
  method: "GET" | "HEAD" | "PUT" | "DELETE";
  url: URL;
  /** Every header to send (the options' and the request's, merged), by lower-case name. */
  headers: Readonly<Record<string, string>>;
  body?: Uint8Array;
  /** Aborts the attempt: a pending `send` or `body()` then rejects. */
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  /**
   * The whole body, decoded when it came with a Content-Encoding. A body of another length than
   * its Content-Length rejects with a `TransientFailure` or an `Error` saying what went wrong.
   */
  body(): Promise<Uint8Array>;
  /** Lets go of the body unread, so the connection can serve another request. */
  discard(): Promise<void>;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** A 2xx status. */
export const isOk = (status: number): boolean => status >= 200 && status < 300;

let defaultTransport: Transport | undefined;

/**
 * Sets what stores made from then on use when their options name no `fetch`; `undefined` for
 * `fetch` (the default). The `node` entry (index-node.ts) sets the Node transport.
 */
export function setDefaultTransport(transport: Transport | undefined): void {
  defaultTransport = transport;
}

/** The transport set by {@link setDefaultTransport}, if any. */
export function getDefaultTransport(): Transport | undefined {
  return defaultTransport;
}
