/**
 * `zarr import` and `zarr create` with --zarr-format 3: the zarr.json zarr-python 3's create_array
 * writes for the same arguments, chunks where its key encoding says, TensorStore 0.1.85 reading back
 * what was written; bad flags refused with the flag named.
 */
import { execFileSync } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { requireTool, tensorstorePython } from "../../../scripts/test-child/tools.js";
import { FIXTURES, run, tempDir } from "./helpers.js";

const NPY = join(FIXTURES, "npy");

const zarrJson = async (dir: string, path: string): Promise<unknown> =>
  JSON.parse(await readFile(join(dir, path, "zarr.json"), "utf8"));

/** Every file below `dir`, as store keys. */
async function keysBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** zarr-python 3's create_array defaults: bytes little-endian, then zstd level 0. */
const DEFAULT_CODECS = [
  { name: "bytes", configuration: { endian: "little" } },
  { name: "zstd", configuration: { level: 0, checksum: false } },
];

describe("zarr create --zarr-format 3", () => {
  it("writes what zarr-python 3's create_array writes for the same arguments", async () => {
    const dir = join(await tempDir(), "new.zarr");
    expect(
      await run(["create", dir, "--zarr-format", "3", "--path", "g/x", "--shape", "100,100", "--chunks", "10,10"]),
    ).toEqual({
      code: 0,
      out: "",
      err: 'created g/x (Zarr v3): shape [100, 100], chunks [10, 10], data_type "float64"\n',
    });
    expect(await zarrJson(dir, "g/x")).toEqual({
      shape: [100, 100],
      data_type: "float64",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [10, 10] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: 0.0,
      codecs: DEFAULT_CODECS,
      attributes: {},
      zarr_format: 3,
      node_type: "array",
      storage_transformers: [],
    });
    // the groups above it, as zarr-python 3 writes them
    expect(await zarrJson(dir, "g")).toEqual({ attributes: {}, zarr_format: 3, node_type: "group" });
    expect(await zarrJson(dir, "")).toEqual({ attributes: {}, zarr_format: 3, node_type: "group" });
  });

  it("takes v3 names and fill values, dimension names with nulls, the v2 key encoding and attributes", async () => {
    const dir = join(await tempDir(), "new.zarr");
    const args = ["create", dir, "--zarr-format", "3", "--shape", "4,6", "--chunks", "2,3", "--dtype", "complex64"];
    const flags = ["--fill-value", '["NaN", -1.5]', "--dimension-names", "y,", "--chunk-key-encoding", "v2"];
    expect((await run([...args, ...flags, "--attrs", '{"units": "m"}'])).code).toBe(0);
    expect(await zarrJson(dir, "")).toMatchObject({
      data_type: "complex64",
      fill_value: ["NaN", -1.5],
      dimension_names: ["y", null],
      chunk_key_encoding: { name: "v2", configuration: { separator: "." } },
      attributes: { units: "m" },
    });
    expect((await run(["get", dir, "0,0"])).out).toBe("array(nan-1.5j, dtype=complex64)\n");
    expect(
      (await run(["create", dir, "--zarr-format", "3", "--shape", "3", "--dtype", "bfloat16", "--overwrite"])).code,
    ).toBe(0);
    expect(await zarrJson(dir, "")).toMatchObject({ data_type: "bfloat16", codecs: DEFAULT_CODECS });
  });

  it("writes a string array's vlen-utf8 serializer", async () => {
    const dir = join(await tempDir(), "s.zarr");
    expect(
      (await run(["create", dir, "--zarr-format", "3", "--shape", "2", "--dtype", "string", "--fill-value", '"-"']))
        .code,
    ).toBe(0);
    expect(await zarrJson(dir, "")).toMatchObject({
      data_type: "string",
      fill_value: "-",
      codecs: [{ name: "vlen-utf8", configuration: {} }, DEFAULT_CODECS[1]],
    });
    expect((await run(["get", dir])).out).toBe("array(['-', '-'], dtype=object)\n");
  });

  it("makes --shards the chunk grid, each shard a sharding_indexed codec of --chunks (create_array(shards=...))", async () => {
    const dir = join(await tempDir(), "sharded.zarr");
    const args = ["create", dir, "--zarr-format", "3", "--shape", "100,100", "--chunks", "10,10", "--shards", "50,50"];
    expect(await run([...args, "--dtype", "uint8"])).toMatchObject({
      code: 0,
      err: 'created an array at the root (Zarr v3): shape [100, 100], shards [50, 50] of chunks [10, 10], data_type "uint8"\n',
    });
    expect(await zarrJson(dir, "")).toMatchObject({
      chunk_grid: { name: "regular", configuration: { chunk_shape: [50, 50] } },
      codecs: [
        {
          name: "sharding_indexed",
          configuration: {
            chunk_shape: [10, 10],
            codecs: [{ name: "bytes" }, DEFAULT_CODECS[1]],
            index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
            index_location: "end",
          },
        },
      ],
    });
    // with --shards, --codecs are the inner chunks' codecs
    const gzip =
      '[{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}]';
    expect((await run([...args, "--dtype", "int32", "--codecs", gzip, "--overwrite"])).code).toBe(0);
    expect(await zarrJson(dir, "")).toMatchObject({ codecs: [{ configuration: { codecs: JSON.parse(gzip) } }] });
  });

  it("refuses flags a v3 array has no place for, and bad v3 flags, naming the flag (exit 2)", async () => {
    const dir = join(await tempDir(), "bad.zarr");
    const create = (...flags: string[]) => run(["create", dir, "--shape", "4,4", ...flags]);
    const cases: [string[], RegExp][] = [
      [["--shards", "2,2"], /--shards is for Zarr v3 arrays: add --zarr-format 3/],
      [["--separator", "/"], /--separator is for Zarr v3 arrays: .*--dimension-separator/],
      [["--zarr-format", "4"], /--zarr-format must be 2 or 3, got "4"/],
      [
        ["--zarr-format", "3", "--compressor", "null"],
        /--compressor: a Zarr v3 array has codecs instead: give them with --codecs/,
      ],
      [["--zarr-format", "3", "--order", "F"], /an F order is a transpose codec .*"order": \[1, 0\]/],
      [["--zarr-format", "3", "--codecs", '{"name": "gzip"}'], /--codecs must be a JSON list of codecs/],
      [
        ["--zarr-format", "3", "--codecs", '[{"id": "gzip"}]'],
        /--codecs item 0 must be a codec: an object with a string "name"/,
      ],
      [
        ["--zarr-format", "3", "--codecs", '[{"name": "gzip"}]'],
        /--codecs: an invalid "codecs\[0\]": the codec "gzip" is a bytes -> bytes codec/,
      ],
      [
        ["--zarr-format", "3", "--chunks", "2,2", "--shards", "3,4"],
        /--shards \[3, 4\] must be a multiple of --chunks \[2, 2\] .*dimension 0/,
      ],
      [["--zarr-format", "3", "--shards", "4,4"], /--shards needs --chunks/],
      [["--zarr-format", "3", "--shards", "4"], /--shards has 1 values, the array has 2 dimensions/],
      [["--zarr-format", "3", "--dimension-names", "a"], /--dimension-names has 1 names, the array has 2 dimensions/],
      [["--zarr-format", "3", "--chunk-key-encoding", "v3"], /--chunk-key-encoding must be default or v2, got "v3"/],
      [["--zarr-format", "3", "--separator", "-"], /--separator must be \/ or \., got "-"/],
      [["--zarr-format", "3", "--dtype", "int32", "--fill-value", '"x"'], /--fill-value/],
      [
        ["--zarr-format", "3", "--dtype", "float32", "--fill-value", '"0x7fc00001"'],
        /a NaN with a payload, a sign or a signalling bit cannot be created/,
      ],
      [["--zarr-format", "3", "--dtype", "float128"], /--dtype: /],
    ];
    for (const [flags, message] of cases) {
      const result = await create(...flags);
      expect(result, flags.join(" ")).toMatchObject({ code: 2, err: expect.stringMatching(message) });
    }
    // nothing was written on the way
    expect(await readdir(dir).catch(() => [])).toEqual([]);
  });
});

describe("zarr import --zarr-format 3", () => {
  it("imports a .npy file into the chunks and key encoding asked for", async () => {
    const dir = join(await tempDir(), "imported.zarr");
    const codecs =
      '[{"name": "transpose", "configuration": {"order": [1, 0]}}, {"name": "bytes", "configuration": {"endian": "big"}}, {"name": "gzip", "configuration": {"level": 5}}]';
    const result = await run([
      "import",
      join(NPY, "F-2d.npy"),
      dir,
      "--path",
      "x",
      "--zarr-format",
      "3",
      "--chunks",
      "2,3",
      "--codecs",
      codecs,
      "--fill-value",
      "-1",
      "--dimension-names",
      "y,x",
      "--chunk-key-encoding",
      "v2",
      "--separator",
      "/",
    ]);
    expect(result).toMatchObject({ code: 0, err: expect.stringContaining("x (Zarr v3): shape [3, 4], chunks [2, 3]") });
    expect(await zarrJson(dir, "x")).toEqual({
      shape: [3, 4],
      data_type: "int32",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 3] } },
      chunk_key_encoding: { name: "v2", configuration: { separator: "/" } },
      fill_value: -1,
      codecs: JSON.parse(codecs),
      attributes: {},
      dimension_names: ["y", "x"],
      zarr_format: 3,
      node_type: "array",
      storage_transformers: [],
    });
    expect(await keysBelow(join(dir, "x"))).toEqual(["0/0", "0/1", "1/0", "1/1", "zarr.json"]);
    expect((await run(["get", dir, "--path", "x"])).out).toBe(
      "array([[ 0,  1,  2,  3],\n       [ 4,  5,  6,  7],\n       [ 8,  9, 10, 11]], dtype=int32)\n",
    );
  });

  it("imports text as v3's string type", async () => {
    const dir = join(await tempDir(), "text.zarr");
    const file = join(await tempDir(), "text.json");
    await writeFile(
      file,
      JSON.stringify({ shape: [3], values: ["a", "bé", ""], dtype: "|O", object_codec: { id: "vlen-utf8" } }),
    );
    expect((await run(["import", file, dir, "--zarr-format", "3"])).code).toBe(0);
    expect(await zarrJson(dir, "")).toMatchObject({ data_type: "string", fill_value: "" });
    expect(JSON.parse((await run(["get", dir, "--json"])).out)).toMatchObject({ values: ["a", "bé", ""] });
  });
});

describe("TensorStore reads what zarr import --zarr-format 3 wrote", () => {
  requireTool("tensorstore", tensorstorePython !== undefined);

  it.each([
    ["the default chain and key encoding", ["--chunks", "2,3"]],
    [
      "a transpose, big-endian bytes, gzip and v2 keys",
      [
        "--chunks",
        "2,2",
        "--codecs",
        '[{"name": "transpose", "configuration": {"order": [1, 0]}}, {"name": "bytes", "configuration": {"endian": "big"}}, {"name": "gzip", "configuration": {"level": 5}}]',
        "--chunk-key-encoding",
        "v2",
      ],
    ],
    [
      "blosc and crc32c with dot keys",
      [
        "--chunks",
        "3,1",
        "--codecs",
        '[{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "blosc", "configuration": {"cname": "zstd", "clevel": 3, "shuffle": "shuffle", "typesize": 4, "blocksize": 0}}, {"name": "crc32c"}]',
        "--separator",
        ".",
      ],
    ],
  ])("%s", async (_, flags) => {
    const dir = join(await tempDir(), "ts.zarr");
    expect((await run(["import", join(NPY, "F-2d.npy"), dir, "--zarr-format", "3", ...flags])).code).toBe(0);
    const script = `
import json, sys, tensorstore as ts
a = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": sys.argv[1]}}).result()
print(json.dumps({"values": a.read().result().tolist(), "dims": list(a.domain.labels)}))`;
    const read = JSON.parse(execFileSync(tensorstorePython!, ["-c", script, dir], { encoding: "utf8" }));
    expect(read.values).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9, 10, 11],
    ]);
  });

  it("reads a sharded array z imported, shard by shard", async () => {
    const dir = join(await tempDir(), "sharded.zarr");
    const flags = ["--zarr-format", "3", "--chunks", "1,2", "--shards", "2,4"];
    expect((await run(["import", join(NPY, "F-2d.npy"), dir, ...flags])).code).toBe(0);
    expect(await keysBelow(dir)).toEqual(["c/0/0", "c/1/0", "zarr.json"]);
    const script = `
import json, sys, tensorstore as ts
a = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": sys.argv[1]}}).result()
print(json.dumps(a.read().result().tolist()))`;
    expect(JSON.parse(execFileSync(tensorstorePython!, ["-c", script, dir], { encoding: "utf8" }))).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9, 10, 11],
    ]);
  });

  it("names the dimensions as TensorStore labels them", async () => {
    const dir = join(await tempDir(), "named.zarr");
    await run(["import", join(NPY, "F-2d.npy"), dir, "--zarr-format", "3", "--dimension-names", "y,x"]);
    const script = `
import json, sys, tensorstore as ts
a = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": sys.argv[1]}}).result()
print(json.dumps(list(a.domain.labels)))`;
    expect(JSON.parse(execFileSync(tensorstorePython!, ["-c", script, dir], { encoding: "utf8" }))).toEqual(["y", "x"]);
  });
});

describe("zarr copy --zarr-format 3: a v2 hierarchy rewritten as v3 in a new layout", () => {
  const V2 = join(FIXTURES, "store");

  it("keeps every array's values, type, fill value and attributes, in the chunks and codecs asked for", async () => {
    const dest = join(await tempDir(), "rewritten.zarr");
    expect(await run(["copy", V2, dest, "--zarr-format", "3"])).toMatchObject({
      code: 0,
      err: `rewrote 12 arrays and 3 groups as Zarr v3 into ${dest}\n`,
    });
    for (const path of ["grp/a", "c", "nested", "s", "t", "u", "z0", "cx", "bo"]) {
      const before = JSON.parse((await run(["get", V2, "--path", path, "--json"])).out);
      expect(JSON.parse((await run(["get", dest, "--path", path, "--json"])).out), path).toEqual(before);
    }
    expect(await zarrJson(dest, "grp/a")).toMatchObject({
      data_type: "int32",
      fill_value: -1,
      chunk_grid: { configuration: { chunk_shape: [4, 5] } },
      codecs: DEFAULT_CODECS,
      attributes: { units: "m" },
    });
    expect(await zarrJson(dest, "")).toEqual({
      attributes: { title: "fixture", version: 1.0 },
      zarr_format: 3,
      node_type: "group",
    });
    const again = join(await tempDir(), "again.zarr");
    const codecs =
      '[{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "gzip", "configuration": {"level": 1}}]';
    expect(
      (await run(["copy", V2, again, "--path", "big", "--zarr-format", "3", "--chunks", "20,25", "--codecs", codecs]))
        .code,
    ).toBe(0);
    expect(await zarrJson(again, "big")).toMatchObject({
      chunk_grid: { configuration: { chunk_shape: [20, 25] } },
      codecs: JSON.parse(codecs),
    });
    expect((await keysBelow(join(again, "big"))).filter((k) => k.startsWith("c/"))).toEqual([
      "c/0/0",
      "c/0/1",
      "c/1/0",
      "c/1/1",
    ]);
    expect((await run(["get", again, "--path", "big", "--json"])).out).toBe(
      (await run(["get", V2, "--path", "big", "--json"])).out,
    );
  });

  it("--shards rechunks an array into shards of --chunks (create_array(shards=...)), values kept", async () => {
    const dest = join(await tempDir(), "sharded.zarr");
    const flags = ["--path", "big", "--zarr-format", "3", "--chunks", "10,25", "--shards", "20,50"];
    expect((await run(["copy", V2, dest, ...flags])).code).toBe(0);
    expect(await zarrJson(dest, "big")).toMatchObject({
      chunk_grid: { configuration: { chunk_shape: [20, 50] } },
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [10, 25], index_location: "end" } }],
    });
    expect((await run(["get", dest, "--path", "big", "--json"])).out).toBe(
      (await run(["get", V2, "--path", "big", "--json"])).out,
    );
    expect((await run(["validate", dest])).code).toBe(0);
  });

  it("refuses layouts that do not fit, before writing anything", async () => {
    const dest = join(await tempDir(), "bad.zarr");
    expect(await run(["copy", V2, dest, "--chunks", "2,2"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/a copy keeps the layout; rewrite it with --zarr-format 3/),
    });
    expect(await run(["copy", V2, dest, "--zarr-format", "2"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--zarr-format must be 3/),
    });
    expect(await run(["copy", V2, dest, "--zarr-format", "3", "--resume"])).toMatchObject({ code: 2 });
    expect(await run(["copy", V2, dest, "--zarr-format", "3", "--chunks", "2,2"])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/--chunks has 2 values, "b" has 1 dimensions/),
    });
    expect(
      await run(["copy", V2, dest, "--zarr-format", "3", "--path", "big", "--codecs", '[{"name": "zstd"}]']),
    ).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^zarr copy: --codecs: /),
    });
    expect(await readdir(dest).catch(() => [])).toEqual([]);
  });
});

describe("TensorStore reads a rewritten hierarchy", () => {
  requireTool("tensorstore", tensorstorePython !== undefined);

  it("opens each array with its zarr3 driver", async () => {
    const dest = join(await tempDir(), "rewritten.zarr");
    await run(["copy", join(FIXTURES, "store"), dest, "--zarr-format", "3", "--path", "grp"]);
    await run(["copy", join(FIXTURES, "store"), dest, "--zarr-format", "3", "--path", "big", "--chunks", "20,25"]);
    const script = `
import json, sys, tensorstore as ts
out = {}
for path in ["grp/a", "big"]:
    a = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": sys.argv[1]}, "path": path}).result()
    out[path] = a.read().result().ravel().tolist()
print(json.dumps(out))`;
    const read = JSON.parse(execFileSync(tensorstorePython!, ["-c", script, dest], { encoding: "utf8" }));
    for (const path of ["grp/a", "big"])
      expect(read[path], path).toEqual(
        JSON.parse((await run(["get", join(FIXTURES, "store"), "--path", path, "--json"])).out).values,
      );
  });
});
