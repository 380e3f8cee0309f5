/**
 * Thrown inside an attempt when trying again may help (a 5xx, a 429, a dropped connection, a
 * truncated body, a timeout, an S3 `SlowDown`). {@link HttpClient}'s retry loop catches it; when
 * attempts run out, the client's `exhausted` hook turns it into the store's own error (an
 * `HttpStoreError`, an `S3StoreError`), with its message.
 */
export class TransientFailure extends Error {
  /** A code the server named (S3's XML `<Code>`, e.g. `"SlowDown"`), if any. */
  readonly code: string | undefined;

  constructor(
    message: string,
    readonly status?: number,
    /** How long the server asked us to wait (Retry-After), in milliseconds. */
    readonly retryAfter?: number,
    options?: { cause?: unknown; code?: string },
  ) {
    super(message, options);
    this.name = "TransientFailure";
    this.code = options?.code;
  }
}
