/**
 * The seam between {@link HttpClient} (slots, timeouts, retries) and whatever sends the bytes:
 * `fetch` everywhere (fetch-transport.ts), in Node our HTTP/1.1 client or `node:https`
 * (node/node-transport.ts, the `./node` entry). A transport makes one attempt, follows redirects
 * or not as it was made to, and hands back a response whose body is read whole or thrown away,
 * nothing in between, so no transport has to build a WHATWG `Response`.
 */
export interface TransportRequest {
  method: "GET" | "HEAD" | "PUT" | "DELETE";
  url: URL;
  /** Every header to send (the options' and the request's, merged; signed ones included), by lower-case name. */
  headers: Readonly<Record<string, string>>;
  body?: Uint8Array;
  /** Aborts the attempt: a pending `send` or `body()` then rejects. */
  signal: AbortSignal;
}

/** An answer, whichever transport brought it. */
export interface TransportResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  /**
   * The whole body, decoded when it came with a Content-Encoding. A body of
   * another length than its Content-Length rejects with a `TransientFailure`, a connection lost
   * part way with an `Error` saying what went wrong.
   */
  body(): Promise<Uint8Array>;
  /** Lets go of the body unread, so the connection can serve another request (or is closed). */
  discard(): Promise<void>;
}

export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

/** A 2xx status. */
export const isOk = (status: number): boolean => status >= 200 && status < 300;
