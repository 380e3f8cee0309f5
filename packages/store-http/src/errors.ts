import { StoreError } from "@z/meta";

/**
 * An HTTP request failed or its response was not usable: a status that is not success, a
 * truncated or wrong-length body, an HTML page, retries exhausted. A `StoreError` (code
 * `"ZARR_STORE"`) that also says which request and, when there was a response, its status.
 */
export class HttpStoreError extends StoreError {
  /** `GET`, `PUT`, `DELETE` or `HEAD`. */
  readonly method: string;
  /** The URL requested. */
  readonly url: string;
  /** The status of the last response, when there was one. */
  readonly status: number | undefined;

  constructor(
    message: string,
    options: { method: string; url: string; status?: number; key?: string; cause?: unknown },
  ) {
    super(message, { key: options.key, cause: options.cause });
    this.method = options.method;
    this.url = options.url;
    this.status = options.status;
  }
}

// Thrown inside an attempt when trying again may help; shared with @z/store-s3 (the client lives in @z/http-client).
export { TransientFailure } from "@z/http-client";
