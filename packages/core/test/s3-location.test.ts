// s3:// locations: openLocation with @z/store-s3's opener (any runtime), and @z/core/node loading
// @z/store-s3 itself, with credentials and endpoint from AWS_* (as the CLI does).
import { s3Locations, S3Store } from "@z/store-s3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { create, LocationError, openArray, openLocation, parseLocation, slice } from "../src/index.js";
import { openArrayPath, openLocation as openNodeLocation } from "../src/node.js";

afterEach(() => vi.unstubAllEnvs());

describe("s3:// locations", () => {
  it("parses buckets, prefixes and TensorStore's zarr2: parts", () => {
    expect(parseLocation("s3://bucket/path/x.zarr")).toEqual({ kind: "s3", url: "s3://bucket/path/x.zarr", node: "" });
    expect(parseLocation("s3://bucket/x.zarr|zarr2:group/array")).toEqual({
      kind: "s3",
      url: "s3://bucket/x.zarr",
      node: "group/array",
    });
    expect(parseLocation("s3://bucket")).toMatchObject({ kind: "s3", url: "s3://bucket" });
    expect(() => parseLocation("s3://bucket/x.zip")).toThrow(/zip files in S3/);
    expect(() => parseLocation("s3:///nobucket")).toThrow(LocationError);
  });

  it("opens with the opener it is given, and says which package to pass without one", async () => {
    const bucket = await createBucket("location");
    const opener = s3Locations({ endpoint: s3Endpoint(), credentials: S3_TEST_CREDENTIALS, environment: {} });
    const { store, path } = await openLocation(`s3://${bucket}/data/x.zarr|zarr2:g/a`, { ...opener });
    expect(store).toBeInstanceOf(S3Store);
    expect([(store as S3Store).bucket, (store as S3Store).prefix, path]).toEqual([bucket, "data/x.zarr/", "g/a"]);
    const a = await create({ store: store as S3Store, path, shape: [4], chunks: [2], dtype: "<u2" });
    await a.set([slice(1, 3)], 7);
    expect((await (store as S3Store).list()).sort()).toEqual([".zgroup", "g/.zgroup", "g/a/.zarray", "g/a/0", "g/a/1"]);
    await expect(openLocation(`s3://${bucket}/x.zarr`)).rejects.toMatchObject({
      code: "ZARR_LOCATION",
      packageName: "@z/store-s3",
      message: expect.stringMatching(/S3 buckets need @z\/store-s3 .*s3Locations/),
    });
  });

  it("@z/core/node opens s3:// itself, with credentials and endpoint from AWS_*", async () => {
    const bucket = await createBucket("node-location");
    vi.stubEnv("AWS_ACCESS_KEY_ID", S3_TEST_CREDENTIALS.accessKeyId);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", S3_TEST_CREDENTIALS.secretAccessKey);
    vi.stubEnv("AWS_ENDPOINT_URL_S3", s3Endpoint());
    const { store, path } = await openNodeLocation(`s3://${bucket}/y.zarr|zarr2:arr`);
    await create({ store: store as S3Store, path, shape: [3, 3], chunks: [2, 2], dtype: "<i8", fillValue: 5 });
    const a = await openArrayPath(`s3://${bucket}/y.zarr|zarr2:arr`, { mode: "r" });
    expect(Array.from((await a.get()).data as BigInt64Array)).toEqual(Array(9).fill(5n));
    expect((await openArray(store, { path, mode: "r" })).shape).toEqual([3, 3]);
  });
});
