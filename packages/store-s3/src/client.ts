import { parseRetryAfter } from "@z/meta";
import { HttpClient, type HttpRequest, type ResponseHandler } from "@z/http-client";
import { AwsV4Signer } from "aws4fetch";
import { S3StoreError, TransientFailure } from "./errors.js";
import type { ResolvedS3Options } from "./options.js";
import type { S3Response } from "./transport.js";
import { parseErrorDocument } from "./xml.js";

export interface S3Request extends HttpRequest {
  /** The object key in the bucket (for errors), if any. */
  objectKey?: string;
}

export type { ResponseHandler };

/** S3 error codes worth another attempt even when their status is a 4xx. */
const TRANSIENT_CODES = new Set(["SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable", "Throttling"]);

/**
 * Sends S3 requests with `@z/http-client`'s client (the store's transport, `fetch` or in Node
 * its HTTP/1.1 client; at most `concurrency` in flight, each bounded by `timeout`, retried with
 * backoff, aborted by the caller's signal), adding what is S3's: each attempt signed anew with
 * SigV4 (by aws4fetch's `AwsV4Signer`, when the store has credentials), retries also on a 4xx
 * whose XML `<Code>` says to (`SlowDown`, ...), and {@link S3StoreError}s naming bucket and codes.
 */
export class S3Client {
  readonly #options: ResolvedS3Options;
  readonly #client: HttpClient<S3Request>;
  /** aws4fetch's cache of derived signing keys (one per day, region and service). */
  readonly #signingKeys = new Map<string, ArrayBuffer>();

  constructor(options: ResolvedS3Options) {
    this.#options = options;
    this.#client = new HttpClient<S3Request>(options, {
      headers: (request) => this.#sign(request),
      screen,
      exhausted: (request, err, tries) =>
        new S3StoreError(
          `S3 ${request.method} ${request.url.href} failed${tries > 1 ? ` after ${tries} attempts` : ""}: ${err.message}`,
          {
            bucket: options.bucket,
            key: request.key,
            objectKey: request.objectKey,
            method: request.method,
            url: request.url.href,
            status: err.status,
            s3Code: err.code,
            cause: err.cause ?? err,
          },
        ),
    });
  }

  send<T>(request: S3Request, handle: ResponseHandler<T>): Promise<T> {
    return this.#client.send(request, handle);
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

/**
 * S3's look at an answer before the handler: 5xx and 429 are tried again (their `<Error>` read
 * for the message); S3 sends some throttling and time-outs as 400/403 with a code saying so,
 * tried again too. Other error answers reach the handler.
 */
async function screen(response: S3Response): Promise<S3Response> {
  if (response.status >= 500 || response.status === 429) {
    const { code, message } = await readError(response);
    throw new TransientFailure(
      describeStatus(response, code, message),
      response.status,
      parseRetryAfter(response.headers.get("retry-after")),
      { code },
    );
  }
  if (response.status === 400 || response.status === 403) {
    // The (small) error body is read once here, and handed on as it is.
    const read = await buffered(response);
    const { code, message } = await readError(read);
    if (code !== undefined && TRANSIENT_CODES.has(code))
      throw new TransientFailure(describeStatus(read, code, message), read.status, undefined, { code });
    return read;
  }
  return response;
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
