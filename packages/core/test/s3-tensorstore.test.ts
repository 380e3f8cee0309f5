// TensorStore 0.1.85 and z on one bucket of the loopback S3 server, named by the same TensorStore
// URL (`s3://bucket/x.zarr|zarr2:group/array`): TensorStore parses it (ts.Spec(url)) into its s3
// kvstore (bucket, path) and zarr driver, z into its S3Store (bucket, prefix) and node path; each
// reads what the other wrote there, bit for bit. TensorStore's s3 driver signs its own requests
// (SigV4, checked by the test server). Runs where TensorStore is installed: $Z_TENSORSTORE_PYTHON,
// or the venv of apps/bench/python/ensure-tensorstore.sh, or /work/venv-ts.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { create, slice } from "../src/index.js";
import { openArrayPath, openLocation } from "../src/node.js";
import { requireTool } from "../../../scripts/test-child/tools.js";

const candidates = [
  process.env.Z_TENSORSTORE_PYTHON,
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "z-bench/venv-tensorstore/bin/python"),
  "/work/venv-ts/bin/python",
].filter((p): p is string => p !== undefined && existsSync(p));
const tensorstorePython = candidates.find(
  (p) => spawnSync(p, ["-c", "import tensorstore"], { stdio: "ignore" }).status === 0,
);

/** Runs a script with TensorStore's Python: `spec(url)` gives the URL's spec with the test server's endpoint. */
function tensorstore<T>(script: string, ...args: string[]): T {
  const prelude = `import sys, os, json, hashlib
import numpy as np, tensorstore as ts
os.environ.update(AWS_ACCESS_KEY_ID="S3RVER", AWS_SECRET_ACCESS_KEY="S3RVER")
def spec(url, **extra):
    s = ts.Spec(url).to_json()
    s["kvstore"].update(endpoint=sys.argv[1], aws_region="us-east-1", aws_credentials={"type": "environment"})
    s.update(extra)
    return s
`;
  const run = spawnSync(tensorstorePython!, ["-c", prelude + script, s3Endpoint(), ...args], {
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

beforeEach(() => {
  vi.stubEnv("AWS_ACCESS_KEY_ID", S3_TEST_CREDENTIALS.accessKeyId);
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", S3_TEST_CREDENTIALS.secretAccessKey);
  vi.stubEnv("AWS_ENDPOINT_URL_S3", s3Endpoint());
});
afterEach(() => vi.unstubAllEnvs());

describe("TensorStore URLs on S3", { timeout: 120_000 }, () => {
  requireTool("tensorstore", tensorstorePython !== undefined);
  it("z reads the array TensorStore wrote at s3://bucket/x.zarr|zarr2:group/array", async () => {
    const url = `s3://${await createBucket("tensorstore")}/x.zarr|zarr2:group/array`;
    const written = tensorstore<{ sha256: string; spec: unknown }>(
      `a = ts.open(spec(sys.argv[2], create=True, metadata={"shape": [9, 7], "chunks": [4, 3], "dtype": "<f8",
                 "compressor": {"id": "zlib", "level": 1}, "fill_value": 0.5})).result()
values = np.sin(np.arange(63, dtype="<f8")).reshape(9, 7)
a[0:5, :] = values[0:5, :]
print(json.dumps({"sha256": hashlib.sha256(a.read().result().astype("<f8").tobytes()).hexdigest(),
                  "spec": ts.Spec(sys.argv[2]).to_json()}))`,
      url,
    );
    // TensorStore's reading of the URL: bucket and path, the zarr2 part appended to the path.
    expect(written.spec).toMatchObject({ driver: "zarr", kvstore: { driver: "s3", path: "x.zarr/group/array/" } });
    const { path } = await openLocation(url);
    expect(path).toBe("group/array");
    const a = await openArrayPath(url, { mode: "r" });
    expect(a.shape).toEqual([9, 7]);
    expect(sha256((await a.get()).data as Float64Array)).toBe(written.sha256);
  });

  it("TensorStore reads what z wrote at the same URL (a percent-encoded path too)", async () => {
    // (Not a space: TensorStore 0.1.85 puts it into its request URL unencoded, which curl refuses.)
    const url = `s3://${await createBucket("tensorstore")}/tilde%7Edir/y.zarr|zarr2:g/b`;
    const { store, path } = await openLocation(url);
    const z = await create({ store: store as never, path, shape: [5, 6], chunks: [2, 4], dtype: "<i2", fillValue: -1 });
    await z.set([slice(1, 4), slice(2, 6)], { data: Int16Array.from({ length: 12 }, (_, i) => i * 99), shape: [3, 4] });
    const expected = sha256((await z.get()).data as Int16Array);
    const seen = tensorstore<{ sha256: string; path: string }>(
      `a = ts.open(spec(sys.argv[2])).result()
print(json.dumps({"sha256": hashlib.sha256(a.read().result().astype("<i2").tobytes()).hexdigest(),
                  "path": ts.Spec(sys.argv[2]).to_json()["kvstore"]["path"]}))`,
      url,
    );
    expect(seen).toEqual({ sha256: expected, path: "tilde~dir/y.zarr/g/b/" });
    expect((store as { prefix?: string }).prefix).toBe("tilde~dir/y.zarr/");
  });
});
