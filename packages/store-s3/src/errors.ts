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

/**
 * Thrown inside an attempt when trying again may help (a 5xx, `SlowDown`, a dropped connection, a
 * truncated body, a timeout). The retry loop catches it; when attempts run out, its message ends
 * up in the final {@link S3StoreError}.
 */
export class TransientFailure extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly s3Code?: string,
    /** How long the server asked us to wait (Retry-After), in milliseconds. */
    readonly retryAfter?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "TransientFailure";
  }
}
