import { StoreError, type ByteRange, type StoreOptions, type WritableStore } from "@z/meta";
import { isHtml, isOk, type HttpClient, type TransportResponse } from "@z/http-client";
import { httpStoreClient } from "./client.js";
import { HttpStoreError } from "./errors.js";
import { baseUrl, keyUrl } from "./keys.js";
import { resolveHttpOptions, type HttpOptions } from "./options.js";
import { parseContentRange, partialMismatch, rangeHeader, sliceRange } from "./ranges.js";

/** {@link HttpOptions} plus what a store does with responses and writes. */
export interface HttpStoreOptions extends HttpOptions {
  /** Allow `set` (PUT) and `delete` (DELETE); default `false`, when both throw a read-only `StoreError`. */
  writable?: boolean;
  /**
   * Treat a successful response that is an HTML page (`Content-Type: text/html`) as an error;
   * default `true`. No Zarr key holds HTML, but many servers answer a missing path with an HTML
   * page and status 200 (single-page-app fallbacks, login and error pages); taking that page
   * for a chunk would decode garbage or fail far from the cause.
   */
  rejectHtml?: boolean;
  /**
   * The statuses that mean "no such key" (`get` gives `undefined`, `delete` succeeds); default
   * `[404]`. S3 answers 403 for a missing key when the caller may not list the bucket: pass
   * `[403, 404]` for such buckets, knowing that a real permission problem then reads as missing
   * chunks (fill values) instead of an error.
   */
  missingStatuses?: readonly number[];
  /** The chunk key separator this store suggests to arrays, like zarr-python's `dimension_separator`. */
  dimensionSeparator?: "." | "/";
}

/**
 * A store over HTTP(S), like zarr-python's `FSStore` on an `http://` URL: the key `foo/0.0` is
 * `GET <url>/foo/0.0`. Works wherever `fetch` does (browsers, Node 18+, Deno, workers). In Node
 * (the package's `node` export condition) requests go over keep-alive connections of its own
 * instead (an HTTP/1.1 client over `node:net` for `http:`, `node:https` for `https:`), unless the
 * options pass a `fetch`: the same behaviour (redirects followed, gzip, deflate and br bodies
 * decoded) for a fraction of the CPU time of Node's `fetch`.
 *
 * - `get`: 200 gives the body; a status in `missingStatuses` (404) gives `undefined`.
 * - `getRange`: `Range: bytes=a-b` (or `bytes=-n`); a 206 must carry a Content-Range matching the
 *   request and a body of its length; a 200 (a server ignoring Range) is sliced; a 416 means the
 *   range starts past the end of an existing value (an empty result).
 * - A body shorter or longer than its Content-Length is never returned: it is retried, then an
 *   error. So are 5xx and 429 responses, network errors and timeouts (with exponential backoff
 *   and jitter, honouring Retry-After up to `maxRetryDelay`); other 4xx responses that do not
 *   mean a missing key fail at once.
 * - A body sent with a Content-Encoding (gzip, deflate, br) is decoded; Range requests ask for
 *   `identity`, since ranges count stored bytes. In Node a coding it cannot decode is an error
 *   (fetch would hand the bytes on as they are).
 * - Cross-origin in a browser, the server must allow the origin (CORS) and expose Content-Range
 *   (and Retry-After, to be honoured): `Access-Control-Expose-Headers: Content-Range, Retry-After`.
 * - `set`/`delete` send PUT/DELETE when `writable`; otherwise they throw a read-only `StoreError`.
 * - There is no `list`/`listDir`: plain HTTP cannot enumerate keys (consolidated metadata can).
 *
 * Every failure is an {@link HttpStoreError} (a `StoreError`) naming the method, URL, status and
 * key; an aborted call rejects with its signal's reason.
 */
export class HttpStore implements WritableStore {
  /** The base URL, with a path ending in `/`. */
  readonly url: URL;
  /** Whether `set`/`delete` send PUT/DELETE ({@link HttpStoreOptions.writable}). */
  readonly writable: boolean;
  /** See {@link HttpStoreOptions.dimensionSeparator}. */
  readonly dimensionSeparator: "." | "/" | undefined;
  /** Every value read is a response body of its own (see `Store.freshValues`). */
  readonly freshValues = true;
  readonly #client: HttpClient;
  readonly #rejectHtml: boolean;
  readonly #missing: ReadonlySet<number>;

  constructor(url: string | URL, options: HttpStoreOptions = {}) {
    this.url = baseUrl(url);
    this.writable = options.writable ?? false;
    this.dimensionSeparator = options.dimensionSeparator;
    this.#client = httpStoreClient(resolveHttpOptions(options));
    this.#rejectHtml = options.rejectHtml ?? true;
    const missing = options.missingStatuses ?? [404];
    for (const status of missing) {
      if (!(Number.isInteger(status) && status >= 400 && status < 500))
        throw new StoreError(`invalid missingStatuses: ${status} is not a 4xx status`);
    }
    this.#missing = new Set(missing);
  }

  /** The URL `key` is read from and written to. Throws a `StoreError` for keys that are not canonical. */
  keyUrl(key: string): URL {
    return keyUrl(this.url, key);
  }

  /** GETs the key's URL: the body on success, `undefined` for a status in `missingStatuses`. */
  async get(key: string, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    const url = this.keyUrl(key);
    return this.#client.send({ method: "GET", url, key, signal: options.signal }, async (response) => {
      if (this.#missing.has(response.status)) return discard(response, undefined);
      if (!isOk(response.status)) throw await this.#failure(response, "GET", url, key);
      if (response.status === 206)
        throw await this.#failure(response, "GET", url, key, "a partial (206) response to a request without Range");
      this.#checkHtml(response, url, key);
      return response.body();
    });
  }

  /**
   * Part of the value with a Range request, clamped like `Uint8Array.prototype.slice`;
   * `undefined` for a missing key.
   */
  async getRange(key: string, range: ByteRange, options: StoreOptions = {}): Promise<Uint8Array | undefined> {
    const url = this.keyUrl(key);
    const { header, probe } = rangeHeader(key, range);
    // Ranges count bytes as stored: ask for them unencoded (browsers ignore this; they must).
    const headers = { range: header, "accept-encoding": "identity" };
    return this.#client.send({ method: "GET", url, key, headers, signal: options.signal }, async (response) => {
      if (this.#missing.has(response.status)) return discard(response, undefined);
      // Range Not Satisfiable: the value exists, the range starts at or past its end.
      if (response.status === 416) return discard(response, new Uint8Array(0));
      if (!isOk(response.status)) throw await this.#failure(response, "GET", url, key);
      this.#checkHtml(response, url, key);
      const body = await response.body();
      if (response.status !== 206) return sliceRange(body, probe ? { offset: 0, length: 0 } : range);
      const contentRange = response.headers.get("content-range");
      const problem = partialMismatch(range, parseContentRange(contentRange), body.length, contentRange);
      if (problem !== undefined) {
        throw new HttpStoreError(`GET ${url.href} (Range: ${header}) answered with ${problem}`, {
          method: "GET",
          url: url.href,
          status: 206,
          key,
        });
      }
      return probe ? new Uint8Array(0) : body;
    });
  }

  /** PUTs `value` at the key's URL; any 2xx is success. */
  async set(key: string, value: Uint8Array, options: StoreOptions = {}): Promise<void> {
    const url = this.keyUrl(key);
    this.#checkWritable(key);
    // Copied now: the caller may change its buffer while the request (or a retry) is under way.
    const body = value.slice();
    const headers = { "content-type": "application/octet-stream" };
    await this.#client.send({ method: "PUT", url, key, headers, body, signal: options.signal }, async (response) => {
      if (!isOk(response.status)) throw await this.#failure(response, "PUT", url, key);
      await response.discard();
    });
  }

  /** DELETEs the key's URL; a missing key (a status in `missingStatuses`) is fine. */
  async delete(key: string, options: StoreOptions = {}): Promise<void> {
    const url = this.keyUrl(key);
    this.#checkWritable(key);
    await this.#client.send({ method: "DELETE", url, key, signal: options.signal }, async (response) => {
      if (!isOk(response.status) && !this.#missing.has(response.status))
        throw await this.#failure(response, "DELETE", url, key);
      await response.discard();
    });
  }

  #checkWritable(key: string): void {
    if (!this.writable)
      throw new StoreError(
        `cannot write ${JSON.stringify(key)}: the HttpStore at ${this.url.href} is read-only (pass { writable: true } to PUT and DELETE)`,
        { key },
      );
  }

  #checkHtml(response: TransportResponse, url: URL, key: string): void {
    if (!this.#rejectHtml || !isHtml(response)) return;
    void response.discard();
    throw new HttpStoreError(
      `GET ${url.href} answered ${response.status} with an HTML page (Content-Type ${response.headers.get("content-type")}) instead of the value of ${JSON.stringify(key)}: the server may answer missing paths with a page (pass { rejectHtml: false } to accept HTML values)`,
      { method: "GET", url: url.href, status: response.status, key },
    );
  }

  async #failure(
    response: TransportResponse,
    method: string,
    url: URL,
    key: string,
    detail?: string,
  ): Promise<HttpStoreError> {
    await response.discard();
    const status = `${response.status} ${response.statusText}`.trim();
    return new HttpStoreError(`${method} ${url.href} failed: ${detail ?? status}`, {
      method,
      url: url.href,
      status: response.status,
      key,
    });
  }
}

async function discard<T>(response: TransportResponse, result: T): Promise<T> {
  await response.discard();
  return result;
}
