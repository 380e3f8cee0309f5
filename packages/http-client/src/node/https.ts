/// <reference types="node" />
import type { IncomingMessage } from "node:http";
import { Agent, request as httpsRequest } from "node:https";
import { readRawBody } from "./body.js";
import type { RawResponse } from "./raw-response.js";
import type { Hop } from "./redirect.js";

// Shared by every store, as fetch's global dispatcher is: connections stay open for the next
// request (idle ones do not keep the process alive).
const agent = new Agent({ keepAlive: true });

/**
 * Sends `hop` (an `https:` URL) with `node:https`, whose TLS sockets cannot read into buffers of
 * our choosing as http1.ts does. A connection that the server had closed while it sat idle is
 * retried at once on another (the request never reached the server), as Node's documentation
 * advises.
 */
export async function httpsSend(hop: Hop, signal: AbortSignal): Promise<RawResponse> {
  for (;;) {
    try {
      return answer(await sendOnce(hop, signal));
    } catch (err) {
      if (!(err instanceof StaleConnection)) throw err;
    }
  }
}

class StaleConnection extends Error {}

function sendOnce(hop: Hop, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const headers =
      hop.body === undefined ? hop.headers : { ...hop.headers, "content-length": String(hop.body.length) };
    const request = httpsRequest(hop.url, { method: hop.method, headers, agent });
    // Until the response is over, an abort (the caller's or the timeout) closes the connection:
    // a pending send rejects here, a body being read fails as cut short.
    const onAbort = () => {
      request.destroy();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    let responded = false;
    request.on("error", (err: NodeJS.ErrnoException) => {
      signal.removeEventListener("abort", onAbort);
      const stale = !responded && request.reusedSocket && (err.code === "ECONNRESET" || err.code === "EPIPE");
      reject(stale ? new StaleConnection(err.message) : err);
    });
    request.on("response", (response) => {
      responded = true;
      // Errors while the body arrives are reported by whoever reads it; unread, they do not matter.
      response.on("error", () => undefined);
      response.once("close", () => signal.removeEventListener("abort", onAbort));
      resolve(response);
    });
    request.end(hop.body);
  });
}

function answer(response: IncomingMessage): RawResponse {
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? "",
    header: (name) => {
      const value = response.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    body: () => readRawBody(response),
    discard: async () => {
      response.resume();
    },
  };
}
