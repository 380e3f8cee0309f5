import { createServer, type RequestListener, type Server } from "node:http";
import type { ParsedArgs } from "./command.js";
import { integerFlag, UsageError } from "./command.js";

// What `zarr serve` grants one client, so that slow or stuck ones cannot starve the others: a
// request head dripped a byte a second is cut at the header timeout, a response body nobody reads
// at the idle timeout, and connections past the limit are closed before they hold a descriptor.
// Node's own defaults leave some of these unbounded (no idle timeout, no connection limit) or
// long (60 s for a head, 300 s for a request).

/** The limits of `zarr serve`, each a flag of the same name (times in milliseconds). */
export interface ServeLimits {
  /** Connections open at once; further ones are closed as they arrive. */
  readonly maxConnections: number;
  /** Bytes of a request's line and headers; a longer head is answered 431. */
  readonly maxHeaderSize: number;
  /** A request's head must have arrived within this of its first byte, or 408 and the connection is closed. */
  readonly headerTimeout: number;
  /** A whole request (head and any body) must have arrived within this, or 408 and closed. */
  readonly requestTimeout: number;
  /** A kept-alive connection with no request under way is closed after this. */
  readonly keepAliveTimeout: number;
  /**
   * A connection on which nothing moves either way (a client not reading the body) is closed after
   * this; after up to twice this when a write was under way (Node lets the first expiry pass when
   * the socket's write queue changed since the previous one).
   */
  readonly idleTimeout: number;
}

export const DEFAULT_SERVE_LIMITS: ServeLimits = {
  maxConnections: 512,
  maxHeaderSize: 16 * 1024,
  headerTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  idleTimeout: 60_000,
};

/** The flags of the limits, for the command's `flags`. */
export const SERVE_LIMIT_FLAGS = {
  "max-connections": "string",
  "max-header-size": "string",
  "header-timeout": "string",
  "request-timeout": "string",
  "keep-alive-timeout": "string",
  "idle-timeout": "string",
} as const;

/** The help lines of the limit flags. */
export const SERVE_LIMITS_HELP = `  --max-connections N      connections at once; more are closed on arrival (default ${DEFAULT_SERVE_LIMITS.maxConnections})
  --max-header-size BYTES  a longer request head is answered 431 (default ${DEFAULT_SERVE_LIMITS.maxHeaderSize})
  --header-timeout MS      a request head not complete by then: 408, closed (default ${DEFAULT_SERVE_LIMITS.headerTimeout})
  --request-timeout MS     a whole request not received by then: 408, closed (default ${DEFAULT_SERVE_LIMITS.requestTimeout})
  --keep-alive-timeout MS  an idle kept-alive connection is closed after it (default ${DEFAULT_SERVE_LIMITS.keepAliveTimeout})
  --idle-timeout MS        a connection where nothing moves (an unread body) is closed (default ${DEFAULT_SERVE_LIMITS.idleTimeout})`;

/** The limits the flags ask for, defaults for the others; a request timeout below the header timeout is a usage error. */
export function serveLimits(args: ParsedArgs): ServeLimits {
  const d = DEFAULT_SERVE_LIMITS;
  const ms = (name: string, fallback: number) => integerFlag(args, name, { min: 1, max: 3_600_000 }) ?? fallback;
  const headerTimeout = ms("header-timeout", d.headerTimeout);
  const limits: ServeLimits = {
    maxConnections: integerFlag(args, "max-connections", { min: 1, max: 1_000_000 }) ?? d.maxConnections,
    maxHeaderSize: integerFlag(args, "max-header-size", { min: 256, max: 1 << 24 }) ?? d.maxHeaderSize,
    headerTimeout,
    // a longer header timeout alone lengthens the default request timeout with it
    requestTimeout: ms("request-timeout", Math.max(d.requestTimeout, headerTimeout)),
    keepAliveTimeout: ms("keep-alive-timeout", d.keepAliveTimeout),
    idleTimeout: ms("idle-timeout", d.idleTimeout),
  };
  if (limits.requestTimeout < limits.headerTimeout)
    throw new UsageError(
      `--request-timeout (${limits.requestTimeout} ms) must be at least --header-timeout (${limits.headerTimeout} ms): the head is part of the request`,
    );
  return limits;
}

/** An HTTP server answering with `listener` under `limits`. */
export function limitedServer(limits: ServeLimits, listener: RequestListener): Server {
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderSize,
      headersTimeout: limits.headerTimeout,
      requestTimeout: limits.requestTimeout,
      keepAliveTimeout: limits.keepAliveTimeout,
      // How often Node looks for heads and requests past their time: often enough that a short
      // timeout is kept to within a quarter of itself, at most once a second.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headerTimeout / 4))),
    },
    listener,
  );
  server.maxConnections = limits.maxConnections;
  // Without a "timeout" listener Node destroys a socket idle this long (a stalled write: up to twice
  // this, as Node's socket skips one expiry while its write queue changes).
  server.setTimeout(limits.idleTimeout);
  return server;
}
