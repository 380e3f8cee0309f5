// The store contract (@z/meta/testing) on S3Store against the loopback S3 server: each check on
// a fresh prefix of a shared bucket, and the listing checks once more at a fresh bucket's root.
import { describeStoreContract } from "@z/meta/testing";
import { beforeAll, describe, it } from "vitest";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { S3Store } from "../src/index.js";

let bucket = "";
let stores = 0;
beforeAll(async () => {
  bucket = await createBucket("contract");
});

describeStoreContract(
  "S3Store under a prefix",
  () =>
    new S3Store({
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
  "S3Store at a bucket's root",
  async () =>
    new S3Store({
      bucket: await createBucket("root"),
      endpoint: s3Endpoint(),
      credentials: S3_TEST_CREDENTIALS,
      environment: {},
    }),
  { describe, it },
  { refusesUnsafeKeys: true },
);
