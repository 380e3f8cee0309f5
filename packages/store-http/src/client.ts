import { HttpClient } from "@z/http-client";
import { HttpStoreError } from "./errors.js";
import type { ResolvedHttpOptions } from "./options.js";

/**
 * The client {@link HttpStore} and {@link HttpByteSource} send with (`@z/http-client`'s, with the
 * options' headers under each request's): retries exhausted end in an {@link HttpStoreError}.
 */
export function httpStoreClient(options: ResolvedHttpOptions): HttpClient {
  return new HttpClient(options, {
    headers: (request) =>
      request.headers === undefined ? options.headers : { ...options.headers, ...request.headers },
    exhausted: (request, err, tries) =>
      new HttpStoreError(
        `${request.method} ${request.url.href} failed${tries > 1 ? ` after ${tries} attempts` : ""}: ${err.message}`,
        {
          method: request.method,
          url: request.url.href,
          status: err.status,
          key: request.key,
          cause: err.cause ?? err,
        },
      ),
  });
}
