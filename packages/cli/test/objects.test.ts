// Object arrays (dtype |O) that zarr-python 2.13 wrote with each object codec
// (test/python/object_fixtures.py): read as numpy prints them and as JSON, exported, imported.
import { execFileSync, spawnSync } from "node:child_process";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, run, tempDir } from "./helpers.js";
import { requireTool } from "../../../scripts/test-child/tools.js";

interface Expected {
  gets: { path: string; selection: string; repr: string; json: string | null }[];
  info: Record<string, Record<string, string>>;
}

const OBJECTS = join(FIXTURES, "objects");
const expected = JSON.parse(await readFile(join(FIXTURES, "objects-expected.json"), "utf8")) as Expected;
const gets = expected.gets.map((g) => [g.path, g.selection, g] as const);
const sel = (selection: string): string[] => (selection === "" ? [] : [selection]);

describe("zarr get of object arrays", () => {
  it.each(gets)("%s [%s] prints numpy's repr", async (path, selection, g) => {
    expect(await run(["get", OBJECTS, "--path", path, ...sel(selection)])).toEqual({
      code: 0,
      out: `${g.repr}\n`,
      err: "",
    });
  });

  it.each(gets.filter(([, , g]) => g.json !== null))("%s [%s] --json gives every value", async (path, selection, g) => {
    expect(await run(["get", OBJECTS, "--path", path, "--json", ...sel(selection)])).toEqual({
      code: 0,
      out: g.json,
      err: "",
    });
  });
});

describe("zarr info of object arrays", () => {
  const items = (text: string): Record<string, string> =>
    Object.fromEntries(
      text
        .trim()
        .split("\n")
        .map((line) => line.split(/ +: /) as [string, string]),
    );
  it.each(Object.entries(expected.info))("%s reads as zarr-python's Array.info", async (path, info) => {
    const { code, out } = await run(["info", OBJECTS, "--path", path]);
    expect(code).toBe(0);
    const ours = items(out);
    // this project's names; codecs written as @z/core's codecRepr writes them (sorted parameters, one line)
    const { Type: _t, "Store type": _s, "Read-only": _r, Compressor: _c, "Filter [0]": _f, ...rest } = info;
    // zarr-python 2.13 counts the chunk of a 0-d array twice ("2/1")
    if (path === "scalar") rest["Chunks initialized"] = "1/1";
    expect(ours).toMatchObject({ ...rest, Type: "ZarrArray", "Store type": "DirectoryStore", "Read-only": "True" });
    expect(ours["Filter [0]"]).toMatch(/^(VLenUTF8|VLenBytes|VLenArray|JSON|MsgPack)\(/);
  });
});

describe("zarr get --json and zarr export of values JSON cannot hold", () => {
  it("names the value and says what works instead", async () => {
    const got = await run(["get", OBJECTS, "--path", "msgpack", "--json"]);
    expect(got.code).toBe(1);
    expect(got.err).toMatch(
      /value 3 \(flat, in C order\) of the selection holds bytes \(b'by'\), which JSON cannot hold: `zarr get` without --json prints it, and `zarr copy` copies the array as it is/,
    );
    const out = join(await tempDir(), "m.json");
    const exported = await run(["export", OBJECTS, "--path", "msgpack", "--out", out]);
    expect(exported.code).toBe(1);
    expect(exported.err).toMatch(/value 3 .* holds bytes/);
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
    // the values before and after it are fine
    expect((await run(["get", OBJECTS, "--path", "msgpack", "--json", "4:"])).out).toBe(
      '{"dtype": "|O", "object_codec": {"id": "msgpack2", "raw": false, "use_bin_type": true, "use_single_float": false}, "shape": [2], "values": [null, {"a": [1, 2]}]}\n',
    );
  });
});

describe("zarr export of object arrays", () => {
  const whole = gets.filter(([, selection, g]) => selection === "" && g.json !== null);

  it.each(whole)("%s to .json: what get --json prints", async (path, _selection, g) => {
    const out = join(await tempDir(), "o.json");
    const { code, err } = await run(["export", OBJECTS, "--path", path, "--out", out]);
    expect(code, err).toBe(0);
    expect(await readFile(out, "utf8")).toBe(g.json);
  });

  it("exports a selection in slabs, backwards too", async () => {
    const out = join(await tempDir(), "o.json");
    expect((await run(["export", OBJECTS, "--path", "big", "--out", out, "--selection", "::7,-3:"])).code).toBe(0);
    expect(await readFile(out, "utf8")).toBe(
      expected.gets.find((g) => g.path === "big" && g.selection === "::7,-3:")!.json,
    );
  });

  it("refuses .npy, which holds objects only pickled, and says to use JSON", async () => {
    const out = join(await tempDir(), "o.npy");
    const { code, err } = await run(["export", OBJECTS, "--path", "utf8", "--out", out]);
    expect(code).toBe(1);
    expect(err).toMatch(
      /"utf8" is an object array \(dtype \|O, vlen-utf8\): a \.npy file holds objects only pickled, which numpy loads only with allow_pickle=True; export it as JSON instead \(--out FILE\.json\)/,
    );
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
  });
});

describe("bytes and text in the JSON form", () => {
  // what test/python/object_fixtures.py had zarr-python 2.13 write into "bytes" (dtype=bytes) and "utf8"
  const written = [Buffer.from("ab"), Buffer.from([0, 0xff, 0x27, 0x22]), Buffer.alloc(0)];

  it("exports vlen-bytes values as base64 of each value's bytes, and vlen-utf8 values as text", async () => {
    const dir = await tempDir();
    const bytesFile = join(dir, "b.json");
    expect((await run(["export", OBJECTS, "--path", "bytes", "--out", bytesFile])).code).toBe(0);
    const bytesDoc = JSON.parse(await readFile(bytesFile, "utf8")) as { object_codec: unknown; values: unknown[] };
    expect(bytesDoc.object_codec).toEqual({ id: "vlen-bytes" });
    // chunk 2 (values 3 and 4) was written from [b""] and then the fill value 0 read back for the missing one
    expect(bytesDoc.values).toEqual([...written.map((b) => b.toString("base64")), "", 0]);
    expect(bytesDoc.values.slice(0, 3)).toEqual(["YWI=", "AP8nIg==", ""]);
    const textFile = join(dir, "t.json");
    expect((await run(["export", OBJECTS, "--path", "utf8", "--selection", "0", "--out", textFile])).code).toBe(0);
    expect((JSON.parse(await readFile(textFile, "utf8")) as { values: unknown[] }).values).toEqual([
      "a",
      "bé \u{1F600}",
      'it\'s "q"\n',
    ]);
  });

  it("round-trips vlen-bytes through export and import, every byte kept", async () => {
    const dir = await tempDir();
    const file = join(dir, "b.json");
    expect((await run(["export", OBJECTS, "--path", "bytes", "--out", file])).code).toBe(0);
    const store = join(dir, "new.zarr");
    // the original's layout (fill value 0, chunks of 2): its missing chunk stays missing and reads as 0
    const layout = ["--chunks", "2", "--fill-value", "0", "--write-empty-chunks", "false"];
    const imported = await run(["import", file, store, ...layout]);
    expect(imported.code, imported.err).toBe(0);
    const zarray = JSON.parse(await readFile(join(store, ".zarray"), "utf8")) as { filters: unknown };
    expect(zarray.filters).toEqual([{ id: "vlen-bytes" }]);
    expect((await run(["get", store])).out).toBe(`${expected.gets.find((g) => g.path === "bytes")!.repr}\n`);
    const again = join(dir, "again.json");
    expect((await run(["export", store, "--out", again])).code).toBe(0);
    expect(await readFile(again, "utf8")).toBe(await readFile(file, "utf8"));
  });

  it("writes |S and |V values as base64 and reads them back so", async () => {
    const dir = await tempDir();
    const file = join(dir, "s.json");
    const values = { s: ["YWI=", "AP8=", ""], v: ["AAEC", "/wAA", "AAAA"] };
    for (const [dtype, list] of [
      ["|S3", values.s],
      ["|V3", values.v],
    ] as const) {
      await writeFile(file, JSON.stringify({ dtype, shape: [3], values: list }));
      const store = join(dir, `${dtype.slice(1)}.zarr`);
      expect((await run(["import", file, store])).code).toBe(0);
      expect(JSON.parse((await run(["get", store, "--json"])).out)).toEqual({ dtype, shape: [3], values: list });
    }
    expect((await run(["get", join(dir, "S3.zarr")])).out).toBe("array([b'ab', b'\\x00\\xff', b''], dtype='|S3')\n");
    await writeFile(file, JSON.stringify({ dtype: "|S3", shape: [1], values: ["abc"] }));
    expect((await run(["import", file, join(dir, "bad.zarr")])).err).toMatch(
      /values\[0\]: expected base64 text of the bytes for dtype \|S3, found "abc"/,
    );
    await writeFile(file, JSON.stringify({ dtype: "|S3", shape: [1], values: ["YWJjZA=="] }));
    expect((await run(["import", file, join(dir, "bad.zarr")])).err).toMatch(/expected base64 of at most 3 bytes/);
  });
});

describe("zarr import of object arrays", () => {
  /** The original's fill value and chunks, as flags. */
  const layoutOf = async (path: string): Promise<string[]> => {
    const zarray = JSON.parse(await readFile(join(OBJECTS, path, ".zarray"), "utf8")) as {
      fill_value: unknown;
      chunks: number[];
    };
    return [
      "--fill-value",
      JSON.stringify(zarray.fill_value),
      ...(zarray.chunks.length > 0 ? ["--chunks", zarray.chunks.join(",")] : []),
    ];
  };
  // vlen-utf8 stores None as "" (as numcodecs does), so utf8-none's null comes back as ""
  const whole = gets.filter(([path, selection, g]) => selection === "" && g.json !== null && path !== "utf8-none");

  it.each(whole)("%s: an export imports back to the same values and object codec", async (path, _selection, g) => {
    const dir = await tempDir();
    const file = join(dir, "o.json");
    await writeFile(file, g.json!);
    const store = join(dir, "new.zarr");
    // chunks equal to the fill value everywhere stay unwritten, so they read as the fill value again
    const { code, err } = await run([
      "import",
      file,
      store,
      "--path",
      "x",
      ...(await layoutOf(path)),
      "--write-empty-chunks",
      "false",
    ]);
    expect(code, err).toBe(0);
    expect(await run(["get", store, "--path", "x", "--json"])).toEqual({ code: 0, out: g.json, err: "" });
    const filters = (p: string): Promise<unknown> =>
      readFile(p, "utf8").then((t) => (JSON.parse(t) as { filters: unknown }).filters);
    expect(await filters(join(store, "x", ".zarray"))).toEqual(await filters(join(OBJECTS, path, ".zarray")));
  });

  it("takes the object codec from --object-codec or zarr-python's dtype shorthands", async () => {
    const dir = await tempDir();
    const file = join(dir, "v.json");
    await writeFile(file, '{"shape": [3], "values": ["a", "bc", null]}');
    const store = join(dir, "s.zarr");
    expect((await run(["import", file, store, "--path", "str", "--dtype", "str"])).code).toBe(0);
    expect((await run(["get", store, "--path", "str"])).out).toBe("array(['a', 'bc', ''], dtype=object)\n");
    expect((await run(["import", file, store, "--path", "json", "--object-codec", '{"id": "json2"}'])).code).toBe(0);
    expect((await run(["get", store, "--path", "json"])).out).toBe("array(['a', 'bc', None], dtype=object)\n");
    await writeFile(file, '{"shape": [2], "values": [[1, 2], [3]]}');
    expect((await run(["import", file, store, "--path", "ragged", "--dtype", "array:<i2"])).code).toBe(0);
    expect((await run(["get", store, "--path", "ragged"])).out).toBe(
      "array([array([1, 2], dtype=int16), array([3], dtype=int16)], dtype=object)\n",
    );
  });

  it("needs an object codec, and values each codec can store", async () => {
    const dir = await tempDir();
    const file = join(dir, "v.json");
    await writeFile(file, '{"dtype": "|O", "shape": [2], "values": ["a", "b"]}');
    const missing = await run(["import", file, join(dir, "s.zarr")]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/holds an object array \(dtype \|O\) but names no object codec: add "object_codec"/);
    await writeFile(file, '{"dtype": "|O", "object_codec": {"id": "vlen-utf8"}, "shape": [2], "values": ["a", 5]}');
    const bad = await run(["import", file, join(dir, "s.zarr")]);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/values\[1\]: expected text \(or null\) for an object array with vlen-utf8, found 5/);
    // vlen-bytes values are base64: text of one character per byte (the old form) is refused
    for (const text of ["ab", "\\u0100", "YWI"]) {
      await writeFile(
        file,
        `{"dtype": "|O", "object_codec": {"id": "vlen-bytes"}, "shape": [1], "values": ["${text}"]}`,
      );
      expect((await run(["import", file, join(dir, "s.zarr")])).err).toMatch(
        /values\[0\]: expected base64 text of the bytes \(or null\) for an object array with vlen-bytes, found "/,
      );
    }
    await writeFile(file, '{"dtype": "|O", "object_codec": {"id": "zlib"}, "shape": [1], "values": ["a"]}');
    expect((await run(["import", file, join(dir, "s.zarr")])).err).toMatch(
      /"object_codec" must be an object codec config/,
    );
    const create = await run(["create", join(dir, "c.zarr"), "--shape", "2", "--dtype", "|O"]);
    expect(create.code).toBe(2);
    expect(create.err).toMatch(/an object array \(dtype \|O\) needs an object codec: --object-codec/);
    expect((await run(["create", join(dir, "c.zarr"), "--shape", "2", "--dtype", "bytes"])).code).toBe(0);
  });

  it("refuses a .npy of objects (pickled) and says to use JSON", async () => {
    const npy = join(await tempDir(), "o.npy");
    const header = "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }";
    const padded = `${header + " ".repeat(64 - ((10 + header.length + 1) % 64))}\n`;
    await writeFile(
      npy,
      Buffer.concat([
        Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, padded.length, 0]),
        Buffer.from(padded, "latin1"),
        Buffer.alloc(8),
      ]),
    );
    const { code, err } = await run(["import", npy, join(await tempDir(), "s.zarr")]);
    expect(code).toBe(1);
    expect(err).toMatch(/object arrays are stored with pickle, which is not read here; import them from JSON instead/);
  });
});

const PYTHON = "/usr/bin/python3";
const hasPython = spawnSync(PYTHON, ["-c", "import numpy, zarr"]).status === 0;

describe("zarr-python reads the object arrays zarr import writes", () => {
  requireTool("zarr-python", hasPython);
  it("finds the values it wrote itself, of the same Python types", async () => {
    const dir = await tempDir();
    const store = join(dir, "ours.zarr");
    const paths = [
      "utf8",
      "bytes",
      "ragged",
      "ragged-f8",
      "ragged-long",
      "json",
      "json-2d",
      "msgpack-plain",
      "big",
      "scalar",
    ];
    for (const path of paths) {
      const file = join(dir, `${path}.json`);
      expect((await run(["export", OBJECTS, "--path", path, "--out", file])).code).toBe(0);
      const zarray = JSON.parse(await readFile(join(OBJECTS, path, ".zarray"), "utf8")) as {
        fill_value: unknown;
        chunks: number[];
      };
      const layout = [
        "--fill-value",
        JSON.stringify(zarray.fill_value),
        ...(zarray.chunks.length > 0 ? ["--chunks", zarray.chunks.join(",")] : []),
      ];
      const { code, err } = await run([
        "import",
        file,
        store,
        "--path",
        path,
        ...layout,
        "--write-empty-chunks",
        "false",
        "--compressor",
        '{"id": "zlib", "level": 1}',
      ]);
      expect(code, err).toBe(0);
    }
    const script = `
import json, sys, numpy as np, zarr
theirs, ours = zarr.open_group(sys.argv[1], mode="r"), zarr.open_group(sys.argv[2], mode="r")
def same(x, y):
    if isinstance(x, np.ndarray):
        return isinstance(y, np.ndarray) and x.dtype == y.dtype and np.array_equal(x, y, equal_nan=x.dtype.kind == "f")
    if isinstance(x, float) and x != x:
        return isinstance(y, float) and y != y
    return type(x) is type(y) and x == y
problems = []
for path in sys.argv[3:]:
    a, b = theirs[path], ours[path]
    if a.shape != b.shape or a.filters != b.filters:
        problems.append(f"{path}: {b.shape} {b.filters}")
        continue
    for i, (x, y) in enumerate(zip(np.asarray(a[...]).reshape(-1), np.asarray(b[...]).reshape(-1))):
        if not same(x, y):
            problems.append(f"{path}[{i}]: {y!r}, expected {x!r}")
print(json.dumps(problems))
`;
    const out = execFileSync(PYTHON, ["-c", script, OBJECTS, store, ...paths], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([]);
  }, 30_000);
});
