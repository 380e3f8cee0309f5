// Arrays zarr-python's NestedDirectoryStore wrote before `.zarray` had `dimension_separator`
// (test/python/legacy_nested_fixtures.py: chunks at `0/0`, nothing in `.zarray` to say so). zarr-python
// through a DirectoryStore reads them as fill values only; @z/core finds their chunks.
import { cp, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openArray, slice, type ZarrArray } from "@z/core";
import { WorkerPool } from "@z/core/node";
import type { Store } from "@z/meta";
import { DirectoryStore, TempStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { openSession, type Session } from "../../../scripts/test-server/client.js";

const FIXTURES = new URL("./fixtures/legacy-nested/", import.meta.url).pathname;
const ROOT = join(FIXTURES, "nested.zarr");

interface Case {
  shape: number[];
  values: (number | string | null)[];
  info: Record<string, string>;
  hexdigest: string;
}
const expected = JSON.parse(await readFile(join(FIXTURES, "expected.json"), "utf8")) as Record<string, Case>;

const values = async (z: ZarrArray, selection?: Parameters<ZarrArray["get"]>[0]): Promise<(number | null)[]> =>
  Array.from((await z.get(selection, { pool: false })).data as ArrayLike<number>, (v) => (Number.isNaN(v) ? null : v));

/** A store (get, getRange, listDir over a directory store) that records the keys asked of it. */
function logged(inner: DirectoryStore): { store: Store; asked: string[] } {
  const asked: string[] = [];
  const store: Store = {
    get: (key, options) => (asked.push(`get ${key}`), inner.get(key, options)),
    getRange: (key, range, options) => (asked.push(`getRange ${key}`), inner.getRange(key, range, options)),
    listDir: (prefix, options) => (asked.push(`listDir ${prefix}`), inner.listDir(prefix, options)),
  };
  return { store, asked };
}

describe("legacy nested arrays (no dimension_separator, chunks at 0/0)", () => {
  it.each(["a", "b"])("%s reads what zarr-python reads through a NestedDirectoryStore", async (name) => {
    const z = await openArray(new DirectoryStore(join(ROOT, name)), { mode: "r" });
    expect(z.metadata).toMatchObject({ zarrFormat: 2 });
    expect(z.metadata).not.toHaveProperty("dimensionSeparator");
    expect(await values(z)).toEqual(expected[name]!.values);
    expect(z.dimensionSeparatorFound).toBe(true);
    expect(z.dimensionSeparator).toBe("/");
  });

  it("reads an object array's chunks from there too", async () => {
    const z = await openArray(new DirectoryStore(join(ROOT, "s")), { mode: "r" });
    expect((await z.get<unknown[]>()).data).toEqual(expected.s!.values);
    expect(z.dimensionSeparatorFound).toBe(true);
  });

  it("finds them even when the first chunk read is missing in both layouts (the store lists)", async () => {
    const z = await openArray(new DirectoryStore(join(ROOT, "a")), { mode: "r" });
    expect(await values(z, [4, slice(6, 7)])).toEqual([-1]); // chunk 2/2 was never written
    expect(z.dimensionSeparatorFound).toBe(true);
    expect(await values(z)).toEqual(expected.a!.values);
  });

  it("says so in info(), counts and digests the nested chunks as zarr-python does", async () => {
    const z = await openArray(new DirectoryStore(join(ROOT, "a")), { mode: "r" });
    const info = await z.info();
    expect(info).toContain("Dimension separator : / (found nested in the store; .zarray names none)\n");
    const items = Object.fromEntries(
      info
        .trim()
        .split("\n")
        .map((line) => line.split(/ +: /) as [string, string]),
    );
    // zarr-python's DirectoryStore counts only the files directly in the array's directory as stored
    const { Type: _t, "Store type": _s, "No. bytes stored": _b, "Storage ratio": _r, ...theirs } = expected.a!.info;
    expect(items).toMatchObject(theirs); // Chunks initialized 8/9, ...
    let stored = (await stat(join(ROOT, "a", ".zarray"))).size;
    for (const key of ["0/0", "0/1", "0/2", "1/0", "1/1", "1/2", "2/0", "2/1"])
      stored += (await stat(join(ROOT, "a", key))).size;
    expect(items["No. bytes stored"]).toBe(String(stored));
    expect(await z.hexdigest()).toBe(expected.a!.hexdigest);
  });

  it("reads them in the pool's threads too, which report the chunks they found missing", async () => {
    const pool = new WorkerPool({ size: 1, minBytes: 0 });
    try {
      await pool.warm();
      const z = await openArray(new DirectoryStore(join(ROOT, "a")), { mode: "r", pool });
      expect(pool.storeSpec(z.store)).toBeDefined(); // the thread reads the directory itself
      const run = pool.run.bind(pool);
      let batches = 0;
      pool.run = (batch, transfer) => (batches++, run(batch, transfer));
      const got = await z.get(undefined, { pool });
      expect(batches).toBeGreaterThan(0);
      expect(Array.from(got.data as Int32Array)).toEqual(expected.a!.values);
      expect(z.dimensionSeparatorFound).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it("writes new chunks where the others are", async () => {
    const store = new TempStore();
    try {
      await cp(join(ROOT, "a"), store.root, { recursive: true });
      const z = await openArray(store, { mode: "r+" });
      await z.set([4, slice(6, 7)], 55, { pool: false });
      expect((await stat(join(store.root, "2", "2"))).isFile()).toBe(true);
      await expect(stat(join(store.root, "2.2"))).rejects.toThrow(/ENOENT/);
      const again = await openArray(new DirectoryStore(store.root), { mode: "r" });
      expect((await values(again)).at(-1)).toBe(55);
    } finally {
      await store.close();
    }
  });
});

describe("arrays without dimension_separator whose chunks are flat", () => {
  it("cost nothing more to read when every chunk is there", async () => {
    const { store, asked } = logged(new DirectoryStore(join(ROOT, "flat")));
    const z = await openArray(store, { mode: "r" });
    asked.length = 0;
    expect(await values(z, [slice(0, 2)])).toEqual(expected.flat!.values.slice(0, 8));
    expect(asked.sort()).toEqual(["get 0.0", "get 0.1"]);
    // which settles it: a later read of chunks never written asks nothing more
    asked.length = 0;
    expect(await values(z, [slice(2, 4), 0])).toEqual([7, 7]);
    expect(asked).toEqual(["get 1.0"]);
    expect(z.dimensionSeparatorFound).toBe(false);
  });

  it("settle it for free when a read finds some chunk where .zarray says", async () => {
    const { store, asked } = logged(new DirectoryStore(join(ROOT, "flat")));
    const z = await openArray(store, { mode: "r" });
    asked.length = 0;
    expect(await values(z)).toEqual(expected.flat!.values); // rows 2-3 were never written
    expect(asked.sort()).toEqual(["get 0.0", "get 0.1", "get 1.0", "get 1.1"]);
    expect(z.dimensionSeparatorFound).toBe(false);
    expect(z.dimensionSeparator).toBe(".");
    expect(await z.info()).not.toContain("Dimension separator");
  });

  it("are asked about once, cheaply, when a read finds only missing chunks", async () => {
    const { store, asked } = logged(new DirectoryStore(join(ROOT, "flat")));
    const z = await openArray(store, { mode: "r" });
    asked.length = 0;
    expect(await values(z, [slice(2, 4), 0])).toEqual([7, 7]);
    // the missing chunk's "/" key, then the grid's first chunk under its "." key: flat, no listing
    expect(asked).toEqual(["get 1.0", "getRange 1/0", "getRange 0.0"]);
    asked.length = 0;
    expect(await values(z, [slice(2, 4), 0])).toEqual([7, 7]);
    expect(asked).toEqual(["get 1.0"]); // asked once per opened array
  });
});

describe("legacy nested arrays over HTTP, which cannot list", () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession({ files: "packages/core/test/fixtures/legacy-nested" });
  });
  afterAll(() => session.end());

  it("are found from the missing chunk's / key, or the first chunk's", async () => {
    const z = await openArray(new HttpStore(`${session.url}nested.zarr/a`), { mode: "r" });
    const before = (await session.log()).requests.length;
    expect(await values(z, [4, slice(6, 7)])).toEqual([-1]); // 2.2, then 2/2 and 0.0 missing, 0/0 there
    const asked = (await session.log()).requests
      .slice(before)
      .map((r) => `${r.method} ${r.status} ${r.path.replace("/nested.zarr/a/", "")}`);
    expect(asked).toEqual(["GET 404 2.2", "GET 404 2/2", "GET 404 0.0", "GET 206 0/0", "GET 404 2/2"]);
    expect(z.dimensionSeparatorFound).toBe(true);
    expect(await values(z)).toEqual(expected.a!.values);
    const b = await openArray(new HttpStore(`${session.url}nested.zarr/b`), { mode: "r" });
    expect(await values(b)).toEqual(expected.b!.values);
  });
});

describe("arrays create() makes", () => {
  it("write and read without asking where their chunks are", async () => {
    const inner = new TempStore();
    try {
      const { store, asked } = logged(inner);
      const { create } = await import("@z/core");
      const z = await create({
        store: Object.assign(store, { set: inner.set.bind(inner), delete: inner.delete.bind(inner) }),
        shape: [4, 4],
        chunks: [2, 2],
        dtype: "<i2",
        compressor: null,
      });
      asked.length = 0;
      await z.set([slice(0, 2), slice(0, 2)], 3, { pool: false });
      expect(await values(z)).toEqual([3, 3, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
      expect(asked.sort()).toEqual(["get 0.0", "get 0.1", "get 1.0", "get 1.1"]);
    } finally {
      await inner.close();
    }
  });
});
