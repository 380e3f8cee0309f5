// Reference sets (kerchunk-style, made by packages/store-reference/test/python/make_refs.py from
// NetCDF4 and HDF5 files) as STORE arguments: `reference://PATH-OR-URL`, a `.json` file, a `.parq`
// directory; `info`, `tree` and `get` read them, `copy` turns one into a real Zarr store holding
// the values zarr-python reads through fsspec; they cannot be written.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openArray } from "@z/core";
import { DirectoryStore } from "@z/store-fs";
import { makeReferences } from "../../store-reference/test/fixtures.js";
import { startRangeServer, type RangeServer } from "../../store-reference/test/range-server.js";
import { run, tempDir } from "./helpers.js";

const { dir, expected } = makeReferences();
let server: RangeServer;
beforeAll(async () => {
  server = await startRangeServer(dir);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ok(args: string[]): Promise<string> {
  const result = await run(args);
  expect(result.code, `zarr ${args.join(" ")}: ${result.err}`).toBe(0);
  return result.out;
}

it("zarr tree of a Parquet reference directory", async () => {
  const out = await ok(["tree", join(dir, "refs.parq")]);
  for (const line of ["a (20, 30) int32", "c (10, 50) float64", "temp (10, 30, 40) int16", "time (10,) float64"])
    expect(out).toContain(line);
});

it("zarr info of reference://URL over HTTP", async () => {
  const out = await ok(["info", `reference://${server.url}/refs-v1.json`, "--path", "temp"]);
  expect(out).toMatch(/Shape\s+: \(10, 30, 40\)/);
  expect(out).toMatch(/Filter \[0\]\s+: Shuffle\(elementsize=2\)/);
  expect(out).toMatch(/Chunks initialized : 24\/24/);
});

it("zarr get of a .json reference file", async () => {
  expect((await ok(["get", join(dir, "refs-v0.json"), "--path", "grp/tiny"])).trim()).toBe(
    "array([1, 2, 3], dtype=uint8)",
  );
});

it("zarr copy from references into a directory store holds what zarr-python reads", async () => {
  const out = join(await tempDir(), "copy.zarr");
  await ok(["copy", `reference://${join(dir, "refs.parq")}`, out]);
  const store = new DirectoryStore(out);
  for (const [path, node] of Object.entries(expected.forms.parquet)) {
    if (node.data === undefined) continue;
    const data = (await (await openArray(store, { path, mode: "r" })).get()).data as ArrayBufferView;
    expect(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64"), path).toBe(node.data);
  }
});

it("refuses to write into a reference set", async () => {
  const result = await run(["copy", join(dir, "refs-v0.json"), `reference://${join(dir, "refs-v1.json")}`]);
  expect(result.code).not.toBe(0);
  expect(result.err).toMatch(/reference sets are read-only/);
});
