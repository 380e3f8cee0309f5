import { StoreError, parseRetryAfter, retryDelay, Semaphore, sleep } from "@z/meta";
import { TransientFailure } from "./errors.js";
import type { Transport, TransportResponse } from "./transport.js";

export interface HttpRequest {
  method: "GET" | "HEAD" | "PUT" | "DELETE";
  url: URL;
  /** The store key the request is for, for error messages. */
  key?: string;
  /** Lower-case names: they replace the client's headers of the same name. */
  headers?: Record<string, string>;
  body?: Uint8Array;
  signal?: AbortSignal;
}

/** How a {@link HttpClient} sends: already checked (each store checks its own options). */
export interface HttpClientOptions {
  transport: Transport;
  /** The most attempts in flight at once (waiting for a retry does not count). */
  concurrency: number;
  /** How many times a transient failure is tried again. */
  retries: number;
  /** The first retry's wait in milliseconds (doubling, with jitter). */
  retryDelay: number;
  /** The longest wait between attempts, Retry-After included. */
  maxRetryDelay: number;
  /** Milliseconds an attempt may take, body included; 0 for no limit. */
  timeout: number;
}

/** What a store adds to the client: its headers (signing), its reading of error answers, its errors. */
export interface HttpClientHooks<R extends HttpRequest> {
  /** The headers of one attempt (called anew for each: S3 signs each attempt). */
  headers(request: R): Record<string, string> | Promise<Record<string, string>>;
  /**
   * Looks at each answer before the handler: throws a {@link TransientFailure} for one worth
   * trying again, else gives the response on (the same, or one with its body read already).
   * Unset: {@link retryOverloaded}.
   */
  screen?(response: TransportResponse): Promise<TransportResponse>;
  /** The error thrown when attempts run out: the store's own, saying what the last attempt met. */
  exhausted(request: R, failure: TransientFailure, tries: number): Error;
}

/**
 * Turns a response into a result, inside the attempt (so reading the body holds a concurrency
 * slot and counts towards the timeout). Throw a {@link TransientFailure} to try again, anything
 * else to fail at once.
 */
export type ResponseHandler<T> = (response: TransportResponse) => Promise<T>;

/**
 * The default screen: 5xx and 429 Too Many Requests (the server asking to come back later, often
 * saying when in Retry-After, like 503) are tried again, never a failure of the key.
 */
export async function retryOverloaded(response: TransportResponse): Promise<TransportResponse> {
  if (response.status >= 500 || response.status === 429) {
    await response.discard();
    throw new TransientFailure(
      `${response.status} ${response.statusText}`.trim(),
      response.status,
      parseRetryAfter(response.headers.get("retry-after")),
    );
  }
  return response;
}

/**
 * Sends requests with a transport (`fetch`, or the Node transport in Node): at most
 * `concurrency` at once, each attempt bounded by `timeout`, retried with backoff on transient
 * failures, aborted by the caller's signal (whose reason is then thrown as it is, at any point:
 * waiting for a slot, in flight, between attempts).
 */
export class HttpClient<R extends HttpRequest = HttpRequest> {
  readonly #options: HttpClientOptions;
  readonly #hooks: HttpClientHooks<R>;
  readonly #screen: (response: TransportResponse) => Promise<TransportResponse>;
  readonly #slots: Semaphore;

  constructor(options: HttpClientOptions, hooks: HttpClientHooks<R>) {
    this.#options = options;
    this.#hooks = hooks;
    this.#screen = hooks.screen ?? retryOverloaded;
    this.#slots = new Semaphore(options.concurrency);
  }

  async send<T>(request: R, handle: ResponseHandler<T>): Promise<T> {
    const { retries, retryDelay: base, maxRetryDelay } = this.#options;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(request, handle);
      } catch (err) {
        if (!(err instanceof TransientFailure)) throw err;
        if (attempt >= retries) throw this.#hooks.exhausted(request, err, attempt + 1);
        await sleep(retryDelay(attempt + 1, base, maxRetryDelay, err.retryAfter), request.signal);
      }
    }
  }

  async #attempt<T>(request: R, handle: ResponseHandler<T>): Promise<T> {
    const release = await this.#slots.acquire(request.signal);
    const controller = new AbortController();
    const callerSignal = request.signal;
    const onAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener("abort", onAbort, { once: true });
    const { timeout } = this.#options;
    let timedOut = false;
    const timer =
      timeout > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort(new TransientFailure(`no complete response within ${timeout} ms (timeout)`));
          }, timeout)
        : undefined;
    // Whatever went wrong, the caller's abort and our timeout say best what happened.
    const explain = (err: unknown, during: string): unknown => {
      if (callerSignal?.aborted === true) return callerSignal.reason;
      if (timedOut) return new TransientFailure(`no complete response within ${timeout} ms (timeout)`);
      if (err instanceof TransientFailure || err instanceof StoreError) return err;
      const detail = err instanceof Error ? describe(err) : String(err);
      return new TransientFailure(`${during}: ${detail}`, undefined, undefined, { cause: err });
    };
    try {
      callerSignal?.throwIfAborted();
      const headers = await this.#hooks.headers(request);
      let response: TransportResponse;
      try {
        response = await this.#options.transport({
          method: request.method,
          url: request.url,
          headers,
          body: request.body,
          signal: controller.signal,
        });
      } catch (err) {
        throw explain(err, "network error");
      }
      response = await this.#screen(response);
      try {
        return await handle(response);
      } catch (err) {
        await response.discard();
        throw explain(err, "network error while reading the response");
      }
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onAbort);
      release();
    }
  }
}

/** An error's message with its cause's (undici says "fetch failed", the cause says why). */
function describe(err: Error): string {
  // Node's connection attempts to several addresses fail with an AggregateError and no message.
  if (err instanceof AggregateError && err.message === "")
    return err.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join("; ");
  const cause = err.cause;
  return cause instanceof Error && cause.message !== err.message ? `${err.message} (${cause.message})` : err.message;
}
