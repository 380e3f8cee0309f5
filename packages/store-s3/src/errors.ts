import { StoreError } from "@z/meta";

/**
 * An S3 request failed: an error answer (`NoSuchBucket`, `AccessDenied`, `InvalidAccessKeyId`,
 * `SignatureDoesNotMatch`, ...), a truncated or wrong-length body, retries exhausted (`SlowDown`,
 * 5xx, dropped connections, timeouts). A `StoreError` (`code` `"ZARR_STORE"`) that names the
 * bucket, the store key, the object key in the bucket and, when the server said one, the S3 error
 * code. A missing key is never one of these: `get` gives `undefined`.
 */
export class S3StoreError extends StoreError {
  /** The bucket. */
  readonly bucket: string;
  /** The key in the bucket (the store's prefix and the store key), or `undefined` for a listing. */
  readonly objectKey: string | undefined;
  /** `GET`, `HEAD`, `PUT` or `DELETE`. */
  readonly method: string;
  /** The URL requested. */
  readonly url: string;
  /** The status of the last response, when there was one. */
  readonly status: number | undefined;
  /** The S3 error code of the last response (its XML `<Code>`), e.g. `"NoSuchBucket"`, when it had one. */
  readonly s3Code: string | undefined;
  /** The server's request id (`x-amz-request-id`), for the provider's support. */
  readonly requestId: string | undefined;

  constructor(
    message: string,
    options: {
      bucket: string;
      key?: string;
      objectKey?: string;
      method: string;
      url: string;
      status?: number;
      s3Code?: string;
      requestId?: string;
      cause?: unknown;
    },
  ) {
    super(message, { key: options.key, cause: options.cause });
    this.bucket = options.bucket;
    this.objectKey = options.objectKey;
    this.method = options.method;
    this.url = options.url;
    this.status = options.status;
    this.s3Code = options.s3Code;
    this.requestId = options.requestId;
  }
}

// Thrown inside an attempt when trying again may help (its `code` the S3 error code, e.g.
// `SlowDown`); shared with @z/store-http (the client lives in @z/http-client).
export { TransientFailure } from "@z/http-client";
