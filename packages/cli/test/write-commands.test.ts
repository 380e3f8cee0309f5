import { readFile, writeFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, fixtureCopy, run, STORE, tempDir } from "./helpers.js";

interface Expected {
  creates: { args: string[]; zarray: string }[];
  zmetadata: string;
  gets: { path: string; selection: string; repr: string; json: string }[];
}
const expected = JSON.parse(await readFile(join(FIXTURES, "store-expected.json"), "utf8")) as Expected;
const text = (path: string): Promise<string> => readFile(path, "utf8");

describe("zarr create", () => {
  it.each(expected.creates.map((c) => [c.args.join(" "), c] as const))(
    "%s: .zarray as zarr-python writes it",
    async (_, c) => {
      const store = join(await tempDir(), "new.zarr");
      const result = await run(["create", store, ...c.args]);
      expect(result.code, result.err).toBe(0);
      expect(await text(join(store, ".zarray"))).toBe(c.zarray);
    },
  );

  it("creates parent groups and attributes, and refuses to replace without --overwrite", async () => {
    const store = join(await tempDir(), "new.zarr");
    const args = [
      "create",
      store,
      "--path",
      "a/b/c",
      "--shape",
      "4",
      "--compressor",
      "null",
      "--attrs",
      '{"x": 1.0, "y": [1, "two"]}',
    ];
    expect((await run(args)).code).toBe(0);
    expect(await text(join(store, "a/b/c/.zattrs"))).toBe(
      '{\n    "x": 1.0,\n    "y": [\n        1,\n        "two"\n    ]\n}',
    );
    expect(await text(join(store, "a/.zgroup"))).toBe('{\n    "zarr_format": 2\n}');
    const again = await run(args);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/contains an array.*--overwrite/);
    expect((await run([...args, "--overwrite", "--dtype", "<i2"])).code).toBe(0);
    expect(await text(join(store, "a/b/c/.zarray"))).toContain('"dtype": "<i2"');
  });

  it("uses zarr-python's default compressor (blosc/lz4) without --compressor", async () => {
    const store = join(await tempDir(), "new.zarr");
    const { code, err } = await run(["create", store, "--shape", "4"]);
    expect(code).toBe(0);
    expect(err).toBe('created an array at the root: shape [4], chunks [4], dtype "<f8"\n');
    // zarr.create(store=DirectoryStore(...), shape=4)
    expect(await text(join(store, ".zarray"))).toBe(
      '{\n    "chunks": [\n        4\n    ],\n    "compressor": {\n        "blocksize": 0,\n        "clevel": 5,\n        "cname": "lz4",\n        "id": "blosc",\n        "shuffle": 1\n    },\n    "dtype": "<f8",\n    "fill_value": 0.0,\n    "filters": null,\n    "order": "C",\n    "shape": [\n        4\n    ],\n    "zarr_format": 2\n}',
    );
    const imported = join(await tempDir(), "imported.zarr");
    expect((await run(["import", join(FIXTURES, "store-npy", "grp-a.npy"), imported])).code).toBe(0);
    expect(JSON.parse(await text(join(imported, ".zarray")))).toMatchObject({
      compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
    });
    expect((await run(["get", imported, "6,11"])).out).toBe("array(83, dtype=int32)\n");
  });

  it.each([
    [["--shape", "4", "--compressor", '{"id": "nope"}'], 1, /unknown codec "nope"/],
    [["--shape", "4", "--compressor", '{"id": "zlib", "level": "high"}'], 1, /level/],
    [["--shape", "4", "--compressor", "{"], 2, /--compressor.*not valid JSON/],
    [["--shape", "4", "--compressor", "[1]"], 2, /--compressor must be a codec config/],
    [["--shape", "4", "--filters", "{}"], 2, /--filters must be a list/],
    [["--shape", "4", "--dtype", "<x3"], 2, /--dtype: Invalid dtype/],
    [["--shape", "4", "--fill-value", '"abc"'], 2, /--fill-value/],
    [["--shape", "4", "--order", "K"], 2, /--order must be C or F/],
    [["--shape", "4", "--chunks", "2,2"], 2, /--chunks has 2 values/],
    [["--shape", "4", "--chunks", "0"], 2, /--chunks must be positive/],
    [["--shape", "a,b"], 2, /--shape must be a comma-separated list/],
    [["--shape", "4", "--dimension-separator", "-"], 2, /--dimension-separator must be/],
    [["--shape", "4", "--attrs", "[]"], 2, /--attrs must be a JSON object/],
    [["--shape", "4", "--write-empty-chunks", "maybe"], 2, /must be true or false/],
    [[], 2, /--shape is required/],
  ] as const)("refuses %j (exit %i)", async (args, code, message) => {
    const store = join(await tempDir(), "new.zarr");
    const result = await run(["create", store, ...args]);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
    // nothing was written
    expect(await readdir(store).catch(() => [])).toEqual([]);
  });
});

describe("zarr import", () => {
  it.each([
    "b1",
    "i2-be",
    "i8",
    "u8-be",
    "f2",
    "c16-be",
    "S5",
    "U3",
    "U2-be",
    "V4",
    "M8-ns",
    "m8-10s",
    "struct",
    "struct-subarray",
    "struct-nested",
    "0d",
    "empty",
    "F-2d",
    "F-3d-be",
    "u1-2d",
  ])("%s.npy comes back byte for byte through export", async (name) => {
    const dir = await tempDir();
    const file = join(FIXTURES, "npy", `${name}.npy`);
    const store = join(dir, "s.zarr");
    const imported = await run(["import", file, store, "--compressor", '{"id": "zlib", "level": 1}']);
    expect(imported.code, imported.err).toBe(0);
    const back = join(dir, "back.npy");
    expect((await run(["export", store, "--out", back])).code).toBe(0);
    expect(Buffer.compare(await readFile(back), await readFile(file))).toBe(0);
  });

  it("keeps Fortran order and writes the options as given", async () => {
    const store = join(await tempDir(), "s.zarr");
    const file = join(FIXTURES, "npy", "F-2d.npy");
    const args = [
      "import",
      file,
      store,
      "--path",
      "g/x",
      "--chunks",
      "2,3",
      "--compressor",
      '{"id": "gzip", "level": 1}',
      "--fill-value",
      "-1",
      "--dimension-separator",
      "/",
      "--attrs",
      '{"from": "npy"}',
    ];
    expect((await run(args)).code).toBe(0);
    const zarray = JSON.parse(await text(join(store, "g/x/.zarray"))) as Record<string, unknown>;
    expect(zarray).toMatchObject({
      order: "F",
      chunks: [2, 3],
      compressor: { id: "gzip", level: 1 },
      fill_value: -1,
      dimension_separator: "/",
      dtype: "<i4",
    });
    expect(await readdir(join(store, "g/x/1"))).toEqual(["0", "1"]);
    expect((await run(["get", store, "--path", "g/x", "--json", "2"])).out).toBe(
      '{"dtype": "<i4", "shape": [4], "values": [8, 9, 10, 11]}\n',
    );
  });

  it("converts to --dtype, refusing values that do not fit", async () => {
    const dir = await tempDir();
    const store = join(dir, "s.zarr");
    expect(
      (await run(["import", join(FIXTURES, "npy", "u1-2d.npy"), store, "--dtype", ">f8", "--compressor", "null"])).code,
    ).toBe(0);
    expect((await run(["get", store])).out).toBe("array([[0., 1., 2.],\n       [3., 4., 5.]])\n");
    const bad = await run(["import", join(FIXTURES, "npy", "i2-be.npy"), store, "--dtype", "u1", "--overwrite"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/element 1: expected an integer from 0 to 255/);
    const unconvertible = await run([
      "import",
      join(FIXTURES, "npy", "U3.npy"),
      store,
      "--dtype",
      "<i4",
      "--overwrite",
    ]);
    expect(unconvertible.code).toBe(2);
    expect(unconvertible.err).toMatch(/cannot convert the file's <U3 values/);
  });

  it("reads what export --json writes, and plain JSON lists", async () => {
    const dir = await tempDir();
    for (const g of expected.gets.filter((x) => x.selection === "" && x.path !== "e")) {
      const file = join(dir, "v.json");
      await writeFile(file, g.json);
      const store = join(dir, `${g.path.replace("/", "-")}.zarr`);
      const result = await run(["import", file, store, "--compressor", "null"]);
      expect(result.code, result.err).toBe(0);
      expect((await run(["get", store, "--json"])).out).toBe(g.json);
    }
    const file = join(dir, "plain.json");
    await writeFile(file, '{"values": [1, 2.5, "NaN", null]}');
    expect((await run(["import", file, join(dir, "plain.zarr"), "--compressor", "null"])).code).toBe(0);
    expect((await run(["get", join(dir, "plain.zarr")])).out).toBe("array([1. , 2.5, nan, nan])\n");
    await writeFile(file, '{"shape": [2], "values": [9223372036854775807, -1]}');
    expect((await run(["import", file, join(dir, "int.zarr"), "--compressor", "null"])).code).toBe(0);
    expect((await run(["get", join(dir, "int.zarr"), "--json"])).out).toBe(
      '{"dtype": "<i8", "shape": [2], "values": [9223372036854775807, -1]}\n',
    );
  });

  it("skips chunks equal to the fill value with --write-empty-chunks false", async () => {
    const dir = await tempDir();
    const file = join(dir, "z.json");
    await writeFile(file, '{"shape": [6], "values": [0, 0, 0, 0, 1, 0]}');
    const store = join(dir, "s.zarr");
    expect(
      (await run(["import", file, store, "--chunks", "2", "--compressor", "null", "--write-empty-chunks", "false"]))
        .code,
    ).toBe(0);
    expect((await readdir(store)).sort()).toEqual([".zarray", "2"]);
  });

  it.each([
    ["missing.npy", 1, /cannot read .*missing\.npy/],
    ["bad.npy", 1, /not a \.npy file/],
    ["bad.json", 1, /is not valid JSON/],
    ["shape.json", 1, /needs 4 values, "values" has 3/],
    ["values.json", 1, /values\[1\]: expected an integer/],
    ["mixed.json", 1, /cannot tell the dtype/],
    ["data.txt", 2, /cannot tell the format/],
  ] as const)("%s: exit %i", async (name, code, message) => {
    const dir = await tempDir();
    const contents: Record<string, string> = {
      "bad.npy": "not numpy at all",
      "bad.json": "{oops",
      "shape.json": '{"shape": [2, 2], "values": [1, 2, 3]}',
      "values.json": '{"dtype": "<i4", "values": [1, 1.5]}',
      "mixed.json": '{"values": [1, "a"]}',
      "data.txt": "1 2 3",
    };
    if (contents[name] !== undefined) await writeFile(join(dir, name), contents[name]!);
    const result = await run(["import", join(dir, name), join(dir, "s.zarr")]);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
  });
});

describe("zarr attrs", () => {
  it("gets, sets and deletes attributes, writing .zattrs as zarr-python does", async () => {
    const store = await fixtureCopy();
    expect((await run(["attrs", "get", store])).out).toBe('{\n    "title": "fixture",\n    "version": 1.0\n}\n');
    expect((await run(["attrs", "get", store, "title"])).out).toBe('"fixture"\n');
    expect((await run(["attrs", "set", store, "--path", "grp/a", "scale", "2.0"])).code).toBe(0);
    expect((await run(["attrs", "set", store, "--path", "grp/a", '{"offset": -1, "nan": NaN}'])).code).toBe(0);
    expect(await text(join(store, "grp/a/.zattrs"))).toBe(
      '{\n    "nan": NaN,\n    "offset": -1,\n    "scale": 2.0,\n    "units": "m"\n}',
    );
    expect((await run(["attrs", "delete", store, "--path", "grp/a", "units"])).code).toBe(0);
    expect(JSON.parse((await run(["attrs", "get", store, "--path", "grp/a"])).out.replace("NaN", "null"))).toEqual({
      nan: null,
      offset: -1,
      scale: 2,
    });
    expect((await run(["attrs", "set", store, "--path", "grp/sub", "new", "[1, 2]"])).code).toBe(0);
    expect(await text(join(store, "grp/sub/.zattrs"))).toBe('{\n    "new": [\n        1,\n        2\n    ]\n}');
  });

  it.each([
    [["get", STORE, "nope"], 1, /no attribute "nope" in \.zattrs/],
    [["delete", STORE, "nope"], 1, /no attribute "nope"/],
    [["get", STORE, "--path", "missing"], 1, /no array or group at path "missing"/],
    [["set", STORE, "key", "{bad"], 2, /value of key: .*not valid JSON/],
    [["set", STORE, "[1]"], 2, /takes a JSON object/],
    [["frob", STORE], 2, /unknown action "frob"/],
    [["get"], 2, /missing STORE/],
  ] as const)("%j: exit %i", async (args, code, message) => {
    const result = await run(["attrs", ...args]);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
  });
});

describe("zarr resize", () => {
  it("shrinks (deleting chunks outside) and grows, keeping data in chunks that stay, as zarr-python does", async () => {
    const store = await fixtureCopy();
    expect((await run(["resize", store, "--path", "grp/a", "--shape", "3,12"])).code).toBe(0);
    expect((await readdir(join(store, "grp/a"))).filter((f) => /^\d/.test(f)).sort()).toEqual(["0.0", "0.1", "0.2"]);
    expect((await run(["resize", store, "--path", "grp/a", "--shape", "5,2"])).code).toBe(0);
    expect((await run(["get", store, "--path", "grp/a"])).out).toBe(
      // row 3 was never deleted: its chunk stayed (rows 0-3); row 4 comes from a deleted chunk
      "array([[ 0,  1],\n       [12, 13],\n       [24, 25],\n       [36, 37],\n       [-1, -1]], dtype=int32)\n",
    );
  });

  it.each([
    [["--path", "grp/a", "--shape", "3"], 2, /--shape has 1 values, the array has 2/],
    [["--path", "grp", "--shape", "3"], 1, /"grp" is a group, not an array/],
    [["--path", "grp/a"], 2, /--shape is required/],
  ] as const)("%j: exit %i", async (args, code, message) => {
    const result = await run(["resize", await fixtureCopy(), ...args]);
    expect(result.code).toBe(code);
    expect(result.err).toMatch(message);
  });
});

describe("zarr copy", () => {
  it("copies a whole store key by key", async () => {
    const dst = join(await tempDir(), "copy.zarr");
    const { code, err } = await run(["copy", STORE, dst]);
    expect(code).toBe(0);
    expect(err).toMatch(/^copied \d+ keys/);
    expect((await run(["digest", dst])).out).toBe((await run(["digest", STORE])).out);
    expect((await run(["tree", dst])).out).toBe((await run(["tree", STORE])).out);
  });

  it("copies one node, creating the groups above it, and refuses to overwrite unless asked", async () => {
    const dst = join(await tempDir(), "copy.zarr");
    expect((await run(["copy", STORE, dst, "--path", "grp/a"])).code).toBe(0);
    expect((await run(["tree", dst])).out).toBe("/\n └── grp\n     └── a (10, 12) int32\n");
    expect((await run(["digest", dst, "--path", "grp/a"])).out).toBe(
      (await run(["digest", STORE, "--path", "grp/a"])).out,
    );
    const again = await run(["copy", STORE, dst, "--path", "grp/a"]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already has a node at "grp\/a" \(pass --overwrite/);
    expect((await run(["copy", STORE, dst, "--path", "nested", "--dest-path", "grp/a", "--overwrite"])).code).toBe(0);
    expect((await run(["get", dst, "--path", "grp/a", "0"])).out).toBe(
      "array([0.  , 0.25, 0.5 , 0.75], dtype=float32)\n",
    );
    const blocked = await run(["copy", STORE, dst, "--path", "b", "--dest-path", "grp/a/x"]);
    expect(blocked.code).toBe(1);
    expect(blocked.err).toMatch(/"grp\/a" is an array/);
  });

  it("copies blosc arrays byte for byte", async () => {
    const dst = join(await tempDir(), "copy.zarr");
    expect((await run(["copy", join(FIXTURES, "store-blosc"), dst])).code).toBe(0);
    expect((await run(["digest", dst])).out).toBe(await text(join(FIXTURES, "store-blosc-digest.txt")));
  });

  it("refuses overlapping copies in one store", async () => {
    const store = await fixtureCopy();
    const result = await run(["copy", store, store, "--path", "grp", "--dest-path", "grp/inner"]);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/overlap/);
  });
});

describe("zarr consolidate", () => {
  it("writes .zmetadata byte for byte as zarr-python's consolidate_metadata", async () => {
    const store = await fixtureCopy();
    const { code, err } = await run(["consolidate", store]);
    expect(code).toBe(0);
    expect(err).toMatch(/wrote \.zmetadata with 17 metadata documents/);
    expect(await text(join(store, ".zmetadata"))).toBe(expected.zmetadata);
  });
});
