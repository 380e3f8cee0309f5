// The Node entry (the package's `node` export condition): stores read AWS_* from process.env for
// what their options leave out; options still win.
import { afterEach, expect, it, vi } from "vitest";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { S3Store } from "../src/index-node.js";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

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

it("sends with node:http, not fetch, unless given a fetch", async () => {
  const bucket = await createBucket("transport");
  const fetchSpy = vi.spyOn(globalThis, "fetch");
  const options = { bucket, endpoint: s3Endpoint(), credentials: S3_TEST_CREDENTIALS, environment: {} };
  const store = new S3Store(options);
  const value = new Uint8Array(3 << 20).map((_, i) => i * 7);
  await store.set("big", value);
  // (Compared as Buffers: toEqual on 3 MiB of elements takes half a minute.)
  const same = (bytes: Uint8Array | undefined) => bytes !== undefined && Buffer.from(value).equals(bytes);
  expect(same(await store.get("big"))).toBe(true);
  expect(await store.getRange("big", { offset: 5, length: 3 })).toEqual(value.slice(5, 8));
  expect(await store.list()).toEqual(["big"]);
  expect(fetchSpy).not.toHaveBeenCalled();

  const viaFetch = new S3Store({ ...options, fetch: (input, init) => globalThis.fetch(input, init) });
  expect(same(await viaFetch.get("big"))).toBe(true);
  expect(fetchSpy).toHaveBeenCalledTimes(1);
});
