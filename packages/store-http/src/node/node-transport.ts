/// <reference types="node" />
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Transport, TransportResponse } from "../transport.js";
import { readRawBody } from "./body.js";
import { ACCEPT_ENCODING, decodeContent } from "./content-encoding.js";
import { MAX_REDIRECTS, redirectHop, type Hop } from "./redirect.js";

// Shared by every store, as fetch's global dispatcher is: connections stay open for the next
// request (idle ones do not keep the process alive).
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * Requests with `node:http` and `node:https`, for Node: as `fetch` would make them (redirects
 * followed, Content-Encoding decoded), at a fraction of the cost, since a body is copied from
 * the socket's buffers straight into one buffer of its Content-Length.
 */
export const nodeTransport: Transport = async (request) => {
  const { signal } = request;
  let hop: Hop = { method: request.method, url: request.url, headers: requestHeaders(request.headers), body: request.body };
  for (let redirects = 0; ; redirects++) {
    const response = await send(hop, signal);
    let next: Hop | undefined;
    try {
      next = redirectHop(hop, response.statusCode ?? 0, response.headers.location);
      if (next !== undefined && redirects === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    } catch (err) {
      response.resume();
      throw err;
    }
    if (next === undefined) return answer(response, hop);
    // A redirect's own body is of no use; read off, it frees the connection.
    response.resume();
    hop = next;
  }
};

/** What fetch sends unless told otherwise, then the request's own headers. */
function requestHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return { accept: "*/*", "accept-encoding": ACCEPT_ENCODING, "user-agent": "node", ...headers };
}

/**
 * One request, once; a connection that the server had closed while it sat idle is retried at
 * once on another (the request never reached the server), as Node's documentation advises.
 */
async function send(hop: Hop, signal: AbortSignal): Promise<IncomingMessage> {
  for (;;) {
    try {
      return await sendOnce(hop, signal);
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
    const https = hop.url.protocol === "https:";
    const headers = hop.body === undefined ? hop.headers : { ...hop.headers, "content-length": String(hop.body.length) };
    const request = (https ? httpsRequest : httpRequest)(hop.url, { method: hop.method, headers, agent: https ? agents.https : agents.http });
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

function answer(response: IncomingMessage, hop: Hop): TransportResponse {
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? "",
    headers: { get: (name) => headerValue(response.headers, name.toLowerCase()) },
    body: async () => {
      if (hop.method === "HEAD") return new Uint8Array(0);
      const raw = await readRawBody(response);
      return decodeContent(raw, response.headers["content-encoding"], `${hop.method} ${hop.url.href}`);
    },
    discard: async () => {
      response.resume();
    },
  };
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}
