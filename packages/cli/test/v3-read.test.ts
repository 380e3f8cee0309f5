/**
 * The inspection commands on a Zarr v3 hierarchy TensorStore 0.1.85 wrote (test/fixtures/store-v3,
 * made by test/python/v3_store_fixtures.py, which also recorded numpy's reprs and values in
 * store-v3-expected.json): each finds the format by itself.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { readNpy } from "../src/npy/index.js";
import { requireTool, tensorstorePython } from "../../../scripts/test-child/tools.js";
import { openSession } from "../../../scripts/test-server/client.js";
import { FIXTURES, run, tempDir } from "./helpers.js";

const STORE_V3 = join(FIXTURES, "store-v3");
const expected = JSON.parse(await readFile(join(FIXTURES, "store-v3-expected.json"), "utf8")) as Record<
  string,
  { repr: string; values: (number | null)[]; dtype: string; shape: number[] }
>;
const ARRAYS = ["grp/a", "b", "c", "sharded", "z0"];

const copyOfStore = async (): Promise<string> => {
  const dir = join(await tempDir(), "store-v3");
  await cp(STORE_V3, dir, { recursive: true });
  return dir;
};

describe("zarr info on v3 nodes, as zarr-python 3's info_complete()", () => {
  it("describes an array: format, codecs as Filters, Serializer and Compressors, dimension names", async () => {
    expect(await run(["info", STORE_V3, "--path", "grp/a"])).toEqual({
      code: 0,
      err: "",
      out: `Type               : Array
Zarr format        : 3
Data type          : int32
Fill value         : -1
Shape              : (10, 12)
Chunk shape        : (4, 5)
Order              : C
Read-only          : True
Store type         : DirectoryStore
Filters            : ()
Serializer         : BytesCodec(endian='little')
Compressors        : (GzipCodec(level=1),)
Dimension names    : ('y', 'x')
No. bytes          : 480
No. bytes stored   : 693
Storage ratio      : 0.7
Chunks Initialized : 6
`,
    });
  });

  it("gives a sharded array's shard shape, inner chunk shape and inner codecs", async () => {
    const { out } = await run(["info", STORE_V3, "--path", "sharded"]);
    expect(out.split("\n").slice(4, 7)).toEqual([
      "Shape              : (8, 8)",
      "Shard shape        : (4, 4)",
      "Chunk shape        : (2, 2)",
    ]);
    expect(out).toContain("Serializer         : BytesCodec(endian=None)\n");
    expect(out).toContain("Shards Initialized : 2\n");
    const json = JSON.parse((await run(["info", STORE_V3, "--path", "sharded", "--json"])).out);
    expect(json).toMatchObject({ zarr_format: 3, shape: [8, 8], chunks: [2, 2], shards: [4, 4], data_type: "uint8" });
    expect(json.codecs[0].name).toBe("sharding_indexed");
  });

  it("shows the fill value, the byte order and the transpose of the other arrays", async () => {
    const b = (await run(["info", STORE_V3, "--path", "b"])).out;
    expect(b).toContain("Fill value         : nan\n");
    expect(b).toContain("Serializer         : BytesCodec(endian='big')\nCompressors        : (Crc32cCodec(),)\n");
    const c = (await run(["info", STORE_V3, "--path", "c"])).out;
    expect(c).toContain("Filters            : (TransposeCodec(order=(1, 0)),)\n");
    expect(c).toContain("Compressors        : (ZstdCodec(level=3, checksum=False),)\n");
    expect(JSON.parse((await run(["info", STORE_V3, "--path", "b", "--json"])).out)).toMatchObject({
      fill_value: "NaN",
      // as TensorStore writes it: the separator left out when it is the default
      chunk_key_encoding: { name: "v2" },
      dimension_names: null,
      shards: null,
    });
  });

  it("describes a group as zarr-python 3's GroupInfo", async () => {
    expect((await run(["info", STORE_V3])).out).toBe(`Name        : 
Type        : Group
Zarr format : 3
Read-only   : True
Store type  : DirectoryStore
No. members : 5
No. arrays  : 4
No. groups  : 1
`);
  });

  it("names zarr.json when there is no node", async () => {
    expect(await run(["info", STORE_V3, "--path", "nothing"])).toMatchObject({
      code: 1,
      err: 'zarr info: no array or group at path "nothing" (no nothing/zarr.json, nothing/.zarray or nothing/.zgroup)\n',
    });
  });
});

describe("zarr tree, get, export and digest on v3 nodes", () => {
  it("draws the hierarchy, and says each node's format with --json", async () => {
    expect((await run(["tree", STORE_V3])).out).toBe(`/
 ├── b (5,) float64
 ├── c (3, 4) uint16
 ├── grp
 │   ├── a (10, 12) int32
 │   └── sub
 ├── sharded (8, 8) uint8
 └── z0 () int64
`);
    const json = JSON.parse((await run(["tree", STORE_V3, "--json"])).out);
    expect(json[""]).toEqual({ kind: "group", zarr_format: 3, attrs: { title: "fixture v3", version: 3 } });
    expect(json["grp/sub"]).toEqual({ kind: "group", zarr_format: 3, attrs: { empty: true } });
    expect(json["grp/a"]).toEqual({
      kind: "array",
      zarr_format: 3,
      attrs: { units: "m" },
      shape: [10, 12],
      data_type: "int32",
    });
  });

  it.each(ARRAYS)("get %s prints numpy's repr of what TensorStore wrote", async (path) => {
    expect(await run(["get", STORE_V3, "--path", path])).toEqual({
      code: 0,
      out: `${expected[path]!.repr}\n`,
      err: "",
    });
    const json = JSON.parse((await run(["get", STORE_V3, "--path", path, "--json"])).out);
    expect(json.values.map((v: unknown) => (v === "NaN" ? null : v))).toEqual(expected[path]!.values);
    expect(json.shape).toEqual(expected[path]!.shape);
  });

  it("reads a node named by TensorStore's zarr3: URL part", async () => {
    const url = `${pathToFileURL(STORE_V3).href}|zarr3:grp/a`;
    expect((await run(["get", url, "7,0:3"])).out).toBe("array([-1, -1, -1], dtype=int32)\n");
  });

  it("exports a transposed array to a .npy file numpy reads the same", async () => {
    const out = join(await tempDir(), "c.npy");
    expect((await run(["export", STORE_V3, "--path", "c", "--out", out])).code).toBe(0);
    const { header, data } = readNpy(new Uint8Array(await readFile(out)));
    expect(header.shape).toEqual([3, 4]);
    expect(Array.from(new Uint16Array(data.buffer, data.byteOffset, 12))).toEqual(expected.c!.values);
  });

  it("hashes the chunks in grid order, then zarr.json once", async () => {
    const h = createHash("sha1");
    for (const key of ["c/0/0", "c/0/1", "c/0/2", "c/1/0", "c/1/1", "c/1/2", "c/2/0", "c/2/1", "c/2/2"]) {
      const bytes = await readFile(join(STORE_V3, "grp/a", key)).catch(() => undefined);
      if (bytes !== undefined) h.update(bytes);
    }
    h.update(await readFile(join(STORE_V3, "grp/a/zarr.json")));
    expect((await run(["digest", STORE_V3, "--path", "grp/a"])).out).toBe(`${h.digest("hex")}\n`);
  });
});

describe("zarr validate on v3 nodes", () => {
  it("decodes every chunk under the default and the v2 key encodings", async () => {
    expect(await run(["validate", STORE_V3, "--path", "grp"])).toMatchObject({
      code: 0,
      out: "ok: 1 arrays, 2 groups, 6 chunks checked; 0 errors, 0 warnings\n",
    });
    // the sharded array's chunks are its shards, each decoded whole
    expect((await run(["validate", STORE_V3])).out).toBe(
      "ok: 5 arrays, 3 groups, 15 chunks checked; 0 errors, 0 warnings\n",
    );
  });

  it("names a chunk that does not decode, a chunk outside the grid and a v2 node in a v3 group", async () => {
    const store = await copyOfStore();
    await writeFile(join(store, "grp/a/c/1/1"), "not gzip");
    await writeFile(join(store, "b/7"), "x");
    await cp(join(FIXTURES, "store/b"), join(store, "grp/old"), { recursive: true });
    const { code, out } = await run(["validate", store]);
    expect(code).toBe(1);
    expect(out).toMatch(/^error: grp\/a\/c\/1\/1: .*gzip/m);
    expect(out).toContain('warning: b/7: chunk outside the grid of "b" (shape [5], chunks [2])\n');
    expect(out).toMatch(
      /^warning: grp\/old\/\.zarray: its parent "grp" is a Zarr v3 group, whose members zarr-python 3 looks for by their zarr\.json/m,
    );
  });
});

describe("changing a v3 node's attributes and copying it", () => {
  it("rewrites zarr.json's attributes and keeps its other members", async () => {
    const store = await copyOfStore();
    const before = JSON.parse(await readFile(join(store, "grp/a/zarr.json"), "utf8"));
    expect((await run(["attrs", "set", store, "--path", "grp/a", "scale", "2.0"])).code).toBe(0);
    expect((await run(["attrs", "get", store, "--path", "grp/a"])).out).toBe(
      '{\n    "scale": 2.0,\n    "units": "m"\n}\n',
    );
    const after = JSON.parse(await readFile(join(store, "grp/a/zarr.json"), "utf8"));
    expect(after).toEqual({ ...before, attributes: { units: "m", scale: 2 } });
    expect(await readFile(join(store, "grp/a/zarr.json"), "utf8")).toContain('"scale": 2.0');
    expect((await run(["attrs", "delete", store, "scale"])).code).toBe(1); // the root has none
    expect((await run(["attrs", "set", store, '{"title": "changed"}'])).code).toBe(0);
    expect(JSON.parse(await readFile(join(store, "zarr.json"), "utf8"))).toEqual({
      attributes: { title: "changed", version: 3 },
      zarr_format: 3,
      node_type: "group",
    });
  });

  it("copies a v3 array key by key, creating v3 groups above it", async () => {
    const dest = join(await tempDir(), "copy");
    expect((await run(["copy", STORE_V3, dest, "--path", "grp/a", "--dest-path", "x/y"])).code).toBe(0);
    expect(JSON.parse(await readFile(join(dest, "x/zarr.json"), "utf8"))).toEqual({
      attributes: {},
      zarr_format: 3,
      node_type: "group",
    });
    expect((await run(["get", dest, "--path", "x/y"])).out).toBe(`${expected["grp/a"]!.repr}\n`);
    expect((await run(["tree", dest])).out).toBe("/\n └── x\n     └── y (10, 12) int32\n");
  });
});

describe("TensorStore reads a v3 node z changed", () => {
  requireTool("tensorstore", tensorstorePython !== undefined);
  it("opens grp/a after zarr attrs set, with its values", async () => {
    const store = await copyOfStore();
    await run(["attrs", "set", store, "--path", "grp/a", "scale", "2.0"]);
    const script = `
import json, sys, tensorstore as ts
a = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": sys.argv[1]}, "path": "grp/a"}).result()
print(json.dumps(a.read().result().ravel().tolist()))`;
    const values = JSON.parse(execFileSync(tensorstorePython!, ["-c", script, store], { encoding: "utf8" }));
    expect(values).toEqual(expected["grp/a"]!.values);
  });
});

describe("a v3 hierarchy consolidated by zarr consolidate, over plain HTTP", () => {
  it("is walked through the root zarr.json's consolidated_metadata, as zarr-python 3 writes it", async () => {
    const local = await copyOfStore();
    expect(await run(["consolidate", local])).toMatchObject({
      code: 0,
      err: "wrote the metadata of 7 nodes inline into zarr.json (consolidated_metadata)\n",
    });
    const root = JSON.parse(await readFile(join(local, "zarr.json"), "utf8"));
    expect(root.consolidated_metadata).toMatchObject({ kind: "inline", must_understand: false });
    expect(Object.keys(root.consolidated_metadata.metadata).sort()).toEqual([
      "b",
      "c",
      "grp",
      "grp/a",
      "grp/sub",
      "sharded",
      "z0",
    ]);
    expect((await run(["validate", local])).code).toBe(0);
    const values: Record<string, string> = {};
    for (const entry of await readdir(local, { recursive: true, withFileTypes: true }))
      if (entry.isFile()) {
        const file = join(entry.parentPath, entry.name);
        values[`/${relative(local, file)}`] = (await readFile(file)).toString("base64");
      }
    const session = await openSession({ values });
    try {
      expect(await run(["tree", session.url])).toEqual(await run(["tree", local]));
      expect(await run(["get", session.url, "--path", "grp/a", "--json"])).toEqual(
        await run(["get", local, "--path", "grp/a", "--json"]),
      );
      // every node from the one document: no member's zarr.json is asked for
      const asked = (await session.log()).requests.map((r) => r.path);
      expect(asked.filter((p) => p.endsWith("zarr.json") && p !== "/zarr.json")).toEqual([]);
    } finally {
      await session.end();
    }
  });
});
