// z and zarr-python 2.13 on one S3 bucket (the loopback S3 server, scripts/test-s3/): z writes
// through S3Store and zarr-python reads through boto3 (scripts/test-s3/s3map.py, a MutableMapping
// over a boto3 client, which signs its own requests), and the other way round. Values are compared
// bit for bit: SHA-256 of each array's bytes in little-endian C order, on both sides.
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { S3Store } from "@z/store-s3";
import { beforeAll, describe, expect, it } from "vitest";
import { hasZarrPython, python } from "../../../scripts/test-child/python.js";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { consolidateMetadata, create, group, openArray, openConsolidated, openGroup, slice } from "../src/index.js";
import { hasBoto3 } from "./s3-python.js";
import { requireTool } from "../../../scripts/test-child/tools.js";

const s3map = fileURLToPath(new URL("../../../scripts/test-s3/", import.meta.url));

/** A Python script with `S3Map` imported and `m`, the map over argv's endpoint, bucket and prefix. */
const withMap = (body: string): string =>
  `import sys, json, hashlib\nsys.path.insert(0, ${JSON.stringify(s3map)})\nfrom s3map import S3Map\nimport zarr, numpy as np\nm = S3Map.from_argv()\n${body}`;

/** SHA-256 of an array's values as little-endian C-order bytes, and its dtype, shape and fill value. */
const pythonDigest = `
def digest(a):
    data = a[...]
    le = data.astype(data.dtype.newbyteorder("<")) if data.dtype.byteorder == ">" else data
    return {"sha256": hashlib.sha256(np.ascontiguousarray(le).tobytes()).hexdigest(), "dtype": a.dtype.str,
            "shape": list(a.shape), "fill": None if a.fill_value is None else repr(a.fill_value)}
`;

const sha256 = (data: ArrayBufferView): string =>
  createHash("sha256")
    .update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength))
    .digest("hex");

let bucket = "";
beforeAll(async () => {
  if (hasZarrPython && hasBoto3) bucket = await createBucket("zarr-python");
});

const store = (prefix: string): S3Store =>
  new S3Store({ bucket, prefix, endpoint: s3Endpoint(), credentials: S3_TEST_CREDENTIALS, environment: {} });

// CI installs both (scripts/ensure-python-zarr.sh): there, their absence fails instead of skipping.
describe("zarr-python through boto3", { timeout: 60_000 }, () => {
  requireTool("zarr-python", hasZarrPython);
  requireTool("boto3", hasBoto3);
  it("reads what z wrote: a group with attributes, four dtypes, codecs, nested keys, missing chunks", async () => {
    const s = store("z-wrote/h.zarr");
    const root = await group({ store: s });
    await root.attrs.put({ title: "written by z", n: 3 });
    const f8 = await root.zeros("sub/f8", {
      shape: [30, 20],
      chunks: [16, 12],
      dtype: "<f8",
      compressor: { id: "zlib", level: 1 },
    });
    const values = new Float64Array(600).map((_, i) => Math.sin(i) * 1e3);
    values[0] = Number.NaN;
    values[1] = -0;
    values[2] = Number.POSITIVE_INFINITY;
    await f8.set(null, { data: values, shape: [30, 20] });
    const i2 = await root.full("i2", {
      shape: [50],
      chunks: [8],
      dtype: ">i2",
      fillValue: -7,
      compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1 },
    });
    await i2.set([slice(0, 20)], { data: Int16Array.from({ length: 20 }, (_, i) => i * 1000 - 9000), shape: [20] });
    const nested = await root.zeros("nested", {
      shape: [9, 9, 9],
      chunks: [5, 5, 5],
      dtype: "<u4",
      dimensionSeparator: "/",
    });
    await nested.set([slice(4, 9), slice(0, 9), slice(2, 7)], 0xdeadbeef);
    const bools = await root.full("bools", {
      shape: [5, 5],
      chunks: [2, 2],
      dtype: "|b1",
      fillValue: true,
      compressor: null,
    });
    await bools.set([slice(0, 2), slice(0, 2)], 0);
    const expected: Record<string, string> = {};
    for (const [, array] of await root.arrays({ recurse: true }))
      expected[array.path] = sha256((await array.get()).data as ArrayBufferView);
    const seen = python<{ attrs: unknown; digests: Record<string, { sha256: string; dtype: string }>; keys: string[] }>(
      withMap(`${pythonDigest}
g = zarr.open_group(m, mode="r")
digests = {}
g.visititems(lambda name, node: digests.__setitem__(name, digest(node)) if isinstance(node, zarr.Array) else None)
print(json.dumps({"attrs": dict(g.attrs), "digests": digests, "keys": sorted(m)}))`),
      s3Endpoint(),
      bucket,
      s.prefix,
    );
    expect(seen.attrs).toEqual({ title: "written by z", n: 3 });
    expect(Object.fromEntries(Object.entries(seen.digests).map(([name, d]) => [name, d.sha256]))).toEqual(expected);
    expect(seen.digests["sub/f8"]?.dtype).toBe("<f8");
    expect(seen.digests.i2?.dtype).toBe(">i2");
    // Chunks only where z wrote something other than the fill value; nested keys for "nested".
    expect(seen.keys.filter((k) => k.startsWith("i2/"))).toEqual(["i2/.zarray", "i2/0", "i2/1", "i2/2"]);
    expect(seen.keys).toContain("nested/1/0/0");
  });

  it("z reads what zarr-python wrote, through listings and through consolidated metadata", async () => {
    const s = store("python-wrote/h.zarr");
    const written = python<Record<string, { sha256: string; dtype: string; shape: number[] }>>(
      withMap(`${pythonDigest}
g = zarr.open_group(m, mode="w")
g.attrs["source"] = "zarr-python"
rng = np.random.default_rng(7)
a = g.create_dataset("a", data=rng.standard_normal((40, 33)).astype("<f4"), chunks=(16, 10), compressor=zarr.Blosc("zstd", 3, 2))
b = g.create_dataset("deep/b", data=np.arange(1000, dtype=">i8").reshape(10, 100) * -12345, chunks=(3, 33))
c = g.full("deep/er/c", shape=(17,), chunks=(4,), dtype="<u2", fill_value=99)
c[5:9] = [1, 2, 3, 4]
d = g.create_dataset("d", data=np.array([b"ab", b"cde", b""], dtype="|S3"), chunks=(2,))
zarr.consolidate_metadata(m)
print(json.dumps({name: digest(node) for name, node in [("a", a), ("deep/b", b), ("deep/er/c", c), ("d", d)]}))`),
      s3Endpoint(),
      bucket,
      s.prefix,
    );

    const root = await openGroup(s, { mode: "r" });
    expect(await root.attrs.asObject()).toEqual({ source: "zarr-python" });
    const listed = Object.fromEntries(
      await Promise.all(
        (await root.arrays({ recurse: true })).map(async ([, array]) => [
          array.path,
          sha256((await array.get()).data as ArrayBufferView),
        ]),
      ),
    );
    expect(listed).toEqual(Object.fromEntries(Object.entries(written).map(([name, d]) => [name, d.sha256])));

    const consolidated = await openConsolidated(s, { mode: "r" });
    const c = await openArray(s, { path: "deep/er/c", mode: "r" });
    expect(Array.from((await c.get()).data as Uint16Array)).toEqual([
      99, 99, 99, 99, 99, 1, 2, 3, 4, 99, 99, 99, 99, 99, 99, 99, 99,
    ]);
    expect(consolidated.constructor.name).toBe("Group");
  });

  it("zarr-python opens the metadata z consolidated on S3", async () => {
    const s = store("z-consolidated.zarr");
    const root = await group({ store: s });
    const x = await root.create("x", { shape: [6], chunks: [4], dtype: "<i4" });
    await x.set(null, { data: Int32Array.from([1, 2, 3, 4, 5, 6]), shape: [6] });
    await root.createGroup("g");
    await consolidateMetadata(s);
    const seen = python<{ x: number[]; members: string[] }>(
      withMap(`
g = zarr.open_consolidated(m, mode="r")
print(json.dumps({"x": g["x"][:].tolist(), "members": sorted(g.keys())}))`),
      s3Endpoint(),
      bucket,
      s.prefix,
    );
    expect(seen).toEqual({ x: [1, 2, 3, 4, 5, 6], members: ["g", "x"] });
  });

  it("z's creates and zarr-python's writes land in one array, each reading the other's chunks", async () => {
    const s = store("both.zarr");
    const z = await create({ store: s, shape: [8, 8], chunks: [4, 4], dtype: "<f4", fillValue: -1 });
    await z.set([slice(0, 4), slice(0, 8)], 1.5);
    python(
      withMap(`
a = zarr.open_array(m, mode="r+")
a[4:8, 0:4] = 2.25
print("null")`),
      s3Endpoint(),
      bucket,
      s.prefix,
    );
    const { data } = await (await openArray(s, { mode: "r" })).get();
    const expected = new Float32Array(64).fill(-1);
    expected.fill(1.5, 0, 32);
    for (let row = 4; row < 8; row++) expected.fill(2.25, row * 8, row * 8 + 4);
    expect(sha256(data as Float32Array)).toBe(sha256(expected));
  });
});
