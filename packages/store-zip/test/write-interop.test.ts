import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipStore } from "@z/store-zip";
import { text, utf8 } from "./helpers.js";
import { hasZarrPython, nodeFile, python } from "./node-helpers.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "z-zip-interop-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const json = (value: unknown) => utf8(JSON.stringify(value, null, 4));
const int32 = (values: number[]) => new Uint8Array(new Int32Array(values).buffer);
const float64 = (values: number[]) => new Uint8Array(new Float64Array(values).buffer);
const zarray = (shape: number[], chunks: number[], dtype: string, separator: "." | "/") =>
  json({ chunks, compressor: null, dimension_separator: separator, dtype, fill_value: 0, filters: null, order: "C", shape, zarr_format: 2 });

/**
 * Writes, through ZipStore on a local file, the group zarr-python's fixture holds: attributes, a
 * subgroup with a (4, 6) int32 array with "/" chunk keys, and a (5,) float64 array. Some chunks
 * are written twice and a stray key is written and deleted, as zarr writes that do not align
 * with chunks would: the archive must still have each name once.
 */
async function writeGroup(path: string, compression: "stored" | "deflate"): Promise<void> {
  const file = await nodeFile(path);
  const store = await ZipStore.open(file, { mode: "w", compression });
  await store.set(".zgroup", json({ zarr_format: 2 }));
  await store.set(".zattrs", json({ title: "written by z" }));
  await store.set("foo/.zgroup", json({ zarr_format: 2 }));
  await store.set("foo/bar/.zarray", zarray([4, 6], [2, 3], "<i4", "/"));
  const values = Array.from({ length: 24 }, (_, i) => i);
  for (const [i, j] of [[0, 0], [0, 1], [1, 0], [1, 1]] as const) {
    await store.set(`foo/bar/${i}/${j}`, int32(new Array(6).fill(-1)));
    const chunk = [0, 1].flatMap((r) => values.slice((2 * i + r) * 6 + 3 * j, (2 * i + r) * 6 + 3 * j + 3));
    await store.set(`foo/bar/${i}/${j}`, int32(chunk));
  }
  await store.set("baz/.zarray", zarray([5], [2], "<f8", "."));
  await store.flush();
  await store.set("baz/0", float64([0, 0.25]));
  await store.set("baz/1", float64([0.5, 0.75]));
  await store.set("baz/2", float64([1, 0]));
  await store.set("stray", utf8("deleted before closing"));
  await store.delete("stray");
  await store.close();
  await file.close();
}

const readWithZarrPython = `
import json, sys, zipfile, zarr
path = sys.argv[1]
store = zarr.ZipStore(path, mode="r")
g = zarr.open_group(store, mode="r")
with zipfile.ZipFile(path) as zf:
    names = zf.namelist()
    bad = zf.testzip()
    methods = sorted({i.compress_type for i in zf.infolist()})
print(json.dumps({
    "attrs": g.attrs.asdict(),
    "bar": g["foo/bar"][...].tolist(),
    "baz": g["baz"][...].tolist(),
    "names": names,
    "bad": bad,
    "methods": methods,
    "tree": sorted(g.group_keys()) + sorted(g.array_keys()),
}))
store.close()
`;

describe.skipIf(!hasZarrPython)("zarr-python reads what ZipStore writes", () => {
  for (const compression of ["stored", "deflate"] as const) {
    it(`a group with arrays (${compression}), each name once, CRCs right`, async () => {
      const path = join(dir, `group-${compression}.zip`);
      await writeGroup(path, compression);
      const seen = python<Record<string, unknown>>(readWithZarrPython, path);
      expect(seen.attrs).toEqual({ title: "written by z" });
      expect(seen.bar).toEqual([0, 1, 2, 3].map((r) => [0, 1, 2, 3, 4, 5].map((c) => r * 6 + c)));
      expect(seen.baz).toEqual([0, 0.25, 0.5, 0.75, 1]);
      expect(seen.bad).toBeNull();
      expect(seen.methods).toEqual([compression === "stored" ? 0 : 8]);
      expect(seen.tree).toEqual(["foo", "baz"]);
      const names = seen.names as string[];
      expect(new Set(names).size).toBe(names.length);
      expect([...names].sort()).toEqual(
        [".zattrs", ".zgroup", "baz/.zarray", "baz/0", "baz/1", "baz/2", "foo/.zgroup", "foo/bar/.zarray", "foo/bar/0/0", "foo/bar/0/1", "foo/bar/1/0", "foo/bar/1/1"].sort(),
      );
    }, 30_000);
  }

  it("and ZipStore reads what zarr-python then appends to it", async () => {
    const path = join(dir, "appended.zip");
    await writeGroup(path, "stored");
    python(
      `import sys, json, zarr, numpy as np
store = zarr.ZipStore(sys.argv[1], mode="a")
g = zarr.open_group(store, mode="a")
g.create_dataset("added", data=np.arange(3, dtype="<i2"), chunks=(3,), compressor=None)
store.close()
print(json.dumps(True))`,
      path,
    );
    const file = await nodeFile(path);
    const store = await ZipStore.open(file, { mode: "r" });
    expect(JSON.parse(text(await store.get("added/.zarray"))!)).toMatchObject({ dtype: "<i2", shape: [3] });
    expect(Array.from(new Int16Array((await store.get("added/0"))!.buffer))).toEqual([0, 1, 2]);
    expect(text(await store.get(".zattrs"))).toContain("written by z");
    await file.close();
  }, 30_000);

  it("a UTF-8 key, and an archive appended to twice by ZipStore", async () => {
    const path = join(dir, "twice.zip");
    await writeGroup(path, "deflate");
    const copy = join(dir, "twice-copy.zip");
    await copyFile(path, copy);
    for (const value of ["first", "second"]) {
      const file = await nodeFile(copy);
      const store = await ZipStore.open(file);
      await store.set("été/0", utf8(value));
      await store.close();
      await file.close();
    }
    const seen = python<{ names: string[]; value: string; bad: null }>(
      `import sys, json, zipfile
with zipfile.ZipFile(sys.argv[1]) as zf:
    print(json.dumps({"names": zf.namelist(), "value": zf.read("été/0").decode(), "bad": zf.testzip()}))`,
      copy,
    );
    expect(seen.value).toBe("second");
    expect(seen.bad).toBeNull();
    expect(seen.names.filter((name) => name === "été/0")).toHaveLength(1);
    expect((await readFile(copy)).length).toBeGreaterThan((await readFile(path)).length);
  }, 30_000);
});
