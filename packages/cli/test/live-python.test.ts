import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDataType } from "@z/meta";
import { encodeNpy, readNpy } from "../src/npy/index.js";
import { FIXTURES, run, tempDir } from "./helpers.js";
import { requireTool } from "../../../scripts/test-child/tools.js";

const PYTHON = "/usr/bin/python3";
const hasPython = spawnSync(PYTHON, ["-c", "import numpy, zarr"]).status === 0;

// The committed fixtures make the other tests independent of Python; this one asks numpy and
// zarr-python themselves about what we write, when they are installed.
describe("numpy and zarr-python read what we write", () => {
  requireTool("zarr-python", hasPython);
  it("reads our .npy files and our stores", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "npy"));
    const pairs: Record<string, string> = {};
    for (const name of readdirSync(join(FIXTURES, "npy")).filter((f) => f.endsWith(".npy"))) {
      const original = join(FIXTURES, "npy", name);
      const { header, data } = readNpy(new Uint8Array(readFileSync(original)), name);
      await writeFile(join(dir, "npy", name), encodeNpy(header, data));
      pairs[name.slice(0, -4)] = original;
    }
    // a header over 64 KiB, which needs format 2.0
    const fields = Array.from({ length: 3000 }, (_, i) => [`field_number_${i}`, "<i4"]);
    const data = new Uint8Array(12000);
    new DataView(data.buffer).setInt32(2999 * 4, 2999, true);
    await writeFile(
      join(dir, "npy", "many-fields.npy"),
      encodeNpy({ dtype: parseDataType(fields), shape: [1], fortranOrder: false }, data),
    );
    await writeFile(join(dir, "npy.json"), JSON.stringify({ pairs }));

    const store = join(dir, "store.zarr");
    const ok = async (args: string[]): Promise<void> => {
      const result = await run(args);
      expect(result.code, `${args.join(" ")}: ${result.err}`).toBe(0);
    };
    await ok([
      "import",
      join(FIXTURES, "npy", "F-2d.npy"),
      store,
      "--path",
      "x/imported",
      "--chunks",
      "2,3",
      "--fill-value",
      "-1",
      "--compressor",
      '{"id": "zlib", "level": 1}',
      "--attrs",
      '{"units": "m"}',
    ]);
    await ok(["resize", store, "--path", "x/imported", "--shape", "3,3"]);
    await ok(["attrs", "set", store, "--path", "x/imported", "scale", "2.0"]);
    await ok([
      "create",
      store,
      "--path",
      "created",
      "--shape",
      "4",
      "--dtype",
      "<M8[s]",
      "--fill-value",
      '"NaT"',
      "--compressor",
      "null",
    ]);
    const json = join(dir, "s.json");
    await writeFile(
      json,
      '{"dtype": [["a", "<i2"], ["b", ">f4", [2]]], "shape": [2], "values": [{"a": 1, "b": [0, 0.5]}, {"a": -1, "b": [1.5, 2.5]}]}',
    );
    await ok(["import", json, store, "--path", "structured", "--compressor", '{"id": "gzip", "level": 5}']);
    await writeFile(json, '{"values": [1, 2.5, "NaN"]}');
    await ok(["import", json, store, "--path", "fromjson", "--compressor", "null"]);
    await ok(["attrs", "set", store, "made_by", '"zarr cli"']);
    await ok(["consolidate", store]);
    await ok(["validate", store]);

    const out = execFileSync(PYTHON, [join(import.meta.dirname, "python", "check_ours.py"), dir], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual([]);
  }, 30_000);

  it("reads the zip files we write", async () => {
    const zip = join(await tempDir(), "out.zip");
    expect((await run(["copy", join(FIXTURES, "store"), zip])).code).toBe(0);
    expect(
      (await run(["import", join(FIXTURES, "store-npy", "grp-a.npy"), zip, "--path", "imported", "--chunks", "3,5"]))
        .code,
    ).toBe(0);
    const script = `
import json, sys, numpy as np, zarr
source = zarr.open_group(sys.argv[2], mode="r")
with zarr.ZipStore(sys.argv[1], mode="r") as store:
    g = zarr.open_group(store, mode="r")
    paths = []
    g.visitvalues(lambda v: paths.append(v.path) if isinstance(v, zarr.Array) else None)
    bad = [p for p in paths if p != "imported" and g[p].hexdigest() != source[p].hexdigest()]
    same = bool(np.array_equal(g["imported"][:], source["grp/a"][:])) and g["imported"].compressor.cname == "lz4"
    print(json.dumps({"arrays": len(paths), "bad": bad, "same": same}))
`;
    const out = execFileSync(PYTHON, ["-c", script, zip, join(FIXTURES, "store")], { encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({ arrays: 13, bad: [], same: true });
  }, 30_000);
});
