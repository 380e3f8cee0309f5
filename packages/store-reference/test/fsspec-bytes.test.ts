/**
 * Each key of the three reference forms (JSON v0, v1 with templates and `gen`, Parquet by fsspec's
 * LazyReferenceMapper) read through ReferenceStore gives the bytes fsspec's ReferenceFileSystem
 * gives (`fs.cat(key)`), and a key fsspec has no reference for is missing here too; from files on
 * disk and over HTTP. The references point at NetCDF4 and HDF5 files made by python/make_refs.py.
 * (The decoded values, through @z/core, are checked in packages/core/test/reference-fsspec.test.ts.)
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReferenceStore } from "@z/store-reference";
import { makeReferences, FORM_FILES, type Expected, type Form } from "./fixtures.js";
import { startRangeServer, type RangeServer } from "./range-server.js";
import { directory, http } from "./test-stores.js";

const { dir, expected } = makeReferences();
let server: RangeServer;
beforeAll(async () => {
  server = await startRangeServer(dir);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const decoder = new TextDecoder();
const base64 = (b: Uint8Array): string => Buffer.from(b).toString("base64");

/** Metadata documents compared as JSON (fsspec re-serializes Parquet's with Python's json.dumps), chunks as bytes. */
function same(key: string, got: Uint8Array | undefined, want: string | null): void {
  if (want === null) return expect(got, key).toBeUndefined();
  expect(got, key).toBeDefined();
  if (/(^|\/)\.z[a-z]+$/.test(key))
    expect(JSON.parse(decoder.decode(got)), key).toEqual(JSON.parse(Buffer.from(want, "base64").toString()));
  else expect(base64(got!), key).toBe(want);
}

async function checkAll(store: ReferenceStore, form: Form, want: Expected): Promise<void> {
  const keys = Object.keys(want.bytes[form]);
  // all at once, as a selection reads its chunks: adjacent ranges are merged, each key gets its own
  const got = await Promise.all(keys.map((key) => store.get(key)));
  keys.forEach((key, i) => same(key, got[i], want.bytes[form][key]!));
}

describe.each(Object.keys(FORM_FILES) as Form[])("references %s, as fsspec reads them", (form) => {
  it("from files on disk, targets relative to the reference file", async () => {
    const store = await ReferenceStore.open(directory(dir), FORM_FILES[form]);
    await checkAll(store, form, expected);
  });

  it("over HTTP, targets relative to the reference file's URL, adjacent chunks merged into fewer requests", async () => {
    server.reset();
    const store = await ReferenceStore.open(http(`${server.url}/`), FORM_FILES[form]);
    await checkAll(store, form, expected);
    if (!form.startsWith("parquet")) expect(server.requests.get("/data.nc")).toBe(1);
    // A Parquet set's references arrive with their record files, one variable's after another's,
    // so a first read of several variables may merge them into more than one request: the second
    // read, with the records held, asks for every range at once.
    server.reset();
    await checkAll(store, form, expected);
    // data.nc's chunks that are not inline lie close together (under 64 000 bytes apart): one request
    expect(server.requests.get("/data.nc")).toBe(1);
  });

  it("over HTTP with absolute target URLs (opened by openTarget)", async () => {
    const opened: string[] = [];
    const store = await ReferenceStore.open(directory(dir), FORM_FILES[form], {
      maxGap: -1, // one request per chunk
      openTarget: (url) => {
        opened.push(url);
        const slash = url.lastIndexOf("/");
        return { store: http(url.slice(0, slash + 1)), key: url.slice(slash + 1) };
      },
      ...(form === "v1" ? { templateOverrides: { nc: `${server.url}/data.nc`, h5: `${server.url}/data.h5` } } : {}),
    });
    if (form !== "v1") return expect(opened).toEqual([]); // their targets are relative: read from disk
    server.reset();
    await checkAll(store, form, expected);
    expect(opened.sort()).toEqual([`${server.url}/data.h5`, `${server.url}/data.nc`]);
    // maxGap -1: one request per chunk of data.nc that is not inline
    const v0 = JSON.parse(readFileSync(join(dir, "refs-v0.json"), "utf8")) as Record<string, unknown>;
    const ranged = Object.values(v0).filter((v) => Array.isArray(v) && v[0] === "data.nc");
    expect(ranged.length).toBe(21);
    expect(server.requests.get("/data.nc")).toBe(ranged.length);
  });
});

describe("listing", () => {
  it("lists every key that has a reference, in each form", async () => {
    for (const form of ["v0", "parquet"] as const) {
      const store = await ReferenceStore.open(directory(dir), FORM_FILES[form]);
      expect((await store.list()).sort(), form).toEqual(expected.keys);
      expect((await store.list("grp/a/")).sort(), form).toEqual(expected.keys.filter((k) => k.startsWith("grp/a/")));
    }
  });

  it("lists a Parquet set's root without reading a record file", async () => {
    const files = directory(dir);
    const store = await ReferenceStore.open(files, "refs.parq");
    const root = await store.listDir("");
    expect(root.keys.sort()).toEqual([".zattrs", ".zgroup"]);
    expect(root.prefixes.sort()).toEqual(["area", "grp", "lat", "lon", "precip", "temp", "time"]);
    expect(files.reads.filter((k) => k.endsWith(".parq"))).toEqual([]);
    const a = await store.listDir("grp/a/");
    expect(a.keys.sort()).toEqual([".zarray", ".zattrs", "0.0", "0.1", "0.2", "2.1"]);
    // grp/a has 9 chunks in records of 3: records 0 and 2 are files, record 1 (no chunk written) is none
    expect(files.reads.filter((k) => k.endsWith(".parq")).sort()).toEqual([
      "refs.parq/grp/a/refs.0.parq",
      "refs.parq/grp/a/refs.1.parq",
      "refs.parq/grp/a/refs.2.parq",
    ]);
  });

  it("reads only the record files a read touches", async () => {
    const files = directory(dir);
    const store = await ReferenceStore.open(files, "refs.parq");
    same("temp/2.1.0", await store.get("temp/2.1.0"), expected.bytes.parquet["temp/2.1.0"]!);
    // temp's chunk grid is 4 x 3 x 2: chunk (2, 1, 0) is number 14, in record 4 of 3 rows each
    expect(files.reads.filter((k) => k.endsWith(".parq"))).toEqual(["refs.parq/temp/refs.4.parq"]);
  });
});
