import { afterAll, beforeAll, describe, it } from "vitest";
import { describeStoreContract } from "@z/meta/testing";
import { HttpStore } from "@z/store-http";
import { directoryHandler, memoryHandler, startServer, type TestServer } from "./server.js";

const fixtures = new URL("./fixtures/", import.meta.url).pathname.replace(/\/$/, "");
const api = { describe, it };
const fast = { retryDelay: 1, maxRetryDelay: 5, timeout: 5_000 };

let files: TestServer;
let memory: TestServer;
let rangeless: TestServer;
let flaky: TestServer;
let n = 0;
/** Each store gets a fresh path on the server, so it starts empty. */
const fresh = (server: TestServer) => `${server.url}/store-${++n}/`;

beforeAll(async () => {
  files = await startServer(directoryHandler("data", fixtures));
  memory = await startServer(memoryHandler());
  rangeless = await startServer(memoryHandler({ ignoreRange: true }));
  // Every third request fails with a 503 before doing anything; retries must hide it.
  const inner = memoryHandler();
  let count = 0;
  flaky = await startServer((req, res, body) => {
    if (++count % 3 === 0) return void res.writeHead(503, { "retry-after": "0" }).end("busy");
    return inner(req, res, body);
  });
});
afterAll(async () => {
  await Promise.all([files, memory, rangeless, flaky].map((server) => server?.close()));
});

// Read-only, on a static file server: missing keys, and unsafe keys refused.
describeStoreContract("HttpStore (read-only, static files)", () => new HttpStore(`${files.url}/data/group.zarr/`, fast), api, {
  writable: false,
  listable: false,
  refusesUnsafeKeys: true,
});

// Writable against a PUT/DELETE server: the whole contract but listing.
describeStoreContract("HttpStore (writable)", () => new HttpStore(fresh(memory), { ...fast, writable: true }), api, { listable: false, refusesUnsafeKeys: true });

// A server that ignores Range and always sends the whole value: ranges are sliced from it.
describeStoreContract("HttpStore (server ignoring Range)", () => new HttpStore(fresh(rangeless), { ...fast, writable: true }), api, { listable: false });

// One request in three fails with 503: retries make it invisible.
describeStoreContract("HttpStore (flaky server, retries)", () => new HttpStore(fresh(flaky), { ...fast, writable: true, retries: 5, concurrency: 2 }), api, { listable: false });
