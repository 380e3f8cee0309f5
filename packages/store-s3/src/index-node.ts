/// <reference types="node" />
/**
 * `@z/store-s3` as Node loads it (the `node` export condition): everything in `@z/store-s3`,
 * with stores that read `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`,
 * `AWS_REGION`/`AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL_S3`/`AWS_ENDPOINT_URL` and
 * `AWS_S3_FORCE_PATH_STYLE` from the process's environment for what their options leave out,
 * and that send their requests with `@z/http-client`'s Node transport (node/node-transport.ts) unless
 * given a `fetch`. Browsers and bundlers for them get `index.ts`, which names no `process` and
 * only knows `fetch`.
 */
import { setDefaultEnvironment } from "./environment.js";
import { nodeTransport } from "./node/node-transport.js";
import { setDefaultTransport } from "./transport.js";

export * from "./index.js";

setDefaultEnvironment(() => process.env);
setDefaultTransport(nodeTransport);
