import { afterAll, describe, it } from "vitest";
import { describeStoreContract } from "@z/meta/testing";
import { HttpStore } from "@z/store-http";
import { sessionPool, type SessionConfig } from "../../../../scripts/test-server/client.js";
import type { TransportUnderTest } from "./transport.js";

// The store contract against the shared test server (scripts/test-server/). Each store gets its
// own session on the server, so it starts empty.

const api = { describe, it };
const fast = { retryDelay: 1, maxRetryDelay: 5, timeout: 5_000 };

export function contractSuite({ name }: TransportUnderTest): void {
  const pool = sessionPool();
  afterAll(() => pool.endAll());
  const fresh = async (config: SessionConfig) => (await pool.open(config)).url;

  // Read-only, on a static file server: missing keys, and unsafe keys refused.
  describeStoreContract(
    `HttpStore over ${name} (read-only, static files)`,
    async () => new HttpStore(`${await fresh({ files: "packages/store-http/test/fixtures" })}group.zarr/`, fast),
    api,
    {
      writable: false,
      listable: false,
      refusesUnsafeKeys: true,
    },
  );

  // Writable against a PUT/DELETE server: the whole contract but listing.
  describeStoreContract(
    `HttpStore over ${name} (writable)`,
    async () => new HttpStore(await fresh({ writable: true }), { ...fast, writable: true }),
    api,
    { listable: false, refusesUnsafeKeys: true },
  );

  // A server that ignores Range and always sends the whole value: ranges are sliced from it.
  describeStoreContract(
    `HttpStore over ${name} (server ignoring Range)`,
    async () => new HttpStore(await fresh({ writable: true, ignoreRange: true }), { ...fast, writable: true }),
    api,
    { listable: false },
  );

  // One request in three fails with 503: retries make it invisible.
  describeStoreContract(
    `HttpStore over ${name} (flaky server, retries)`,
    async () =>
      new HttpStore(
        await fresh({
          writable: true,
          faults: [{ every: 3, action: { respond: { status: 503, headers: { "retry-after": "0" }, body: "busy" } } }],
        }),
        { ...fast, writable: true, retries: 5, concurrency: 2 },
      ),
    api,
    { listable: false },
  );
}
