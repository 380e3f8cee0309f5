/**
 * A response as each of the Node transport's senders gives it (http1.ts for `http:`, https.ts
 * for `https:`): head, and the body as sent, before any Content-Encoding is undone.
 */
export interface RawResponse {
  status: number;
  statusText: string;
  /** A header by lower-case name, repeats joined with ", ". */
  header(name: string): string | undefined;
  /** The body as sent, checked against its framing. */
  body(): Promise<Uint8Array>;
  /** Lets go of the body unread. */
  discard(): Promise<void>;
}
