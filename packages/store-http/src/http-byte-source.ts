import type { ByteSource } from "@z/meta";
import { isHtml, isOk, type HttpClient, type TransportResponse } from "@z/http-client";
import { httpStoreClient } from "./client.js";
import { HttpStoreError } from "./errors.js";
import { resolveHttpOptions, type HttpOptions } from "./options.js";
import { parseContentRange, partialMismatch } from "./ranges.js";

/**
 * One remote file read with HTTP range requests, with the retries, concurrency limit and timeouts
 * of {@link HttpStore}. It is a `ByteSource` (the contract in `@z/meta`), so
 * `ZipStore.open(new HttpByteSource(url))` reads a remote zip archive without downloading it.
 *
 * `size()` asks once (HEAD, else a one-byte range request) and remembers. `read` wants a 206 with
 * exactly the bytes asked for; a server that ignores Range is tolerated (the whole body is
 * fetched and sliced) but defeats the purpose. A missing file, HTML, or any mismatch is an
 * {@link HttpStoreError}.
 */
export class HttpByteSource implements ByteSource {
  /** The file's URL. */
  readonly url: URL;
  readonly #client: HttpClient;
  #size: Promise<number> | undefined;

  constructor(url: string | URL, options: HttpOptions = {}) {
    this.url = new URL(url);
    this.#client = httpStoreClient(resolveHttpOptions(options));
  }

  /** The file's size in bytes, asked for once. */
  size(options: { signal?: AbortSignal } = {}): Promise<number> {
    this.#size ??= this.#fetchSize(options.signal);
    // A failed lookup is not remembered, so a later call can try again.
    this.#size.catch(() => {
      this.#size = undefined;
    });
    return this.#size;
  }

  /** Exactly `length` bytes from `offset`, with one range request. */
  async read(offset: number, length: number, options: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
    if (length === 0) return new Uint8Array(0);
    const range = { offset, length };
    const header = `bytes=${offset}-${offset + length - 1}`;
    return this.#client.send(
      {
        method: "GET",
        url: this.url,
        headers: { range: header, "accept-encoding": "identity" },
        signal: options.signal,
      },
      async (response) => {
        this.#check(response, "GET");
        const body = await response.body();
        if (response.status === 206) {
          const contentRange = response.headers.get("content-range");
          const problem = partialMismatch(range, parseContentRange(contentRange), body.length, contentRange);
          if (problem === undefined && body.length === length) return body;
          throw this.#error(
            "GET",
            response.status,
            `answered Range: ${header} with ${problem ?? `${body.length} bytes`}`,
          );
        }
        if (body.length < offset + length)
          throw this.#error(
            "GET",
            response.status,
            `has ${body.length} bytes, fewer than the ${offset + length} needed`,
          );
        return body.slice(offset, offset + length);
      },
    );
  }

  async #fetchSize(signal: AbortSignal | undefined): Promise<number> {
    const fromHead = await this.#client.send(
      { method: "HEAD", url: this.url, headers: { "accept-encoding": "identity" }, signal },
      async (response) => {
        await response.discard();
        const length = response.headers.get("content-length");
        // Some servers (and pre-signed URLs) refuse HEAD; a range request tells the size too.
        return isOk(response.status) &&
          length !== null &&
          /^\s*\d+\s*$/.test(length) &&
          response.headers.get("content-encoding") === null
          ? Number(length)
          : undefined;
      },
    );
    if (fromHead !== undefined) return fromHead;
    return this.#client.send(
      { method: "GET", url: this.url, headers: { range: "bytes=0-0", "accept-encoding": "identity" }, signal },
      async (response) => {
        if (response.status === 416) {
          await response.discard();
          return 0;
        }
        this.#check(response, "GET");
        if (response.status === 206) {
          const total = parseContentRange(response.headers.get("content-range"))?.total;
          await response.discard();
          if (total === undefined) throw this.#error("GET", 206, "gave no total size in Content-Range");
          return total;
        }
        return (await response.body()).length;
      },
    );
  }

  #check(response: TransportResponse, method: string): void {
    if (!isOk(response.status))
      throw this.#error(method, response.status, `failed: ${response.status} ${response.statusText}`.trim());
    if (isHtml(response)) throw this.#error(method, response.status, "answered with an HTML page instead of the file");
  }

  #error(method: string, status: number, detail: string): HttpStoreError {
    return new HttpStoreError(`${method} ${this.url.href} ${detail}`, { method, url: this.url.href, status });
  }
}
