/// <reference types="node" />
import type { Transport, TransportRequest, TransportResponse } from "../transport.js";
import { ACCEPT_ENCODING, decodeContent } from "./content-encoding.js";
import { http1Send } from "./http1.js";
import { httpsSend } from "./https.js";
import type { RawResponse } from "./raw-response.js";
import { MAX_REDIRECTS, redirectHop, type Hop } from "./redirect.js";

/** How a {@link nodeTransportWith} sends. */
export interface NodeTransportOptions {
  /** `"follow"` (the default, as `fetch` does) or `"manual"`: a redirect is the answer (S3's). */
  redirect?: "follow" | "manual";
}

/**
 * Requests for Node, as `fetch` would make them (redirects followed, Content-Encoding decoded),
 * at a fraction of the cost: `http:` over our own HTTP/1.1 connections (http1.ts), which read a
 * body straight into one buffer of its Content-Length; `https:` with `node:https`, copying from
 * the socket's buffers into one such buffer.
 */
export const nodeTransport: Transport = nodeTransportWith({});

/** {@link nodeTransport}, following redirects or not as `options` say. */
export function nodeTransportWith(options: NodeTransportOptions): Transport {
  const follow = (options.redirect ?? "follow") === "follow";
  return (request) => send(request, follow);
}

async function send(request: TransportRequest, follow: boolean): Promise<TransportResponse> {
  const { signal } = request;
  let hop: Hop = {
    method: request.method,
    url: request.url,
    headers: requestHeaders(request.headers),
    body: request.body,
  };
  for (let redirects = 0; ; redirects++) {
    const response = await (hop.url.protocol === "http:" ? http1Send : httpsSend)(hop, signal);
    if (!follow) return answer(response, hop);
    let next: Hop | undefined;
    try {
      next = redirectHop(hop, response.status, response.header("location"));
      if (next !== undefined && redirects === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    } catch (err) {
      await response.discard();
      throw err;
    }
    if (next === undefined) return answer(response, hop);
    // A redirect's own body is of no use; read off, it frees the connection.
    await response.discard();
    hop = next;
  }
}

/** What fetch sends unless told otherwise, then the request's own headers. */
function requestHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return { accept: "*/*", "accept-encoding": ACCEPT_ENCODING, "user-agent": "node", ...headers };
}

function answer(response: RawResponse, hop: Hop): TransportResponse {
  return {
    status: response.status,
    statusText: response.statusText,
    headers: { get: (name) => response.header(name.toLowerCase()) ?? null },
    body: async () => {
      if (hop.method === "HEAD") return new Uint8Array(0);
      const raw = await response.body();
      return decodeContent(raw, response.header("content-encoding"), `${hop.method} ${hop.url.href}`);
    },
    discard: () => response.discard(),
  };
}
