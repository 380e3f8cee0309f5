import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Group, openArray, openConsolidated, openGroup, openLocation, slice, type ZarrArray } from "@z/core";
import { dataTypeToJSON } from "@z/meta";
import { HttpStore, httpLocations } from "@z/store-http";
import { openSession, type Session } from "../../../scripts/test-server/client.js";
import {
  describeSelection,
  expected,
  expectedBytes,
  FIXTURES,
  littleEndianBytes,
  plainValues,
  readSelection,
  smallArrays,
} from "./http-fixtures.js";

// A hierarchy zarr-python 2.13 wrote to a directory (test/python/http_fixtures.py), served by the
// shared test server (scripts/test-server/) and opened by URL, in Node and in headless Chromium:
// every value must be what zarr-python read, bit for bit.

let session: Session;
let url: string;
beforeAll(async () => {
  session = await openSession({ files: FIXTURES });
  url = `${session.url}hierarchy.zarr`;
});
afterAll(() => session.end());

/** What the session was asked since request `since`: `METHOD status path` each. */
async function asked(since = 0): Promise<string[]> {
  return (await session.log()).requests
    .slice(since)
    .map((r) => `${r.method} ${r.status} ${r.path.replace("/hierarchy.zarr/", "")}`);
}
const logLength = async () => (await session.log()).requests.length;

/** The root opened by URL through its consolidated metadata. */
async function consolidatedRoot(): Promise<Group> {
  const { store, path } = await openLocation(url, { ...httpLocations() });
  return (await openConsolidated(store, { path, mode: "r" })) as Group;
}

describe("opening a hierarchy zarr-python wrote, by URL", () => {
  it("openLocation gives an HttpStore; openConsolidated needs one round trip for all the metadata", async () => {
    const since = await logLength();
    const { store, path, location } = await openLocation(url, { ...httpLocations() });
    expect(store).toBeInstanceOf(HttpStore);
    expect([path, location.kind]).toEqual(["", "http"]);
    const root = (await openConsolidated(store, { mode: "r" })) as Group;
    expect(root).toBeInstanceOf(Group);
    expect(await root.tree()).toBe(expected.tree);
    expect(await root.attrs.asObject()).toEqual({ title: "written by zarr-python", version: "2.13.6" });
    expect(await root.arrayKeys()).toEqual(["big_endian_i4", "lz4", "sparse", "sparse_nan", "zstd"]);
    expect(await root.groupKeys()).toEqual(["sub"]);
    const sub = (await root.getItem("sub")) as Group;
    expect(await sub.attrs.get("note")).toBe("a subgroup");
    const zlib = (await root.getItem("sub/zlib")) as ZarrArray;
    expect([zlib.order, zlib.dimensionSeparator, zlib.compressor]).toEqual(["F", "/", { id: "zlib", level: 1 }]);
    expect(await zlib.attrs.get("case")).toBe("sub/zlib");
    // Listing, attributes and array metadata all came from .zmetadata (which also says there is no
    // spec-v1 `meta` at the root), asked at once with the root's zarr.json (a v3 consolidation).
    expect(new Set(await asked(since))).toEqual(new Set(["GET 404 zarr.json", "GET 200 .zmetadata"]));
  });

  it("opens a node inside the hierarchy from a TensorStore-style URL", async () => {
    const { store, path } = await openLocation(`${url}|zarr2:sub/big_endian_f8`, { ...httpLocations() });
    expect(path).toBe("sub/big_endian_f8");
    const z = await openArray(store, { path, mode: "r" });
    expect(dataTypeToJSON(z.dtype)).toBe(">f8");
    expect(littleEndianBytes(await z.get())).toEqual(
      expectedBytes(smallArrays.find((a) => a.path === "sub/big_endian_f8")!),
    );
  });

  it("without consolidated metadata, opens group and arrays key by key (.zgroup, .zarray, .zattrs)", async () => {
    const store = new HttpStore(url);
    const sub = await openGroup(store, { path: "sub", mode: "r" });
    expect(await sub.attrs.asObject()).toEqual({ note: "a subgroup" });
    const since = await logLength();
    const z = await openArray(store, { path: "zstd", mode: "r" });
    // Only its metadata: zarr.json (v3, none here) and .zarray asked at once, as zarr-python 3's
    // open_array does; no chunk yet.
    expect(new Set(await asked(since))).toEqual(new Set(["GET 404 zstd/zarr.json", "GET 200 zstd/.zarray"]));
    expect(z.compressor).toEqual({ id: "zstd", level: 3 });
    expect(await z.attrs.get("case")).toBe("zstd");
  });
});

describe.each(smallArrays)("$path ($dtype), read over HTTP", (entry) => {
  it("reads the whole array as zarr-python did, consolidated or not", async () => {
    const root = await consolidatedRoot();
    const z = (await root.getItem(entry.path)) as ZarrArray;
    expect([z.shape, dataTypeToJSON(z.dtype)]).toEqual([entry.shape, entry.dtype]);
    const whole = await z.get();
    expect(whole.shape).toEqual(entry.shape);
    expect(littleEndianBytes(whole)).toEqual(expectedBytes(entry));
    const direct = await openArray(new HttpStore(url), { path: entry.path, mode: "r" });
    expect(littleEndianBytes(await direct.get())).toEqual(expectedBytes(entry));
  });

  it("asks only for its chunks, the ones zarr-python wrote and those it never wrote", async () => {
    const z = (await (await consolidatedRoot()).getItem(entry.path)) as ZarrArray;
    const since = await logLength();
    await z.get();
    const requests = await asked(since);
    const prefix = `${entry.path}/`;
    const keyOf = (r: string) => r.slice("GET 200 ".length + prefix.length);
    // Whole (200), or in part (206: an edge chunk the array covers only partly may be read by range).
    const found = new Set(requests.filter((r) => /^GET 20[06] /.test(r)).map(keyOf));
    expect([...found].sort()).toEqual(entry.chunkKeys);
    // Every other chunk is missing: one 404, read as the fill value.
    const missing = requests.filter((r) => !/^GET 20[06] /.test(r));
    expect(missing.every((r) => r.startsWith("GET 404 "))).toBe(true);
    expect(found.size + missing.length).toBe(z.nchunks);
  });

  it.each(entry.selections.map((spec) => [describeSelection(spec), spec] as const))("%s", async (_, spec) => {
    const z = (await (await consolidatedRoot()).getItem(entry.path)) as ZarrArray;
    const result = await readSelection(z, spec);
    expect(result.shape).toEqual(spec.shape);
    expect(plainValues(result)).toEqual(spec.values);
  });
});

describe("arrays with chunks never written", () => {
  it("reads the fill value where zarr-python stored nothing, and only asks for chunks the selection touches", async () => {
    const root = await consolidatedRoot();
    const sparse = (await root.getItem("sparse")) as ZarrArray;
    expect(sparse.fillValue).toBe(-9);
    const since = await logLength();
    // Rows 0-9, columns 5-14 of (30 i + j): chunks (0, 0) and (1, 1) were written, (0, 1) held only the fill
    // value so zarr-python stored nothing, (1, 0) was never written.
    const region = await sparse.get([slice(0, 10), slice(5, 15)]);
    expect((await asked(since)).sort()).toEqual([
      "GET 200 sparse/0.0",
      "GET 200 sparse/1.1",
      "GET 404 sparse/0.1",
      "GET 404 sparse/1.0",
    ]);
    const values = Array.from(region.data as Int32Array);
    expect(values.slice(0, 10)).toEqual([5, 6, 7, 8, 9, -9, -9, -9, -9, -9]);
    expect(values.slice(50, 60)).toEqual([-9, -9, -9, -9, -9, 160, 161, 162, 163, 164]);

    const nan = (await root.getItem("sparse_nan")) as ZarrArray;
    expect(plainValues(await nan.get(slice(15, 22)))).toEqual([15, 16, "NaN", "NaN", "NaN", "NaN", "NaN"]);
  });
});
