// The store contract (@z/meta/testing) on S3Store against the loopback S3 server: each check on
// a fresh prefix of a shared bucket, and the listing checks once more at a fresh bucket's root;
// all of it over `fetch` and over the Node entry's `node:http` transport.
import { describeStoreContract } from "@z/meta/testing";
import { beforeAll, describe, it } from "vitest";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { S3Store, type S3StoreOptions } from "../src/index.js";
import { nodeTransport } from "../src/node/node-transport.js";
import { globalFetchTransport, setDefaultTransport, type Transport } from "../src/transport.js";

let bucket = "";
let stores = 0;
beforeAll(async () => {
  bucket = await createBucket("contract");
});

/** A store that sends with `transport` (stores take the default transport when they are made). */
function storeOver(transport: Transport, options: S3StoreOptions): S3Store {
  setDefaultTransport(transport);
  try {
    return new S3Store(options);
  } finally {
    setDefaultTransport(undefined);
  }
}

for (const [name, transport] of [
  ["fetch", globalFetchTransport],
  ["node:http", nodeTransport],
] as const) {
  describeStoreContract(
    `S3Store under a prefix, over ${name}`,
    () =>
      storeOver(transport, {
        bucket,
        prefix: `runs/store-${++stores}.zarr`,
        endpoint: s3Endpoint(),
        credentials: S3_TEST_CREDENTIALS,
        environment: {},
      }),
    { describe, it },
    { refusesUnsafeKeys: true },
  );

  describeStoreContract(
    `S3Store at a bucket's root, over ${name}`,
    async () =>
      storeOver(transport, {
        bucket: await createBucket("root"),
        endpoint: s3Endpoint(),
        credentials: S3_TEST_CREDENTIALS,
        environment: {},
      }),
    { describe, it },
    { refusesUnsafeKeys: true },
  );
}
