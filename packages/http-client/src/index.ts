/**
 * The HTTP client under `@z/store-http` and `@z/store-s3`: a transport seam (`fetch` here; in
 * Node, `@z/http-client/node`'s HTTP/1.1 client over `node:net` for `http:` and `node:https` for
 * `https:`), at most `concurrency` requests in flight, a timeout per attempt, retries with backoff
 * on transient failures (5xx, 429 with `Retry-After`, dropped connections, truncated bodies), and
 * bodies checked against their Content-Length. A store adds its headers (S3 signs each attempt),
 * its reading of error answers and its own error class.
 *
 * ```ts
 * import { HttpClient, TransientFailure, globalFetchTransport, isOk } from "@z/http-client";
 *
 * const client = new HttpClient(
 *   { transport: globalFetchTransport(), concurrency: 6, retries: 3, retryDelay: 200, maxRetryDelay: 10_000, timeout: 30_000 },
 *   {
 *     headers: (request) => ({ ...request.headers }),
 *     exhausted: (request, failure, tries) => new Error(`${request.method} ${request.url.href} failed after ${tries} attempts: ${failure.message}`),
 *   },
 * );
 * const bytes = await client.send({ method: "GET", url: new URL("https://example.com/x") }, async (response) => {
 *   if (!isOk(response.status)) throw new Error(`${response.status}`);
 *   return response.body();
 * });
 * ```
 *
 * @packageDocumentation
 */
export {
  HttpClient,
  retryOverloaded,
  type HttpClientHooks,
  type HttpClientOptions,
  type HttpRequest,
  type ResponseHandler,
} from "./client.js";
export { TransientFailure } from "./errors.js";
export { discardBody, isHtml, readBody } from "./body.js";
export {
  fetchTransport,
  globalFetchTransport,
  type FetchFunction,
  type FetchTransportOptions,
} from "./fetch-transport.js";
export { isOk, type Transport, type TransportRequest, type TransportResponse } from "./transport.js";
