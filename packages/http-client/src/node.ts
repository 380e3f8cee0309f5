/**
 * `@z/http-client/node`: the transport for Node, as `fetch` would send (Content-Encoding decoded,
 * redirects followed unless told not to) at a fraction of its cost: `http:` over our own
 * keep-alive HTTP/1.1 client on `node:net`, which reads each body straight into one buffer of its
 * Content-Length, `https:` over `node:https`. The stores' `node` entries make it their default.
 *
 * @packageDocumentation
 */
export { nodeTransport, nodeTransportWith, type NodeTransportOptions } from "./node/node-transport.js";
