/**
 * `@z/store-http` as Node loads it (the `node` export condition): everything in `@z/store-http`,
 * with stores that send their requests through `node:http`/`node:https` unless given a `fetch`.
 * Browsers and bundlers for them get `index.ts`, which only knows `fetch`.
 */
import { nodeTransport } from "./node/node-transport.js";
import { setDefaultTransport } from "./transport.js";

export * from "./index.js";

setDefaultTransport(nodeTransport);
