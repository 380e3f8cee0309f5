import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { npyDataOffset } from "../src/npy/index.js";
import { FIXTURES, run, STORE, tempDir } from "./helpers.js";

interface Expected {
  gets: { path: string; selection: string; repr: string; json: string }[];
  digests: Record<string, string>;
  digests_md5: Record<string, string>;
  npy: Record<string, { path: string; selection: string }>;
  tree: string;
  tree_grp: string;
  tree_level1: string;
  info: Record<string, Record<string, string>>;
  group_info: Record<string, Record<string, string | number>>;
  zmetadata: string;
}

/** What zarr-python 2.13 and numpy 1.24 said about the fixture store (test/python/store_fixtures.py). */
const expected = JSON.parse(await readFile(join(FIXTURES, "store-expected.json"), "utf8")) as Expected;

describe("zarr tree", () => {
  it("draws the hierarchy as zarr-python's Group.tree()", async () => {
    expect(await run(["tree", STORE])).toEqual({ code: 0, out: `${expected.tree}\n`, err: "" });
    expect((await run(["tree", STORE, "--path", "grp"])).out).toBe(`${expected.tree_grp}\n`);
    expect((await run(["tree", STORE, "--level", "1"])).out).toBe(`${expected.tree_level1}\n`);
  });

  it("draws an array as its one line", async () => {
    expect((await run(["tree", STORE, "--path", "grp/a"])).out).toBe("a (10, 12) int32\n");
  });

  it("maps every node path to its kind, attributes, shape and dtype with --json", async () => {
    const { code, out } = await run(["tree", STORE, "--json"]);
    expect(code).toBe(0);
    const json = JSON.parse(out) as Record<string, Record<string, unknown>>;
    expect(Object.keys(json).sort()).toEqual([
      "",
      "b",
      "big",
      "bo",
      "c",
      "cx",
      "e",
      "grp",
      "grp/a",
      "grp/sub",
      "nested",
      "s",
      "t",
      "u",
      "z0",
    ]);
    expect(json[""]).toEqual({ kind: "group", zarr_format: 2, attrs: { title: "fixture", version: 1 } });
    expect(json["grp/a"]).toEqual({
      kind: "array",
      zarr_format: 2,
      attrs: { units: "m" },
      shape: [10, 12],
      dtype: "<i4",
    });
    expect(json.s).toEqual({
      kind: "array",
      zarr_format: 2,
      attrs: {},
      shape: [3],
      dtype: [
        ["x", "<i2"],
        ["y", "|S3"],
      ],
    });
    expect(out).toContain('"version": 1.0'); // floats stay floats
    const sub = JSON.parse((await run(["tree", STORE, "--json", "--path", "grp"])).out) as object;
    expect(Object.keys(sub).sort()).toEqual(["", "a", "sub"]);
  });
});

describe("zarr info", () => {
  const ours = (text: string): Record<string, string> =>
    Object.fromEntries(
      text
        .trim()
        .split("\n")
        .map((line) => line.split(/ +: /) as [string, string]),
    );

  it.each(Object.entries(expected.info))("describes %s as zarr-python's Array.info does", async (path, items) => {
    const { code, out } = await run(["info", STORE, "--path", path]);
    expect(code).toBe(0);
    // this project's type names, and opened read-only
    expect(ours(out)).toEqual({ ...items, Type: "ZarrArray", "Store type": "DirectoryStore", "Read-only": "True" });
  });

  it("describes a group as zarr-python's Group.info does", async () => {
    const items = Object.fromEntries(Object.entries(expected.group_info.grp!).map(([k, v]) => [k, String(v)]));
    expect(ours((await run(["info", STORE, "--path", "grp"])).out)).toEqual({
      ...items,
      Type: "Group",
      "Store type": "DirectoryStore",
      "Read-only": "True",
    });
  });

  it("describes an array as JSON", async () => {
    const json = JSON.parse((await run(["info", STORE, "--path", "b", "--json"])).out) as Record<string, unknown>;
    expect(json).toMatchObject({
      kind: "array",
      shape: [5],
      chunks: [2],
      dtype: ">f8",
      fill_value: "NaN",
      order: "F".replace("F", "C"),
      compressor: null,
      filters: null,
      nbytes: 40,
      nchunks: 3,
      nchunks_initialized: 2,
      dimension_separator: ".",
    });
    const group = JSON.parse((await run(["info", STORE, "--json"])).out) as Record<string, unknown>;
    expect(group).toMatchObject({ kind: "group", groups: ["grp"], attributes: { title: "fixture", version: 1 } });
  });

  it("reads metadata only, so arrays with codecs this build lacks are described", async () => {
    const { code, out } = await run(["info", join(FIXTURES, "store-blosc")]);
    expect(code).toBe(0);
    expect(out).toContain("Compressor         : Blosc(blocksize=0, clevel=5, cname='lz4', shuffle=SHUFFLE)");
  });
});

describe("zarr get", () => {
  it.each(expected.gets.map((g) => [g.path, g.selection, g] as const))(
    "%s [%s] prints numpy's repr",
    async (path, selection, g) => {
      const args = ["get", STORE, "--path", path, ...(selection === "" ? [] : [selection])];
      expect(await run(args)).toEqual({ code: 0, out: `${g.repr}\n`, err: "" });
    },
  );

  it.each(expected.gets.map((g) => [g.path, g.selection, g] as const))(
    "%s [%s] --json gives every value",
    async (path, selection, g) => {
      const args = ["get", STORE, "--path", path, "--json", ...(selection === "" ? [] : [selection])];
      expect(await run(args)).toEqual({ code: 0, out: g.json, err: "" });
    },
  );

  it("takes a TensorStore-style URL naming the array", async () => {
    const url = `${pathToFileURL(STORE).href}|zarr2:grp/a`;
    expect((await run(["get", url, "5"])).out).toBe(
      `${expected.gets.find((g) => g.path === "grp/a" && g.selection === "5")!.repr}\n`,
    );
  });

  it("accepts brackets and spaces", async () => {
    expect((await run(["get", STORE, "--path", "grp/a", "[2:5, ::3]"])).out).toBe(`${expected.gets[1]!.repr}\n`);
  });
});

describe("zarr digest", () => {
  it.each(Object.entries(expected.digests))("%s: the hex digest zarr-python gives", async (path, digest) => {
    expect(await run(["digest", STORE, "--path", path])).toEqual({ code: 0, out: `${digest}\n`, err: "" });
  });

  it("lists every array below a group", async () => {
    const lines = (await run(["digest", STORE])).out.trim().split("\n");
    expect(lines).toEqual(
      Object.entries(expected.digests)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([p, d]) => `${d}  ${p}`),
    );
    expect((await run(["digest", STORE, "--path", "grp"])).out).toBe(`${expected.digests["grp/a"]}  a\n`);
  });

  it("takes other hashlib names", async () => {
    expect((await run(["digest", STORE, "--path", "grp/a", "--hash", "md5"])).out).toBe(
      `${expected.digests_md5["grp/a"]}\n`,
    );
  });

  it("needs no codecs", async () => {
    const digest = await readFile(join(FIXTURES, "store-blosc-digest.txt"), "utf8");
    expect((await run(["digest", join(FIXTURES, "store-blosc")])).out).toBe(digest);
  });
});

describe("zarr export", () => {
  it.each(Object.entries(expected.npy))(
    "%s.npy is byte for byte what np.save wrote",
    async (name, { path, selection }) => {
      const out = join(await tempDir(), `${name}.npy`);
      const { code, err } = await run([
        "export",
        STORE,
        "--path",
        path,
        "--out",
        out,
        ...(selection ? ["--selection", selection] : []),
      ]);
      expect(code, err).toBe(0);
      expect(Buffer.compare(await readFile(out), await readFile(join(FIXTURES, "store-npy", `${name}.npy`)))).toBe(0);
    },
  );

  it.each(expected.gets.map((g) => [g.path, g.selection, g] as const))(
    "%s [%s] as .json: what get --json prints",
    async (path, selection, g) => {
      const out = join(await tempDir(), "x.json");
      const { code } = await run([
        "export",
        STORE,
        "--path",
        path,
        "--out",
        out,
        ...(selection ? ["--selection", selection] : []),
      ]);
      expect(code).toBe(0);
      expect(await readFile(out, "utf8")).toBe(g.json);
    },
  );

  it.each([
    // Stored codes, and what ml_dtypes 0.6 writes for the float32 it reads them as
    // (`codes.view(t).astype(np.float32).astype(t)`): a NaN keeps its sign.
    ["float8_e4m3fn", [0xff, 0x7f, 0x80, 0x01, 0xfe, 0x00], [0xff, 0x7f, 0x80, 0x01, 0xfe, 0x00]],
    ["float8_e5m2", [0xff, 0xfd, 0x7d, 0xfc], [0xfe, 0xfe, 0x7e, 0xfc]],
    ["float8_e4m3fnuz", [0x80, 0x00, 0xff], [0x80, 0x00, 0xff]],
    ["bfloat16", [0xc0, 0xff, 0x81, 0x7f, 0x80, 0xff, 0x00, 0x80], [0xc0, 0xff, 0xc0, 0x7f, 0x80, 0xff, 0x00, 0x80]],
  ] as const)("%s to .npy: a NaN's sign as stored, as ml_dtypes converts", async (dtype, stored, exported) => {
    // An array as TensorStore writes it, its one chunk stored raw.
    const dir = await tempDir();
    const itemsize = dtype === "bfloat16" ? 2 : 1;
    const n = stored.length / itemsize;
    const zarray = {
      chunks: [n],
      compressor: null,
      dimension_separator: ".",
      dtype,
      fill_value: 0.0,
      filters: null,
      order: "C",
      shape: [n],
      zarr_format: 2,
    };
    await writeFile(join(dir, ".zarray"), JSON.stringify(zarray));
    await writeFile(join(dir, "0"), Uint8Array.from(stored));
    const out = join(dir, "x.npy");
    const { code, err } = await run(["export", dir, "--out", out]);
    expect(code, err).toBe(0);
    const file = await readFile(out);
    expect(Array.from(file.subarray(npyDataOffset(file)))).toEqual(exported);
  });
});
