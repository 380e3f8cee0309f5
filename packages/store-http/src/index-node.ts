/**
 * `@z/store-http` as Node loads it (the `node` export condition): everything in `@z/store-http`,
 * with stores that send their requests through the Node transport (`@z/http-client/node`: our
 * HTTP/1.1 client for `http:`, `node:https` for `https:`) unless given a `fetch`. Browsers and
 * bundlers for them get `index.ts`, which only knows `fetch`.
 */
import { nodeTransport } from "@z/http-client/node";
import { setDefaultTransport } from "./transport.js";

export * from "./index.js";

setDefaultTransport(nodeTransport);
