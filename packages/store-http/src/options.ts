import { StoreError } from "@z/meta";
import { fetchTransport, globalFetchTransport, type Transport } from "@z/http-client";
import { headerRecord } from "./headers.js";
import { getDefaultTransport } from "./transport.js";

/** `globalThis.fetch`, following redirects. */
const globalFetch = globalFetchTransport();

/** How requests are made: shared by {@link HttpStore} and {@link HttpByteSource}. */
export interface HttpOptions {
  /**
   * The `fetch` to send requests with. Without one, Node (the package's `node` export condition)
   * uses keep-alive connections of its own (an HTTP/1.1 client over `node:net` for `http:`,
   * `node:https` for `https:`), which is faster than Node's `fetch` and behaves the same way (redirects followed, gzip, deflate and br bodies decoded);
   * other runtimes use `globalThis.fetch`, looked up at each request. Pass
   * `fetch: globalThis.fetch` to use `fetch` in Node too (say, to intercept it in tests).
   */
  fetch?: (input: URL | RequestInfo, init?: RequestInit) => Promise<Response>;
  /** Headers sent with every request, e.g. `Authorization`. */
  headers?: HeadersInit;
  /** The most requests in flight at once (waiting for a retry does not count); default 6. */
  concurrency?: number;
  /** How many times a request is tried again after a 5xx, a 429, a network error, a truncated body or a timeout; default 3. Other 4xx responses are never retried. */
  retries?: number;
  /** The first retry waits about this many milliseconds, each next one twice as long (with jitter); default 200. */
  retryDelay?: number;
  /**
   * The longest wait between attempts; default 10,000 ms. A server's Retry-After (on a 429 or
   * 5xx, in seconds or as an HTTP date) is honoured up to this: a longer one is cut to it.
   */
  maxRetryDelay?: number;
  /** Milliseconds an attempt may take, body included, before it is abandoned (and retried); default 30,000; 0 for none. */
  timeout?: number;
}

export interface ResolvedHttpOptions {
  transport: Transport;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  concurrency: number;
  retries: number;
  retryDelay: number;
  maxRetryDelay: number;
  timeout: number;
}

export function resolveHttpOptions(options: HttpOptions): ResolvedHttpOptions {
  const number = (
    name: string,
    value: number | undefined,
    fallback: number,
    { integer = false, min = 0 } = {},
  ): number => {
    const resolved = value ?? fallback;
    if (
      typeof resolved !== "number" ||
      Number.isNaN(resolved) ||
      resolved < min ||
      (integer && !Number.isInteger(resolved))
    ) {
      throw new StoreError(
        `invalid HTTP option ${name}: expected ${integer ? "an integer" : "a number"} of at least ${min}, got ${String(value)}`,
      );
    }
    return resolved;
  };
  return {
    transport: options.fetch !== undefined ? fetchTransport(options.fetch) : (getDefaultTransport() ?? globalFetch),
    headers: headerRecord(options.headers),
    concurrency: number("concurrency", options.concurrency, 6, { integer: true, min: 1 }),
    retries: number("retries", options.retries, 3, { integer: true }),
    retryDelay: number("retryDelay", options.retryDelay, 200),
    maxRetryDelay: number("maxRetryDelay", options.maxRetryDelay, 10_000),
    timeout: number("timeout", options.timeout, 30_000),
  };
}
