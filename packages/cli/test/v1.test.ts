// Zarr spec-v1 arrays (`meta` and `attrs` at the root of the store), which @z/core reads (and
// `migrate1to2` converts); test/python/v1_fixtures.py wrote them with zarr-python's v1 encoder and
// recorded what zarr-python says once its migrate_1to2 has converted a copy.
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { openArray } from "@z/core";
import { DirectoryStore } from "@z/store-fs";
import { describe, expect, it } from "vitest";
import { FIXTURES, fixtureCopy, run, tempDir } from "./helpers.js";

interface Case {
  repr: string;
  repr_sel: string;
  info: Record<string, string>;
  attrs: Record<string, unknown>;
  npy: string;
}
const expected = JSON.parse(await readFile(join(FIXTURES, "v1-expected.json"), "utf8")) as Record<string, Case>;
const cases = Object.entries(expected);
const dir = (name: string): string => join(FIXTURES, "v1", name);

/** `name : value` lines as an object. */
const items = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .trim()
      .split("\n")
      .map((line) => line.split(/ +: /) as [string, string]),
  );

describe("Zarr v1 arrays", () => {
  it.each(cases)("zarr get %s prints numpy's repr of what zarr-python reads after migrating it", async (name, c) => {
    expect(await run(["get", dir(name)])).toEqual({ code: 0, out: `${c.repr}\n`, err: "" });
    expect((await run(["get", dir(name), "1:4,::2"])).out).toBe(`${c.repr_sel}\n`);
  });

  it.each(cases)("zarr export %s writes what np.save writes", async (name, c) => {
    const out = join(await tempDir(), "v1.npy");
    expect((await run(["export", dir(name), "--out", out])).code).toBe(0);
    expect((await readFile(out)).toString("base64")).toBe(c.npy);
  });

  it.each(cases)("zarr info %s reads as zarr-python's Array.info of the migrated array", async (name, c) => {
    const { code, out } = await run(["info", dir(name)]);
    expect(code).toBe(0);
    const ours = items(out);
    // stored bytes count v1's own documents (meta, attrs), not the .zarray/.zattrs migration writes
    let stored = 0;
    for (const file of await readdir(dir(name))) stored += (await stat(join(dir(name), file))).size;
    expect(ours["No. bytes stored"]).toBe(String(stored));
    const { "No. bytes stored": _a, "Storage ratio": _b, ...rest } = c.info;
    const { "No. bytes stored": _c, "Storage ratio": _d, ...ourRest } = ours;
    // this project's names, and numcodecs' Blosc repr with sorted parameters (as for every codec here)
    expect(ourRest).toEqual({
      ...rest,
      Type: "ZarrArray",
      "Store type": "DirectoryStore",
      Compressor: rest.Compressor!.replace(
        "Blosc(cname='lz4', clevel=5, shuffle=SHUFFLE, blocksize=0)",
        "Blosc(blocksize=0, clevel=5, cname='lz4', shuffle=SHUFFLE)",
      ),
    });
  });

  it.each(cases)("zarr info %s says what @z/core's info() says", async (name) => {
    const array = await openArray(new DirectoryStore(dir(name)), { mode: "r" });
    expect((await run(["info", dir(name)])).out).toBe(await array.info());
  });

  it("describes a v1 array as JSON, with its attributes", async () => {
    const json = JSON.parse((await run(["info", dir("zlib-i4"), "--json"])).out) as Record<string, unknown>;
    expect(json).toMatchObject({
      kind: "array",
      zarr_format: 1,
      shape: [5, 7],
      chunks: [2, 3],
      dtype: "<i4",
      fill_value: -1,
      compressor: { id: "zlib", level: 1 },
      nchunks_initialized: 8,
      attributes: { case: "zlib-i4" },
    });
    expect(JSON.parse((await run(["attrs", "get", dir("zlib-i4")])).out)).toEqual(expected["zlib-i4"]!.attrs);
    expect((await run(["tree", dir("zlib-i4")])).out).toBe("/ (5, 7) int32\n");
  });

  it("digests a v1 array as @z/core's hexdigest()", async () => {
    const array = await openArray(new DirectoryStore(dir("zlib-i4")), { mode: "r" });
    expect((await run(["digest", dir("zlib-i4")])).out).toBe(`${await array.hexdigest()}\n`);
  });

  it("validates a v1 array: its documents, every chunk", async () => {
    expect(await run(["validate", dir("zlib-i4")])).toEqual({
      code: 0,
      out: "ok: 1 arrays, 0 groups, 8 chunks checked; 0 errors, 0 warnings\n",
      err: "",
    });
  });

  it("refuses to change a v1 array, which is read-only", async () => {
    const copy = await fixtureCopy("v1/zlib-i4");
    const set = await run(["attrs", "set", copy, "k", "1"]);
    expect(set.code).toBe(1);
    expect(set.err).toMatch(/Zarr v1 array is read-only/);
    const resize = await run(["resize", copy, "--shape", "2,2"]);
    expect(resize.code).toBe(1);
    expect(resize.err).toMatch(/read-only/);
    expect((await run(["get", copy, "--json"])).out).toBe((await run(["get", dir("zlib-i4"), "--json"])).out);
  });
});
