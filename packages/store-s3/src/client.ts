import { StoreError, parseRetryAfter, retryDelay, Semaphore, sleep } from "@z/meta";
import { AwsV4Signer } from "aws4fetch";
import { S3StoreError, TransientFailure } from "./errors.js";
import type { ResolvedS3Options } from "./options.js";
import type { S3Response, Transport } from "./transport.js";
import { parseErrorDocument } from "./xml.js";

export interface S3Request {
  method: "GET" | "HEAD" | "PUT" | "DELETE";
  url: URL;
  /** The store key the request is for (for errors), if any. */
  key?: string;
  /** The object key in the bucket (for errors), if any. */
  objectKey?: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  signal?: AbortSignal;
}

/**
 * Turns a response into a result, inside the attempt (so reading the body holds a concurrency
 * slot and counts towards the timeout). Throw a {@link TransientFailure} to try again, anything
 * else to fail at once. Error answers (other than those retried) reach it too.
 */
export type ResponseHandler<T> = (response: S3Response) => Promise<T>;

/** S3 error codes worth another attempt even when their status is a 4xx. */
const TRANSIENT_CODES = new Set(["SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable", "Throttling"]);

/**
 * Sends S3 requests: each attempt signed anew with SigV4 (by aws4fetch's `AwsV4Signer`, when
 * the store has credentials) and sent by the store's transport (`fetch`, or in Node `node:http`),
 * at most `concurrency` in flight, each bounded by `timeout`, retried with backoff on 5xx, 429, `SlowDown`, dropped connections and truncated bodies,
 * aborted by the caller's signal (whose reason is then thrown as it is, at any point).
 */
export class S3Client {
  readonly #options: ResolvedS3Options;
  readonly #slots: Semaphore;
  readonly #transport: Transport;
  /** aws4fetch's cache of derived signing keys (one per day, region and service). */
  readonly #signingKeys = new Map<string, ArrayBuffer>();

  constructor(options: ResolvedS3Options) {
    this.#options = options;
    this.#slots = new Semaphore(options.concurrency);
    this.#transport = options.transport;
  }

  async send<T>(request: S3Request, handle: ResponseHandler<T>): Promise<T> {
    const { retries, retryDelay: base, maxRetryDelay } = this.#options;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#attempt(request, handle);
      } catch (err) {
        if (!(err instanceof TransientFailure)) throw err;
        if (attempt >= retries) {
          const tries = attempt + 1;
          throw new S3StoreError(
            `S3 ${request.method} ${request.url.href} failed${tries > 1 ? ` after ${tries} attempts` : ""}: ${err.message}`,
            {
              bucket: this.#options.bucket,
              key: request.key,
              objectKey: request.objectKey,
              method: request.method,
              url: request.url.href,
              status: err.status,
              s3Code: err.s3Code,
              cause: err.cause ?? err,
            },
          );
        }
        await sleep(retryDelay(attempt + 1, base, maxRetryDelay, err.retryAfter), request.signal);
      }
    }
  }

  async #attempt<T>(request: S3Request, handle: ResponseHandler<T>): Promise<T> {
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
      return new TransientFailure(`${during}: ${detail}`, undefined, undefined, undefined, { cause: err });
    };
    try {
      callerSignal?.throwIfAborted();
      const headers = await this.#sign(request);
      let response: S3Response;
      try {
        response = await this.#transport({
          method: request.method,
          url: request.url,
          headers,
          body: request.body,
          signal: controller.signal,
        });
      } catch (err) {
        throw explain(err, "network error");
      }
      if (response.status >= 500 || response.status === 429) {
        const { code, message } = await readError(response);
        throw new TransientFailure(
          describeStatus(response, code, message),
          response.status,
          code,
          parseRetryAfter(response.headers.get("retry-after")),
        );
      }
      if (response.status === 400 || response.status === 403) {
        // S3 sends some throttling and time-outs as 400/403 with a code saying so. The (small)
        // error body is read once here, and handed on as it is.
        response = await buffered(response);
        const { code, message } = await readError(response);
        if (code !== undefined && TRANSIENT_CODES.has(code))
          throw new TransientFailure(describeStatus(response, code, message), response.status, code);
      }
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

  /** The request's headers, with a SigV4 signature when the store has credentials. */
  async #sign(request: S3Request): Promise<Record<string, string>> {
    const credentials = this.#options.credentials;
    const headers: Record<string, string> = { ...request.headers };
    if (this.#options.requesterPays) headers["x-amz-request-payer"] = "requester";
    if (credentials === undefined) return headers;
    const body = request.body as Uint8Array<ArrayBuffer> | undefined;
    if (this.#options.signPayload) headers["x-amz-content-sha256"] = await sha256Hex(body ?? new Uint8Array(0));
    // Without x-amz-content-sha256, aws4fetch sends UNSIGNED-PAYLOAD for s3 and never hashes the body.
    const signer = new AwsV4Signer({
      method: request.method,
      url: request.url.href,
      headers,
      body,
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      sessionToken: credentials.sessionToken,
      service: "s3",
      region: this.#options.region,
      cache: this.#signingKeys,
    });
    const signed = await signer.sign();
    const out: Record<string, string> = {};
    signed.headers.forEach((value, name) => {
      out[name] = value;
    });
    return out;
  }
}

/** The response with its whole body read now (for small error answers read more than once). */
async function buffered(response: S3Response): Promise<S3Response> {
  let bytes: Uint8Array | undefined;
  let failure: unknown;
  try {
    bytes = await response.body();
  } catch (err) {
    failure = err;
  }
  return {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    body: async () => {
      if (bytes === undefined) throw failure;
      return bytes;
    },
    discard: async () => undefined,
  };
}

/** Reads an error answer's body (an S3 `<Error>` document, for S3 itself) and lets the connection go. */
export async function readError(response: S3Response): Promise<{ code?: string; message?: string }> {
  let text = "";
  try {
    text = new TextDecoder().decode(await response.body());
  } catch {
    // A body that fails to arrive says nothing more than the status.
  }
  // A HEAD has no body: S3 puts nothing else in the answer, some servers name the code in a header.
  const { code, message } = parseErrorDocument(text);
  return { code: code ?? response.headers.get("x-amz-error-code") ?? undefined, message };
}

/** `503 Service Unavailable (SlowDown: Please reduce your request rate.)` */
export function describeStatus(response: S3Response, code: string | undefined, message: string | undefined): string {
  const status = `${response.status} ${response.statusText}`.trim();
  if (code === undefined) return status;
  return `${status} (${code}${message === undefined || message === "" ? "" : `: ${message}`})`;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** An error's message with its cause's (undici says "fetch failed", the cause says why). */
function describe(err: Error): string {
  if (err instanceof AggregateError && err.message === "")
    return err.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))).join("; ");
  const cause = err.cause;
  return cause instanceof Error && cause.message !== err.message ? `${err.message} (${cause.message})` : err.message;
}
