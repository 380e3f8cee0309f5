import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { zlibSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipStore } from "@z/store-zip";
import { text, utf8 } from "./helpers.js";
import { hasZarrPython, nodeFile, python } from "./node-helpers.js";
import { requireTool } from "../../../scripts/test-child/tools.js";

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
  json({
    chunks,
    compressor: null,
    dimension_separator: separator,
    dtype,
    fill_value: 0,
    filters: null,
    order: "C",
    shape,
    zarr_format: 2,
  });

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
  for (const [i, j] of [
    [0, 0],
    [0, 1],
    [1, 0],
    [1, 1],
  ] as const) {
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

describe("zarr-python reads what ZipStore writes", () => {
  requireTool("zarr-python", hasZarrPython);
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
        [
          ".zattrs",
          ".zgroup",
          "baz/.zarray",
          "baz/0",
          "baz/1",
          "baz/2",
          "foo/.zgroup",
          "foo/bar/.zarray",
          "foo/bar/0/0",
          "foo/bar/0/1",
          "foo/bar/1/0",
          "foo/bar/1/1",
        ].sort(),
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

describe("compacted archives: zarr-python, zipfile and unzip read them", () => {
  requireTool("zarr-python", hasZarrPython);
  it("zarr-python's group with chunks rewritten and a key deleted, compacted in place", async () => {
    const path = join(dir, "compacted.zip");
    await copyFile(new URL("./fixtures/zarr-stored.zip", import.meta.url), path);
    const file = await nodeFile(path);
    const store = await ZipStore.open(file);
    // chunk (0, 0) of foo/bar (rows 0-1, columns 0-2) twice, baz/1 rewritten, .zattrs replaced.
    await store.set("foo/bar/0/0", int32([-1, -1, -1, -1, -1, -1]));
    await store.set("foo/bar/0/0", int32([100, 101, 102, 106, 107, 108]));
    await store.set("baz/1", zlibSync(float64([7.5, 8.5]))); // baz has numcodecs' Zlib compressor
    await store.set(".zattrs", json({ title: "compacted" }));
    await store.set("stray", utf8("deleted before compacting"));
    await store.delete("stray");
    await store.close();
    const before = (await readFile(path)).length;

    const again = await ZipStore.open(file);
    const reclaimed = await again.compact();
    await again.close();
    await file.close();
    const after = (await readFile(path)).length;
    expect(reclaimed).toBeGreaterThan(0);
    expect(after).toBe(before - reclaimed);

    const seen = python<Record<string, unknown>>(readWithZarrPython, path);
    expect(seen.attrs).toEqual({ title: "compacted" });
    const bar = [0, 1, 2, 3].map((r) => [0, 1, 2, 3, 4, 5].map((c) => r * 6 + c));
    bar[0]!.splice(0, 3, 100, 101, 102);
    bar[1]!.splice(0, 3, 106, 107, 108);
    expect(seen.bar).toEqual(bar);
    expect(seen.baz).toEqual([0, 0.25, 7.5, 8.5, 1]);
    expect(seen.bad).toBeNull();
    const names = seen.names as string[];
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain("stray");
    // Every byte is accounted for: entries back to back from offset 0, then the directory.
    const layout = python<{ ends: number[]; starts: number[]; directory: number }>(
      `import sys, json, zipfile
with zipfile.ZipFile(sys.argv[1]) as zf:
    infos = sorted(zf.infolist(), key=lambda i: i.header_offset)
    starts = [i.header_offset for i in infos]
    ends = [i.header_offset + 30 + len(i.filename.encode()) + len(i.extra) + i.compress_size for i in infos]
    print(json.dumps({"starts": starts, "ends": ends, "directory": zf.start_dir}))`,
      path,
    );
    expect(layout.starts[0]).toBe(0);
    expect(layout.starts.slice(1)).toEqual(layout.ends.slice(0, -1));
    expect(layout.directory).toBe(layout.ends.at(-1));
    // The command-line testers agree.
    expect(execFileSync("/usr/bin/python3", ["-m", "zipfile", "-t", path], { encoding: "utf8" })).toContain(
      "Done testing",
    );
    expect(execFileSync("unzip", ["-t", path], { encoding: "utf8" })).toContain("No errors detected");
  }, 30_000);

  it("an archive with bytes before it, appended to: zipfile reads both entries", async () => {
    const path = join(dir, "prefixed.zip");
    await copyFile(new URL("./fixtures/prefixed.zip", import.meta.url), path);
    const file = await nodeFile(path);
    const store = await ZipStore.open(file);
    await store.set("x/1", utf8("appended"));
    await store.close();
    await file.close();
    const seen = python<[string, string, null]>(
      `import sys, json, zipfile
with zipfile.ZipFile(sys.argv[1]) as zf:
    print(json.dumps([zf.read("x/0").decode(), zf.read("x/1").decode(), zf.testzip()]))`,
      path,
    );
    expect(seen).toEqual(["after the prefix", "appended", null]);
  }, 30_000);
});
