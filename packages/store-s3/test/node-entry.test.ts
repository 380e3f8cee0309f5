// The Node entry (the package's `node` export condition): stores read AWS_* from process.env for
// what their options leave out; options still win.
import { afterEach, expect, it, vi } from "vitest";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { S3Store } from "../src/index-node.js";

afterEach(() => vi.unstubAllEnvs());

it("takes credentials, region and endpoint from the process's environment", async () => {
  const bucket = await createBucket("env");
  vi.stubEnv("AWS_ACCESS_KEY_ID", S3_TEST_CREDENTIALS.accessKeyId);
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", S3_TEST_CREDENTIALS.secretAccessKey);
  vi.stubEnv("AWS_SESSION_TOKEN", "");
  vi.stubEnv("AWS_DEFAULT_REGION", "ap-south-2");
  vi.stubEnv("AWS_REGION", "");
  vi.stubEnv("AWS_ENDPOINT_URL", s3Endpoint());
  vi.stubEnv("AWS_ENDPOINT_URL_S3", "");
  const store = new S3Store({ bucket, prefix: "x.zarr" });
  expect([store.signed, store.region, store.endpoint.origin]).toEqual([true, "ap-south-2", s3Endpoint()]);
  await store.set(".zgroup", new TextEncoder().encode('{"zarr_format":2}'));
  expect(await store.list()).toEqual([".zgroup"]);

  // A wrong secret in the environment is used, and S3 says so.
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", "not-the-secret");
  await expect(new S3Store({ bucket }).list()).rejects.toMatchObject({ s3Code: "SignatureDoesNotMatch" });
  // Options win over the environment.
  expect(await new S3Store({ bucket, credentials: S3_TEST_CREDENTIALS }).list()).toEqual(["x.zarr/.zgroup"]);
  expect(new S3Store({ bucket, anonymous: true }).signed).toBe(false);
});
