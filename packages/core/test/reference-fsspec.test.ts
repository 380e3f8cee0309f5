/**
 * NetCDF4 and HDF5 files opened as Zarr through kerchunk-style reference sets (JSON v0, v1 with
 * templates and `gen`, Parquet by fsspec's LazyReferenceMapper; made by
 * packages/store-reference/test/python/make_refs.py), with `openLocation("reference://...")`:
 * every array reads the values zarr-python 2.13 reads through fsspec's ReferenceFileSystem, with
 * the same shape, chunks, dtype, fill value and attributes (`_ARRAY_DIMENSIONS`, scale_factor,
 * add_offset, units), and the groups the same attributes; the reference files and their targets
 * on disk, over HTTP, and in the loopback S3 bucket (scripts/test-s3/).
 */
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataTypeToJSON } from "@z/meta";
import { S3Store, s3Locations } from "@z/store-s3";
import { createBucket, S3_TEST_CREDENTIALS, s3Endpoint } from "../../../scripts/test-s3/client.js";
import { FORM_FILES, makeReferences, type Expected, type Form } from "../../store-reference/test/fixtures.js";
import { startRangeServer, type RangeServer } from "../../store-reference/test/range-server.js";
import { openArray, openGroup, type ZarrArray } from "../src/index.js";
import { openLocation } from "../src/node.js";

const { dir, expected } = makeReferences();
let server: RangeServer;
let bucket = "";
beforeAll(async () => {
  server = await startRangeServer(dir);
  bucket = await createBucket("z-refs");
  const s3 = new S3Store({ bucket, endpoint: s3Endpoint(), credentials: S3_TEST_CREDENTIALS, environment: {} });
  const files = (d: string): string[] =>
    readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : [join(d, n)]));
  for (const file of files(dir)) await s3.set(relative(dir, file), new Uint8Array(readFileSync(file)));
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const s3Options = () => s3Locations({ endpoint: s3Endpoint(), credentials: S3_TEST_CREDENTIALS, environment: {} });

const base64 = (data: ArrayBufferView): string =>
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");

function sameFill(array: ZarrArray, want: string | null | undefined): void {
  const fill = array.fillValue as number | null;
  if (want === null) expect(fill, array.path).toBeNull();
  else if (want === "nan") expect(Number.isNaN(fill), array.path).toBe(true);
  else expect(fill, array.path).toBe(Number(want));
}

async function readsAsZarrPython(location: string, form: Form, want: Expected, extra = {}): Promise<void> {
  const { store } = await openLocation(location, extra);
  const root = await openGroup(store, { mode: "r" });
  expect(await root.attrs.asObject()).toEqual(want.forms[form][""]!.attrs);
  for (const [path, node] of Object.entries(want.forms[form])) {
    if (path === "") continue;
    if (node.data === undefined) {
      expect(await (await openGroup(store, { path, mode: "r" })).attrs.asObject(), path).toEqual(node.attrs);
      continue;
    }
    const array = await openArray(store, { path, mode: "r" });
    const dtype = dataTypeToJSON(array.dtype);
    expect([array.shape, array.chunks, dtype], path).toEqual([node.shape, node.chunks, node.dtype]);
    sameFill(array, node.fill_value);
    expect(await array.attrs.asObject(), path).toEqual(node.attrs);
    expect(base64((await array.get()).data as ArrayBufferView), path).toBe(node.data);
  }
}

describe.each(Object.keys(FORM_FILES) as Form[])(
  "references %s read as zarr-python reads them through fsspec",
  (form) => {
    const file = FORM_FILES[form];
    it("on disk: reference://PATH and the plain path", async () => {
      await readsAsZarrPython(`reference://${join(dir, file)}`, form, expected);
      await readsAsZarrPython(join(dir, file), form, expected);
    });

    it("over HTTP: reference://URL, targets relative to it", async () => {
      await readsAsZarrPython(`reference://${server.url}/${file}`, form, expected);
    });

    it("in an S3 bucket: reference://s3://bucket/..., targets in the same bucket", async () => {
      await readsAsZarrPython(`reference://s3://${bucket}/${file}`, form, expected, s3Options());
    });
  },
);

it("reads a variable over HTTP in one request: its chunks asked for at once (the store's preferredConcurrency), merged", async () => {
  const { store } = await openLocation(`reference://${server.url}/refs-v0.json`);
  const temp = await openArray(store, { path: "temp", mode: "r" });
  expect(temp.shape).toEqual([10, 30, 40]);
  server.reset();
  expect(base64((await temp.get()).data as Int16Array)).toBe(expected.forms.v0.temp!.data);
  // 24 chunks, more than core's own 8 in flight: with 8, three requests one after another
  expect(server.requests.get("/data.nc")).toBe(1);
  server.reset();
  await temp.get(null, { concurrency: 8 });
  expect(server.requests.get("/data.nc")).toBe(3);
});

it("opens a node inside a reference set with a TensorStore-style pipeline", async () => {
  const { store, path } = await openLocation(`${server.url}/refs.parq|reference:|zarr2:grp/a`);
  const a = await openArray(store, { path, mode: "r" });
  expect(a.shape).toEqual([20, 30]);
  expect(base64((await a.get()).data as Int32Array)).toBe(expected.forms.parquet["grp/a"]!.data);
});
