// What a test asks of the shared test HTTP server (scripts/test-server/server.ts), and what it
// reports back. Types only: imported by the server (Node) and by tests (Node and Chromium).

/**
 * One test's server: a fresh namespace at `<server>/s/<id>/` with its own files, faults and log,
 * so tests running in parallel (and in the browser) do not see each other's requests.
 */
export interface SessionConfig {
  /** Serve the files below this directory of the repository, read-only (e.g. `"packages/store-zip/test/fixtures"`). */
  files?: string;
  /** Values the session starts with, by path below its URL (`"/root/k"`), in base64. */
  values?: Record<string, string>;
  /** Accept PUT (into memory, 201) and DELETE (204, or 404 when missing); otherwise 405. */
  writable?: boolean;
  /** Answer every GET in full, as servers that ignore Range do. */
  ignoreRange?: boolean;
  /** Milliseconds to wait before answering each request (after `overlap`'s wait, if any). */
  delay?: number;
  /**
   * Hold every answer until this many of the session's requests have been in flight at once
   * (`maxInFlight`), then answer as usual: a client's concurrency shows in `maxInFlight` however
   * slowly a loaded machine sends its requests. A client that never sends that many at once gets
   * no answer.
   */
  overlap?: number;
  /** Misbehaviour: the first fault matching a request decides its answer. */
  faults?: Fault[];
  /**
   * Forward every request no fault takes to this origin (e.g. the test S3 server), with its
   * method, headers (Host too) and body, the path below the session's URL and the query; the
   * session's prefix (`/s/<id>`) goes in `X-Forwarded-Prefix`. The answer is relayed as it comes.
   * `truncate` faults cut the forwarded answer's body.
   */
  proxy?: string;
}

/** A planned misbehaviour, for the requests it matches. */
export interface Fault {
  /** Which of the session's requests (counting from 1; CORS preflights do not count). Default: all. */
  requests?: number[];
  /** Every `every`-th request. */
  every?: number;
  /** Only requests with one of these methods. */
  methods?: string[];
  /** What happens. */
  action: FaultAction;
}

export type FaultAction =
  /** This answer instead of the normal one (a Content-Length is added). */
  | { respond: { status: number; headers?: Record<string, string>; body?: string; bodyBase64?: string } }
  /** The connection is closed before any answer. */
  | { drop: true }
  /** No answer at all, until the client gives up (or the session ends). */
  | { stall: true }
  /** The normal status and headers (a 100-byte body unless the value exists; the forwarded answer's with `proxy`), `bytes` bytes of the body, then the connection is closed or left hanging. */
  | { truncate: { bytes: number; then: "close" | "stall" } };

/** One request the session saw, as the server answered it. */
export interface LoggedRequest {
  method: string;
  /** The path below the session's URL, with the query, e.g. `/root/k?token=1`. */
  path: string;
  /** The request's headers (lower-case names). */
  headers: Record<string, string>;
  status: number;
  /** Body bytes sent (0 for HEAD). */
  bytes: number;
  /** The client's port: requests that came over one (keep-alive) connection share it. */
  clientPort: number;
}

export interface SessionLog {
  requests: LoggedRequest[];
  /** The most requests of the session in flight at once. */
  maxInFlight: number;
}

/** What `inject("testServer")` gives a test file. */
export interface TestServerInfo {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** A URL on which nothing listens (connections are refused). */
  refusedUrl: string;
}
