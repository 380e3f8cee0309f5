import { nodeTransportWith } from "@z/http-client/node";

/**
 * S3's transport for Node: `@z/http-client/node`'s (our HTTP/1.1 client for `http:`,
 * `node:https` for `https:`, Content-Encoding undone as `fetch` does), following no redirects
 * like the `fetch` one.
 */
export const nodeTransport = nodeTransportWith({ redirect: "manual" });
