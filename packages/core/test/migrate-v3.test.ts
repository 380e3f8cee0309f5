/**
 * `migrateToV3` and `removeMetadata` (zarr-python 3's `zarr migrate v3` and `zarr remove-metadata`)
 * on a v2 hierarchy zarr-python 2.13 wrote (test/python/migrate_v3.py). The zarr.json documents are
 * the ones zarr-python 3's own tests expect (tests/test_cli/test_migrate_v3.py); zarr-python 2.13
 * still reads the store afterwards, also after a migration stopped part way; TensorStore's zarr3
 * driver reads the migrated arrays through their zarr.json.
 */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  arrayMetadataV3FromV2,
  create,
  migrateToV3,
  openArray,
  removeMetadata,
  MemoryStore,
  type CreateOptions,
  type MigratedDocument,
} from "@z/core";
import { parseArrayMetadata, parseJson, type JsonValue } from "@z/meta";
import { TempStore } from "@z/store-fs";
import { requireTool, pythonImports, SYSTEM_PYTHON, tensorstorePython } from "../../../scripts/test-child/tools.js";

const SCRIPT = new URL("./python/migrate_v3.py", import.meta.url).pathname;
const hasZarr2 = pythonImports(SYSTEM_PYTHON, "zarr, numcodecs, numpy");
const ATTRS = { baz: 42, qux: [1, 4, 7, 12] };

let store: TempStore;
beforeEach(() => {
  store = new TempStore();
});
afterEach(async () => {
  await store.close();
});

/** The v2 hierarchy of test/python/migrate_v3.py, written by zarr-python 2.13. */
const makeV2 = (): void => void execFileSync(SYSTEM_PYTHON, [SCRIPT, "make", store.root]);
/** Every node as zarr-python 2.13 reads it. */
const readWithZarr2 = (): Record<string, { attrs: JsonValue; values?: JsonValue[] }> =>
  JSON.parse(execFileSync(SYSTEM_PYTHON, [SCRIPT, "read", store.root], { encoding: "utf8" }));
const zarrJson = async (path: string): Promise<JsonValue> =>
  parseJson(await readFile(join(store.root, path, "zarr.json")));

describe("migrating a hierarchy zarr-python 2.13 wrote", () => {
  requireTool("zarr-python", hasZarr2);

  it("writes the zarr.json zarr-python 3 writes for an array (test_migrate_array)", async () => {
    makeV2();
    await migrateToV3(store);
    expect(await zarrJson("array_0")).toEqual({
      shape: [10, 10],
      data_type: "uint16",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [5, 5] } },
      chunk_key_encoding: { name: "v2", configuration: { separator: "." } },
      fill_value: 2,
      codecs: [
        { name: "bytes", configuration: { endian: "little" } },
        { name: "blosc", configuration: { typesize: 2, cname: "zstd", clevel: 3, shuffle: "shuffle", blocksize: 0 } },
      ],
      attributes: ATTRS,
      zarr_format: 3,
      node_type: "array",
      storage_transformers: [],
    });
    // as zarr-python 3 writes it: json.dumps(indent=2), members in its order
    const text = await readFile(join(store.root, "array_0/zarr.json"), "utf8");
    expect(text.split("\n").slice(0, 3)).toEqual(["{", '  "shape": [', "    10,"]);
    expect(Object.keys((await zarrJson("array_0")) as object)).toEqual([
      "shape",
      "data_type",
      "chunk_grid",
      "chunk_key_encoding",
      "fill_value",
      "codecs",
      "attributes",
      "zarr_format",
      "node_type",
      "storage_transformers",
    ]);
    // test_migrate_group
    expect(await zarrJson("")).toEqual({ attributes: ATTRS, zarr_format: 3, node_type: "group" });
  });

  it("converts each codec as zarr-python 3 does", async () => {
    makeV2();
    await migrateToV3(store);
    const codecs = async (path: string) => ((await zarrJson(path)) as { codecs: JsonValue }).codecs;
    const little = { name: "bytes", configuration: { endian: "little" } };
    // test_migrate_compressor: zstd and gzip become v3's own codecs
    expect(await codecs("group_1/array_1")).toEqual([
      little,
      { name: "zstd", configuration: { level: 3, checksum: false } },
    ]);
    // test_migrate_C_vs_F_order: F order is a transpose reversing the axes
    expect(await codecs("group_1/group_2/array_2")).toEqual([
      { name: "transpose", configuration: { order: [1, 0] } },
      little,
      { name: "gzip", configuration: { level: 3 } },
    ]);
    // test_migrate_numcodecs_compressor: the config numcodecs gives, without its id
    expect(await codecs("lzma")).toEqual([
      little,
      {
        name: "numcodecs.lzma",
        configuration: {
          format: 3,
          check: -1,
          preset: null,
          filters: [
            { id: 3, dist: 4 },
            { id: 33, preset: 1 },
          ],
        },
      },
    ]);
    // test_migrate_filter
    expect(await codecs("delta")).toEqual([
      { name: "numcodecs.delta", configuration: { dtype: "<u2", astype: "<u2" } },
      little,
    ]);
    // test_migrate_endian: no byte order for one byte; a big-endian dtype's is big
    expect(await codecs("uint8")).toEqual([{ name: "bytes" }]);
    expect(await codecs("big")).toEqual([
      { name: "bytes", configuration: { endian: "big" } },
      { name: "numcodecs.zlib", configuration: { level: 1 } },
    ]);
    expect(await zarrJson("big")).toMatchObject({ data_type: "int32", fill_value: -1 });
  });

  it("keeps the chunks where they are: the v2 key encoding with each array's separator", async () => {
    makeV2();
    await migrateToV3(store);
    expect(await zarrJson("group_1/array_1")).toMatchObject({
      chunk_key_encoding: { name: "v2", configuration: { separator: "/" } },
    });
    const zarr2 = readWithZarr2();
    for (const path of ["array_0", "group_1/array_1", "group_1/group_2/array_2", "lzma", "delta", "uint8", "big"]) {
      const array = await openArray(store, { path, mode: "r", zarrFormat: 3 });
      expect(array.zarrFormat).toBe(3);
      const values = Array.from((await array.get(null)).data as ArrayLike<number>, (v) => (Number.isNaN(v) ? null : v));
      expect(values, path).toEqual(zarr2[path]!.values);
    }
    // a v2 null fill reads as zarr-python 3 reads it: the type's default, 0
    expect(await zarrJson("nullfill")).toMatchObject({ fill_value: 0.0 });
  });

  it("writes members before their group and the start last; zarr-python 2.13 reads the store as before", async () => {
    makeV2();
    const before = readWithZarr2();
    const written: string[] = [];
    await migrateToV3(store, { onDocument: (d) => written.push(d.key) });
    expect(written).toEqual([
      "array_0/zarr.json",
      "big/zarr.json",
      "delta/zarr.json",
      "group_1/array_1/zarr.json",
      "group_1/group_2/array_2/zarr.json",
      "group_1/group_2/zarr.json",
      "group_1/zarr.json",
      "lzma/zarr.json",
      "nullfill/zarr.json",
      "uint8/zarr.json",
      "zarr.json",
    ]);
    expect(readWithZarr2()).toEqual(before);
    // each v2 document is as it was: the group's attributes are in both formats now
    expect(parseJson(await readFile(join(store.root, ".zattrs")))).toEqual(ATTRS);
  });

  it("leaves a store zarr-python 2.13 reads when it is stopped part way", async () => {
    makeV2();
    const before = readWithZarr2();
    const controller = new AbortController();
    let documents = 0;
    await expect(
      migrateToV3(store, {
        signal: controller.signal,
        onDocument: () => {
          if (++documents === 4) controller.abort(new Error("stopped"));
        },
      }),
    ).rejects.toThrow("stopped");
    expect(documents).toBe(4);
    expect(readWithZarr2()).toEqual(before);
    // the start has no zarr.json yet: zarr-python 3 and z still read the hierarchy as v2
    expect(await store.get("zarr.json")).toBeUndefined();
    // run again: the documents already there are refused, unless overwritten
    await expect(migrateToV3(store)).rejects.toMatchObject({ code: "ZARR_MIGRATION", key: "array_0/zarr.json" });
    const removed: string[] = [];
    await migrateToV3(store, { overwrite: true, onRemove: (key) => removed.push(key) });
    expect(removed).toHaveLength(4);
    expect(await zarrJson("")).toMatchObject({ node_type: "group" });
  });

  it("says what it would write, and writes nothing, in a dry run", async () => {
    makeV2();
    const docs: MigratedDocument[] = await migrateToV3(store, { dryRun: true });
    expect(docs.map((d) => d.key)).toContain("group_1/zarr.json");
    expect(JSON.parse(docs.find((d) => d.key === "group_1/zarr.json")!.text)).toEqual({
      attributes: ATTRS,
      zarr_format: 3,
      node_type: "group",
    });
    expect((await store.list()).filter((k) => k.endsWith("zarr.json"))).toEqual([]);
  });

  it("migrates a sub-group alone, or into another store (test_migrate_sub_group, ..._separate_location)", async () => {
    makeV2();
    await migrateToV3(store, { path: "group_1" });
    expect((await store.list()).filter((k) => k.endsWith("zarr.json")).sort()).toEqual([
      "group_1/array_1/zarr.json",
      "group_1/group_2/array_2/zarr.json",
      "group_1/group_2/zarr.json",
      "group_1/zarr.json",
    ]);
    const output = new MemoryStore();
    await migrateToV3(store, { path: "group_1/group_2", output });
    expect((await output.list()).sort()).toEqual(["array_2/zarr.json", "zarr.json"]);
    await expect(migrateToV3(store, { path: "group_1/group_2", output })).rejects.toThrow(/output store is not empty/);
  });

  it("removes one format's metadata only where the other's is there (test_remove_metadata_*)", async () => {
    makeV2();
    await expect(removeMetadata(store, 2)).rejects.toMatchObject({
      code: "ZARR_MIGRATION",
      message: expect.stringMatching(/^cannot remove v2 metadata at \.zattrs: no v3 metadata exists there/),
    });
    await migrateToV3(store);
    expect(await removeMetadata(store, 2, { dryRun: true })).toContain("group_1/.zgroup");
    expect(await store.get(".zgroup")).toBeDefined();
    const removed = await removeMetadata(store, 2);
    expect(removed.filter((k) => k.endsWith(".zarray"))).toHaveLength(8);
    const keys = await store.list();
    expect(keys.filter((k) => /(^|\/)\.z/.test(k))).toEqual([]);
    // what is left is a v3 store of the same chunks
    const array = await openArray(store, { path: "group_1/array_1", mode: "r" });
    expect((await array.get([9, 9])).data).toEqual(new Uint16Array([297]));
    await expect(removeMetadata(store, 3)).rejects.toThrow(/no v2 metadata exists there/);
    expect((await removeMetadata(store, 3, { force: true })).length).toBe(11);
  });
});

describe("what zarr-python 3 cannot migrate", () => {
  const v2 = async (options: Omit<CreateOptions, "shape" | "store">) => {
    const memory = new MemoryStore();
    await create({ store: memory, shape: [10], chunks: [5], dtype: "<u2", ...options });
    return memory;
  };

  it("refuses a codec it has no v3 codec for, or one of the wrong kind, naming it", async () => {
    const categorize = await v2({ filters: [{ id: "categorize", labels: ["a", "b"], dtype: "<U1", astype: "|u1" }] });
    await expect(migrateToV3(categorize)).rejects.toMatchObject({
      code: "ZARR_MIGRATION",
      codecId: "categorize",
      message: expect.stringContaining("Couldn't find corresponding zarr.codecs.numcodecs codec for categorize"),
    });
    const zstdFilter = await v2({ filters: [{ id: "zstd", level: 3 }] });
    await expect(migrateToV3(zstdFilter)).rejects.toThrow(/Filter Zstd is not an ArrayArrayCodec/);
    const deltaCompressor = await v2({ compressor: { id: "delta", dtype: "<u2" } });
    await expect(migrateToV3(deltaCompressor)).rejects.toThrow(/Compressor Delta is not a BytesBytesCodec/);
    // nothing was written
    expect((await deltaCompressor.list()).filter((k) => k.endsWith("zarr.json"))).toEqual([]);
  });

  it("refuses a node that is v3 already, or not there", async () => {
    const memory = new MemoryStore();
    await create({ zarrFormat: 3, store: memory, shape: [4], chunks: [2], dtype: "uint8" });
    await expect(migrateToV3(memory)).rejects.toThrow(/only arrays and groups with Zarr v2 metadata can be migrated/);
    await expect(migrateToV3(new MemoryStore())).rejects.toThrow(/no Zarr v2 array or group at the root/);
  });

  it("refuses an object array: zarr-python 3 finds no v3 codec for its object codec", async () => {
    const strings = new MemoryStore();
    await create({ store: strings, shape: [2], dtype: "str" });
    await expect(migrateToV3(strings)).rejects.toThrow(
      /Couldn't find corresponding zarr.codecs.numcodecs codec for vlen-utf8/,
    );
  });

  it("refuses blosc's automatic shuffle, which zarr-python 3's BloscShuffle.from_int refuses", async () => {
    const meta = parseArrayMetadata(
      JSON.stringify({
        zarr_format: 2,
        shape: [4],
        chunks: [2],
        dtype: "<i4",
        compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: -1, blocksize: 0 },
        fill_value: 0,
        order: "C",
        filters: null,
      }),
    );
    await expect(arrayMetadataV3FromV2(meta, { separator: "." })).rejects.toThrow(/Value must be between 0 and 2/);
  });
});

describe("TensorStore reads the migrated arrays", () => {
  requireTool("tensorstore", tensorstorePython !== undefined);
  requireTool("zarr-python", hasZarr2);

  /** Each array read with TensorStore's `driver` (`zarr3` through zarr.json, `zarr` through .zarray), or its error. */
  const readWithTensorStore = (driver: "zarr" | "zarr3", paths: readonly string[]): Record<string, JsonValue> => {
    const script = `
import json, sys, numpy as np, tensorstore as ts
out = {}
for path in sys.argv[3:]:
    try:
        a = ts.open({"driver": sys.argv[1], "kvstore": {"driver": "file", "path": sys.argv[2]}, "path": path}).result()
        v = a.read().result().ravel().tolist()
        out[path] = [None if isinstance(x, float) and np.isnan(x) else x for x in v]
    except ValueError as e:
        out[path] = str(e).split(" [source")[0]
print(json.dumps(out))
`;
    return JSON.parse(
      execFileSync(tensorstorePython!, ["-c", script, driver, store.root, ...paths], { encoding: "utf8" }),
    );
  };
  const PATHS = ["array_0", "group_1/array_1", "group_1/group_2/array_2", "uint8", "nullfill", "big"];

  it("opens each with its zarr3 driver and reads what zarr-python 2.13 reads", async () => {
    makeV2();
    await migrateToV3(store);
    const zarr2 = readWithZarr2();
    const read = readWithTensorStore("zarr3", PATHS);
    for (const path of ["array_0", "group_1/array_1", "group_1/group_2/array_2", "uint8"])
      expect(read[path], path).toEqual(zarr2[path]!.values);
    // the chunks zarr-python 2.13 left unwritten read as the v3 fill value, 0
    expect(read.nullfill).toEqual([0.5, 1.5, 0, 0]);
    // TensorStore registers v3's own codecs only, not zarr-python 3's numcodecs.* ones
    expect(read.big).toMatch(/"numcodecs.zlib" is not registered/);
  });

  it("reads a migration stopped part way through the v2 metadata, with its zarr driver", async () => {
    makeV2();
    const before = readWithTensorStore("zarr", PATHS);
    const controller = new AbortController();
    let documents = 0;
    const onDocument = () => {
      if (++documents === 2) controller.abort(new Error("stopped"));
    };
    await expect(migrateToV3(store, { signal: controller.signal, onDocument })).rejects.toThrow("stopped");
    expect(await store.get("array_0/zarr.json")).toBeDefined();
    expect(readWithTensorStore("zarr", PATHS)).toEqual(before);
    expect(before.big).toEqual([1, -2, 3, -400000, -1]);
  });
});
