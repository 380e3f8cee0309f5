/// <reference types="node" />
import type { BodyReader } from "./body-reader.js";
import { bodyReader } from "./body-reader.js";
import { acquire, release } from "./connection-pool.js";
import type { Connection, ConnectionUser } from "./connection.js";
import { framing, keepsAlive } from "./framing.js";
import type { Hop } from "./redirect.js";
import { requestHead } from "./request-head.js";
import { ResponseHeadParser, type ResponseHead } from "./response-head.js";
import type { RawResponse } from "./raw-response.js";

/**
 * Sends `hop` (an `http:` URL) over an HTTP/1.1 connection of the pool and resolves with the
 * response once its head has come (interim 1xx responses skipped); its body is read as it
 * arrives, straight into a buffer of its Content-Length when it has one. A request on an idle
 * connection that the server had closed goes out again on another (it never reached the server).
 * The signal aborts at any point until the body is read: the connection is closed and the pending
 * send or body rejects with the signal's reason.
 */
export async function http1Send(hop: Hop, signal: AbortSignal): Promise<RawResponse> {
  const head = requestHead(hop.method, hop.url, hop.headers, hop.body?.length);
  for (;;) {
    signal.throwIfAborted();
    try {
      return await exchange(acquire(hop.url), hop, head, signal);
    } catch (err) {
      if (!(err instanceof StaleConnection)) throw err;
    }
  }
}

class StaleConnection extends Error {}

function exchange(
  connection: Connection,
  hop: Hop,
  requestHeadText: string,
  signal: AbortSignal,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const parser = new ResponseHeadParser();
    const body = deferred<Uint8Array>();
    let reader: BodyReader | undefined;
    let responded = false;
    let settled = false;
    let reusable = false;

    const settle = () => {
      settled = true;
      signal.removeEventListener("abort", onAbort);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settle();
      connection.destroy();
      if (reader === undefined) reject(err);
      else body.reject(err);
    };
    const complete = () => {
      settle();
      if (reusable) release(connection);
      else connection.destroy();
      body.resolve(reader!.result());
    };
    const onAbort = () => fail(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });

    const answer = (head: ResponseHead): RawResponse => ({
      status: head.status,
      statusText: head.statusText,
      header: (name) => head.headers.get(name),
      body: () => body.promise,
      // A body still coming when it is let go of closes its connection: waiting for it to come
      // could wait for a stalled server forever. Small bodies mostly come with their head, so
      // their connections stay open.
      discard: async () => fail(new Error("the body was discarded")),
    });

    const data = (bytes: Uint8Array) => {
      responded = true;
      try {
        while (reader === undefined) {
          const got = parser.push(bytes);
          if (got === undefined) return;
          bytes = bytes.subarray(got.used);
          const { head } = got;
          // Interim responses (100 Continue, 103 Early Hints) come before the real one.
          if (head.status < 200) {
            if (head.status === 101) throw new Error("the server switched protocols (101), which was not asked for");
            continue;
          }
          const framed = framing(hop.method, head);
          reader = bodyReader(framed, head.status);
          reusable = keepsAlive(head, framed);
          resolve(answer(head));
          if (framed.kind === "none" && bytes.length > 0)
            throw new Error(
              `the response to ${hop.method} has ${bytes.length} bytes after its head, where it has no body`,
            );
        }
        if (bytes.length > 0) reader.push(bytes);
        if (reader.done) complete();
      } catch (err) {
        fail(err);
      }
    };

    const user: ConnectionUser = {
      target: () => reader?.target(),
      filled: (n) => {
        reader!.filled(n);
        if (reader!.done) complete();
      },
      data,
      end: () => {
        if (reader === undefined) {
          fail(
            stale()
              ? new StaleConnection()
              : new Error("the connection closed before a complete response head (socket hang up)"),
          );
          return;
        }
        try {
          reader.end();
        } catch (err) {
          fail(err);
          return;
        }
        reusable = false;
        complete();
      },
      error: (err) => {
        const code = (err as NodeJS.ErrnoException).code;
        fail(stale() && (code === "ECONNRESET" || code === "EPIPE") ? new StaleConnection(err.message) : err);
      },
    };
    // An idle connection that closes before any byte of the answer was closed by the server
    // before our request reached it.
    const stale = () => connection.reused && !responded;

    connection.begin(user, requestHeadText, hop.body);
  });
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (reason: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  // Nobody may ever ask for a discarded body.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
