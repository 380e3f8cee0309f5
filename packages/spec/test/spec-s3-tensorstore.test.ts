// A TensorStore zarr2 spec with an s3 kvstore (bucket, path, endpoint, aws_region, aws_credentials,
// requester_pays, s3_request_* resources) given to z's openSpec and to TensorStore 0.1.85, on one
// bucket of the loopback S3 server: what one creates and writes, the other opens with the same
// spec and reads, value for value. TensorStore's s3 driver signs its requests (SigV4, checked by
// the test server), and so does z's S3Store. Runs where TensorStore is installed:
// $Z_TENSORSTORE_PYTHON, or the venv of apps/bench/python/ensure-tensorstore.sh, or /work/venv-ts.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { JsonValue } from "@z/meta";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { slice, type ZarrArray } from "@z/core";
import { openSpec } from "../src/node.js";
import { specZarray } from "../src/create.js";
import { requireTool } from "../../../scripts/test-child/tools.js";

const candidates = [
  process.env.Z_TENSORSTORE_PYTHON,
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "z-bench/venv-tensorstore/bin/python"),
  "/work/venv-ts/bin/python",
].filter((p): p is string => p !== undefined && existsSync(p));
const tensorstorePython = candidates.find(
  (p) => spawnSync(p, ["-c", "import tensorstore"], { stdio: "ignore" }).status === 0,
);

/** Runs a script with TensorStore's Python; `spec` is the spec given (JSON), credentials in the environment. */
function tensorstore<T>(script: string, spec: JsonValue): T {
  const prelude = `import sys, os, json, hashlib
import numpy as np, tensorstore as ts
os.environ.update(AWS_ACCESS_KEY_ID="S3RVER", AWS_SECRET_ACCESS_KEY="S3RVER")
spec = json.loads(sys.argv[1])
`;
  const run = spawnSync(tensorstorePython!, ["-c", prelude + script, JSON.stringify(spec)], {
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`TensorStore failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

const sha256 = (data: ArrayBufferView): string =>
  createHash("sha256")
    .update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
    .digest("hex");

/** The s3 kvstore both are given: the test server's endpoint, credentials from the environment. */
const kvstore = (bucket: string, path: string, extra: Record<string, JsonValue> = {}): JsonValue => ({
  driver: "s3",
  bucket,
  path,
  endpoint: s3Endpoint(),
  aws_region: "us-east-1",
  aws_credentials: { type: "environment" },
  ...extra,
});

beforeEach(() => {
  // The credentials "environment" means; no endpoint from the environment (the spec names it).
  vi.stubEnv("AWS_ACCESS_KEY_ID", S3_TEST_CREDENTIALS.accessKeyId);
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", S3_TEST_CREDENTIALS.secretAccessKey);
  vi.stubEnv("AWS_ENDPOINT_URL_S3", "");
  vi.stubEnv("AWS_ENDPOINT_URL", "");
});
afterEach(() => vi.unstubAllEnvs());

describe("s3 kvstore specs, z and TensorStore", { timeout: 120_000 }, () => {
  requireTool("tensorstore", tensorstorePython !== undefined);
  it("TensorStore opens and reads the array z created from an s3 spec", async () => {
    const bucket = await createBucket("spec-s3");
    const create: JsonValue = {
      driver: "zarr2",
      kvstore: kvstore(bucket, "data/x.zarr/", {
        s3_request_concurrency: { limit: 4 },
        s3_request_retries: { max_retries: 3, initial_delay: "10ms", max_delay: "100ms" },
      }),
      path: "group/array",
      create: true,
      schema: {
        dtype: "int32",
        domain: { shape: [9, 13] },
        chunk_layout: { chunk: { shape: [4, 5] } },
        fill_value: -7,
        codec: { driver: "zarr", compressor: { id: "zlib", level: 3 } },
      },
    };
    const z = (await openSpec(create)) as ZarrArray;
    await z.set([slice(1, 8), slice(2, 13)], {
      data: Int32Array.from({ length: 77 }, (_, i) => i * 1001 - 5000),
      shape: [7, 11],
    });
    const expected = sha256((await z.get()).data as Int32Array);
    const { create: _, ...open } = create as Record<string, JsonValue>;
    const seen = tensorstore<{ sha256: string; shape: number[]; dtype: string; zarray: string; keys: string[] }>(
      `a = ts.open(spec).result()
kv = ts.KvStore.open(spec["kvstore"]).result()
print(json.dumps({"sha256": hashlib.sha256(a.read().result().astype("<i4").tobytes()).hexdigest(),
                  "shape": list(a.shape), "dtype": a.dtype.name,
                  "zarray": kv.read("group/array/.zarray").result().value.decode(),
                  "keys": sorted(k.decode() for k in kv.list().result())}))`,
      open,
    );
    expect(seen).toMatchObject({ sha256: expected, shape: [9, 13], dtype: "int32" });
    // z wrote the .zarray TensorStore writes for the spec, where TensorStore looks for it.
    expect(seen.zarray).toBe(specZarray(create));
    expect(seen.keys).toContain("group/array/0.0");
    expect(seen.keys.every((k) => k.startsWith("group/array/"))).toBe(true);
  });

  it("z opens and reads the array TensorStore created from the same s3 spec (requester_pays too)", async () => {
    const bucket = await createBucket("spec-s3");
    const spec: JsonValue = {
      driver: "zarr2",
      kvstore: kvstore(bucket, "tensorstore.zarr/", { requester_pays: true }),
      path: "b",
      metadata: { shape: [6, 10], chunks: [4, 4], dtype: "<f8", fill_value: 0.25, compressor: { id: "blosc" } },
    };
    const written = tensorstore<{ sha256: string }>(
      `a = ts.open({**spec, "create": True}).result()
values = np.cos(np.arange(40, dtype="<f8")).reshape(4, 10)
a[1:5, :] = values
print(json.dumps({"sha256": hashlib.sha256(a.read().result().astype("<f8").tobytes()).hexdigest()}))`,
      spec,
    );
    const z = (await openSpec(spec)) as ZarrArray;
    expect(z.shape).toEqual([6, 10]);
    expect(sha256((await z.get()).data as Float64Array)).toBe(written.sha256);
    // The same array, its node path inside the kvstore's path rather than in the spec's legacy "path".
    const { path: _, ...rest } = spec as Record<string, JsonValue>;
    const viaUrl = (await openSpec({
      ...rest,
      kvstore: { ...(kvstore(bucket, "tensorstore.zarr/b") as Record<string, JsonValue>) },
    })) as ZarrArray;
    expect(sha256((await viaUrl.get()).data as Float64Array)).toBe(written.sha256);
  });
});
