// The CLI on s3:// stores (the loopback S3 server, scripts/test-s3/), with credentials and
// endpoint from AWS_* as a user sets them: copy up with progress and --concurrency, then every
// command on the bucket gives what it gives on the local copy.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { FIXTURES, fixtureCopy, run, STORE, tempDir } from "./helpers.js";

beforeEach(() => {
  vi.stubEnv("AWS_ACCESS_KEY_ID", S3_TEST_CREDENTIALS.accessKeyId);
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", S3_TEST_CREDENTIALS.secretAccessKey);
  vi.stubEnv("AWS_ENDPOINT_URL_S3", s3Endpoint());
  vi.stubEnv("AWS_REGION", "us-east-1");
});
afterEach(() => vi.unstubAllEnvs());

/** Output with the store's name (and `info`'s store type) replaced, to compare a command's output on two stores. */
const same = (text: string, name: string): string =>
  text.replaceAll(name, "STORE").replace(/^Store type {2}: (DirectoryStore|S3Store)$/m, "Store type  : X");

describe("s3:// stores", { timeout: 120_000 }, () => {
  it("copy uploads a hierarchy; tree, info, digest, get and validate read it as the local one", async () => {
    const bucket = await createBucket("cli");
    const url = `s3://${bucket}/data/store.zarr`;
    const copied = await run(["copy", STORE, url, "--concurrency", "16"]);
    expect(copied).toMatchObject({ code: 0, err: expect.stringMatching(/^copied \d+ keys \(\d+ bytes\) to s3:\/\//m) });

    for (const argv of [["tree"], ["info", "--path", "grp"], ["digest", "--path", "b"], ["get", "--path", "b"]]) {
      const [command, ...rest] = argv as [string, ...string[]];
      const local = await run([command, STORE, ...rest]);
      const remote = await run([command, url, ...rest]);
      expect(local.code, `${command} locally: ${local.err}`).toBe(0);
      expect({ code: remote.code, out: same(remote.out, url) }, `${command} on S3`).toEqual({
        code: 0,
        out: same(local.out, STORE),
      });
    }
    expect(await run(["validate", url])).toMatchObject({ code: 0 });
    // TensorStore's URL form names a node inside the bucket's store.
    const node = await run(["info", `${url}|zarr2:grp`]);
    expect(same(node.out, `${url}|zarr2:grp`)).toBe(
      same((await run(["info", `${STORE}|zarr2:grp`])).out, `${STORE}|zarr2:grp`),
    );
  });

  it("consolidate writes .zmetadata in the bucket, and copy back down gives the same bytes", async () => {
    const bucket = await createBucket("cli-consolidate");
    const url = `s3://${bucket}/c.zarr`;
    const local = await fixtureCopy();
    expect((await run(["copy", local, url])).code).toBe(0);
    expect((await run(["consolidate", url])).code).toBe(0);
    expect((await run(["consolidate", local])).code).toBe(0);
    const down = join(await tempDir(), "down.zarr");
    // At a terminal, copy shows its progress.
    const copy = await run(["copy", url, down, "--concurrency", "4"], { interactive: true });
    expect(copy.code).toBe(0);
    expect(copy.err).toMatch(/copying .*100%/s);
    expect(await readFile(join(down, ".zmetadata"), "utf8")).toBe(await readFile(join(local, ".zmetadata"), "utf8"));
    expect((await run(["digest", down, "--path", "grp/a"])).out).toBe(
      (await run(["digest", local, "--path", "grp/a"])).out,
    );
  });

  it("import a .npy into a bucket and export it back, byte for byte", async () => {
    const bucket = await createBucket("cli-npy");
    const file = join(FIXTURES, "npy", "F-3d-be.npy");
    const url = `s3://${bucket}/npy.zarr|zarr2:imported/a`;
    expect((await run(["import", file, url, "--chunks", "2,2,2"])).code).toBe(0);
    const out = join(await tempDir(), "back.npy");
    expect((await run(["export", url, "--out", out])).code).toBe(0);
    expect(await readFile(out)).toEqual(await readFile(file));
  });

  it("a TensorStore spec with an s3 kvstore is a STORE: create --spec, then get and info through the spec", async () => {
    const bucket = await createBucket("cli-spec");
    const spec = JSON.stringify({
      driver: "zarr2",
      kvstore: { driver: "s3", bucket, path: "spec.zarr/", endpoint: s3Endpoint(), aws_region: "us-east-1" },
      metadata: { shape: [4, 6], chunks: [2, 3], dtype: "<i4", compressor: { id: "zlib", level: 1 } },
      create: true,
    });
    expect(await run(["create", "--spec", spec])).toMatchObject({ code: 0 });
    // Opened through the spec (its metadata checked as constraints) and as a plain s3:// URL alike.
    for (const store of [spec.replace(',"create":true', ""), `s3://${bucket}/spec.zarr`]) {
      const info = await run(["info", store]);
      expect(info, info.err).toMatchObject({ code: 0, out: expect.stringMatching(/Shape\s*: \(4, 6\)/) });
      expect(info.out).toMatch(/Chunk shape\s*: \(2, 3\)/);
    }
    const mismatch = await run(["info", spec.replace(',"create":true', "").replace('"<i4"', '"<i8"')]);
    expect(mismatch).toMatchObject({ code: 1, err: expect.stringMatching(/dtype/) });
  });

  it("a bucket that does not exist and wrong keys are failures naming the bucket and the S3 error", async () => {
    const missing = await run(["tree", "s3://no-such-bucket-cli/x.zarr"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no-such-bucket-cli.*NoSuchBucket/);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "wrong");
    const wrong = await run(["info", `s3://${await createBucket("cli-keys")}/x.zarr`]);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/SignatureDoesNotMatch/);
  });
});
