/**
 * Zarr v3 arrays and groups, through the same engine as v2: what `create({ zarrFormat: 3 })`
 * writes (as zarr-python 3's `create_array`), reading and writing values, attributes kept in
 * `zarr.json`, groups, and finding either format. What TensorStore and zarrita write is checked in
 * apps/conformance; these are z's own behaviour.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  consolidateMetadata,
  copyAll,
  create,
  group,
  Group,
  MemoryStore,
  open,
  openArray,
  openConsolidated,
  openGroup,
  ZarrArray,
} from "@z/core";
import { WorkerPool } from "@z/core/node";

const text = async (store: MemoryStore, key: string): Promise<string | undefined> => {
  const bytes = await store.get(key);
  return bytes && new TextDecoder().decode(bytes);
};
const json = async (store: MemoryStore, key: string): Promise<unknown> => JSON.parse((await text(store, key))!);

const pool = new WorkerPool({ size: 1, minBytes: 0 });
afterAll(() => pool.close());

describe("creating v3 arrays", () => {
  it("writes the zarr.json zarr-python 3 writes for the same arguments", async () => {
    const store = new MemoryStore();
    // zarr.create_array(store, shape=(20, 30), chunks=(10, 10), dtype="int32")
    await create({ store, zarrFormat: 3, shape: [20, 30], chunks: [10, 10], dtype: "int32" });
    expect(await text(store, "zarr.json")).toBe(
      `{
  "shape": [
    20,
    30
  ],
  "data_type": "int32",
  "chunk_grid": {
    "name": "regular",
    "configuration": {
      "chunk_shape": [
        10,
        10
      ]
    }
  },
  "chunk_key_encoding": {
    "name": "default",
    "configuration": {
      "separator": "/"
    }
  },
  "fill_value": 0,
  "codecs": [
    {
      "name": "bytes",
      "configuration": {
        "endian": "little"
      }
    },
    {
      "name": "zstd",
      "configuration": {
        "level": 0,
        "checksum": false
      }
    }
  ],
  "attributes": {},
  "zarr_format": 3,
  "node_type": "array",
  "storage_transformers": []
}`,
    );
    expect(await store.get(".zarray")).toBeUndefined();
  });

  it("takes v2-style dtypes and compressors, one-byte types without an endian, and dimension names", async () => {
    const store = new MemoryStore();
    await create({
      store,
      zarrFormat: 3,
      shape: [4],
      dtype: "|u1",
      compressors: [{ id: "zlib", level: 1 }],
      dimensionNames: ["x"],
      fillValue: 7,
    });
    expect(await json(store, "zarr.json")).toMatchObject({
      data_type: "uint8",
      fill_value: 7,
      codecs: [{ name: "bytes" }, { name: "numcodecs.zlib", configuration: { level: 1 } }],
      dimension_names: ["x"],
    });
  });

  it("keeps a negative zero fill's sign, as zarr-python 3 (NumPy's cast) and TensorStore do", async () => {
    const store = new MemoryStore();
    // zarr-python 2.13 makes -0.0 the zero element (v2's create does too); v3 writers keep the sign.
    const z = await create({ store, zarrFormat: 3, shape: [2], dtype: "float32", fillValue: -0 });
    expect(await text(store, "zarr.json")).toContain('"fill_value": -0.0');
    expect(Object.is((await z.get()).data[0], -0)).toBe(true);
    const other = new MemoryStore();
    const c = await create({ store: other, zarrFormat: 3, shape: [1], dtype: "complex64", fillValue: -0 });
    expect(await text(other, "zarr.json")).toMatch(/"fill_value": \[\s*-0\.0,\s*0\.0\s*\]/);
    expect(Object.is((await c.get()).data[0], -0)).toBe(true);
  });

  it("creates missing parents as v3 groups", async () => {
    const store = new MemoryStore();
    await create({ store, zarrFormat: 3, path: "a/b", shape: [2], dtype: "float32" });
    // As zarr-python 3 writes a group without consolidated metadata (the member left out).
    expect(await json(store, "zarr.json")).toEqual({ attributes: {}, zarr_format: 3, node_type: "group" });
    expect(await json(store, "a/zarr.json")).toMatchObject({ node_type: "group" });
    expect(await store.get(".zgroup")).toBeUndefined();
  });
});

describe("reading and writing v3 arrays", () => {
  it("writes chunks under the default encoding's keys and reads them back, missing ones as the fill value", async () => {
    const store = new MemoryStore();
    const z = await create({ store, zarrFormat: 3, shape: [4, 6], chunks: [2, 3], dtype: "<i2", fillValue: -1 });
    expect(z.zarrFormat).toBe(3);
    await z.set([null, { kind: "slice", start: 0, stop: 3, step: 1 }], 5);
    expect((await store.list("c/")).sort()).toEqual(["c/0/0", "c/1/0"]);
    const all = await z.get();
    expect(Array.from(all.data as Int16Array)).toEqual([
      5, 5, 5, -1, -1, -1, 5, 5, 5, -1, -1, -1, 5, 5, 5, -1, -1, -1, 5, 5, 5, -1, -1, -1,
    ]);
    const pooled = await z.get(undefined, { pool });
    expect(pooled.data).toEqual(all.data);
  });

  it("keys chunks as v2 does with the v2 encoding", async () => {
    const store = new MemoryStore();
    const z = await create({
      store,
      zarrFormat: 3,
      shape: [2, 2],
      chunks: [1, 1],
      dtype: "uint8",
      chunkKeyEncoding: "v2",
    });
    await z.set(null, 1);
    expect((await store.list()).filter((k) => k !== "zarr.json").sort()).toEqual(["0.0", "0.1", "1.0", "1.1"]);
    expect(await z.nchunksInitialized()).toBe(4);
  });

  it("runs any chain: transpose, big-endian bytes, gzip and a checksum", async () => {
    const store = new MemoryStore();
    const z = await create({
      store,
      zarrFormat: 3,
      shape: [3, 5],
      chunks: [2, 4],
      dtype: "float64",
      codecs: [
        { name: "transpose", configuration: { order: [1, 0] } },
        { name: "bytes", configuration: { endian: "big" } },
        { name: "gzip", configuration: { level: 1 } },
        { name: "crc32c" },
      ],
    });
    const values = Float64Array.from({ length: 15 }, (_, i) => i / 4);
    await z.set(null, { data: values, shape: [3, 5] });
    const again = await openArray(store, { mode: "r" });
    expect((await again.get()).data).toEqual(values);
  });

  it("holds strings with vlen-utf8", async () => {
    const store = new MemoryStore();
    const z = await create({ store, zarrFormat: 3, shape: [3], chunks: [2], dtype: "string" });
    expect(await json(store, "zarr.json")).toMatchObject({
      data_type: "string",
      fill_value: "",
      codecs: [{ name: "vlen-utf8", configuration: {} }, { name: "zstd" }],
    });
    await z.set(null, { data: ["a", "bé", "ç"], shape: [3] });
    expect((await (await openArray(store, { mode: "r" })).get()).data).toEqual(["a", "bé", "ç"]);
  });

  it("resizes, keeping attributes another writer set since", async () => {
    const store = new MemoryStore();
    const z = await create({ store, zarrFormat: 3, shape: [4], chunks: [2], dtype: "int32", attributes: { a: 1 } });
    await z.set(null, 3);
    const other = await openArray(store, { mode: "r+" });
    await other.attrs.update({ b: 2 });
    await z.resize([2]);
    expect(await json(store, "zarr.json")).toMatchObject({ shape: [2], attributes: { a: 1, b: 2 } });
    expect(await store.get("c/1")).toBeUndefined();
    expect(await z.attrs.asObject()).toEqual({ a: 1, b: 2 });
  });
});

describe("attributes of v3 nodes", () => {
  it("live in zarr.json, which keeps the node's metadata", async () => {
    const store = new MemoryStore();
    const z = await create({ store, zarrFormat: 3, shape: [2], dtype: "uint8" });
    await z.attrs.set("units", "m");
    expect(await json(store, "zarr.json")).toMatchObject({ shape: [2], attributes: { units: "m" } });
    expect(await store.get(".zattrs")).toBeUndefined();
    const g = await group({ store: new MemoryStore(), zarrFormat: 3 });
    await g.attrs.put({ title: "t" });
    expect(await g.attrs.asObject()).toEqual({ title: "t" });
  });

  it("read as v2's are: floats another writer wrote (2.5, 1.0) as plain numbers", async () => {
    const store = new MemoryStore();
    const doc =
      '{"zarr_format": 3, "node_type": "group", "attributes": {"scale": [1, 2.5], "one": 1.0, "deep": {"e": 1e-7}}}';
    await store.set("zarr.json", new TextEncoder().encode(doc));
    const g = await openGroup(store, { mode: "r" });
    expect(await g.attrs.asObject()).toStrictEqual({ scale: [1, 2.5], one: 1, deep: { e: 1e-7 } });
    expect(await g.attrs.get("one")).toBe(1);
  });
});

describe("finding either format", () => {
  it("opens what is there, v3 where both are (as zarr-python 3), or the one zarrFormat names", async () => {
    const store = new MemoryStore();
    await create({ store, shape: [2], dtype: "<i4", fillValue: 2 });
    // A v3 document beside the v2 one, as `zarr migrate v3` leaves a store.
    const v3 = new MemoryStore();
    await create({ store: v3, zarrFormat: 3, shape: [3], dtype: "int32", fillValue: 3 });
    await store.set("zarr.json", (await v3.get("zarr.json"))!);
    expect((await openArray(store, { mode: "r" })).shape).toEqual([3]);
    expect((await openArray(store, { mode: "r", zarrFormat: 2 })).shape).toEqual([2]);
    const opened = await open(store, { mode: "r" });
    expect(opened).toBeInstanceOf(ZarrArray);
    expect((opened as ZarrArray).zarrFormat).toBe(3);
  });

  it("groups: creates members in their own format, lists them, and opens them", async () => {
    const store = new MemoryStore();
    const root = await group({ store, zarrFormat: 3 });
    expect(root.zarrFormat).toBe(3);
    const sub = await root.createGroup("sub");
    const a = await sub.createDataset("a", { shape: [2], dtype: "float32" });
    expect(a.zarrFormat).toBe(3);
    expect(await json(store, "sub/a/zarr.json")).toMatchObject({ node_type: "array", data_type: "float32" });
    expect(await root.groupKeys()).toEqual(["sub"]);
    expect(await sub.arrayKeys()).toEqual(["a"]);
    const reopened = await openGroup(store, { mode: "r", path: "sub" });
    expect(reopened).toBeInstanceOf(Group);
    expect(reopened.zarrFormat).toBe(3);
    expect(((await reopened.getItem("a")) as ZarrArray).zarrFormat).toBe(3);
  });

  it("an array's zarr.json is no group, and a group's no array", async () => {
    const store = new MemoryStore();
    await group({ store, zarrFormat: 3 });
    await expect(openArray(store, { mode: "r" })).rejects.toMatchObject({ code: "ZARR_EXISTS" });
    const other = new MemoryStore();
    await create({ store: other, zarrFormat: 3, shape: [1], dtype: "int8" });
    await expect(openGroup(other, { mode: "r" })).rejects.toMatchObject({ code: "ZARR_EXISTS" });
  });
});

describe("bad v3 metadata", () => {
  it("an unknown codec names itself and the document", async () => {
    const store = new MemoryStore();
    const z = await create({ store, zarrFormat: 3, shape: [1], dtype: "int8" });
    const doc = (await json(store, "zarr.json")) as { codecs: unknown[] };
    doc.codecs = [{ name: "bytes" }, { name: "no-such-codec" }];
    await store.set("zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
    expect(z.shape).toEqual([1]);
    await expect(openArray(store, { mode: "r" })).rejects.toMatchObject({
      code: "ZARR_UNKNOWN_CODEC",
      key: "zarr.json",
      message: expect.stringContaining("no-such-codec"),
    });
  });

  it("a zarr.json that is no object is a metadata error naming the key", async () => {
    const store = new MemoryStore();
    await store.set("a/zarr.json", new TextEncoder().encode("[1]"));
    await expect(openArray(store, { mode: "r", path: "a" })).rejects.toMatchObject({
      code: "ZARR_METADATA",
      key: "a/zarr.json",
    });
  });
});

describe("consolidated v3 metadata", () => {
  it("is inline in the root group's zarr.json, as zarr-python 3 writes it, and serves every node from there", async () => {
    const store = new MemoryStore();
    const root = await group({ store, zarrFormat: 3 });
    await root.attrs.set("title", "t");
    const a = await root.createDataset("g/a", { shape: [2], dtype: "int16", fillValue: 0 });
    await a.set(null, 4);
    await consolidateMetadata(store);
    const doc = (await json(store, "zarr.json")) as { consolidated_metadata: { kind: string; metadata: object } };
    expect(doc.consolidated_metadata.kind).toBe("inline");
    expect(Object.keys(doc.consolidated_metadata.metadata)).toEqual(["g", "g/a"]);
    // Every metadata request answered from the root's document: only the chunk is read from the store.
    const asked: string[] = [];
    const counting = { get: (key: string) => (asked.push(key), store.get(key)), list: (p?: string) => store.list(p) };
    const opened = (await openConsolidated(counting, { mode: "r" })) as Group;
    asked.length = 0;
    const again = (await opened.getItem("g/a")) as ZarrArray;
    expect(Array.from((await again.get()).data as Int16Array)).toEqual([4, 4]);
    expect(asked).toEqual(["g/a/c/0"]);
    expect(await opened.attrs.asObject()).toEqual({ title: "t" });
  });
});

describe("info of a v3 array", () => {
  it("says the format and lists the codecs, as zarr-python 3's info does", async () => {
    const z = await create({ store: new MemoryStore(), zarrFormat: 3, shape: [4], chunks: [2], dtype: "int16" });
    const info = await z.info();
    expect(info).toContain("Zarr format        : 3\n");
    expect(info).toContain('Codecs             : bytes(endian="little"), zstd(level=0, checksum=false)\n');
    expect(info).not.toContain("Compressor");
  });
});

describe("copying v3 arrays", () => {
  it("into a v3 group keeps their codecs, key encoding, names and types (strings too)", async () => {
    const source = await group({ store: new MemoryStore(), zarrFormat: 3 });
    const text = await source.createDataset("text", { shape: [2], dtype: "string" });
    await text.set(null, { data: ["x", "yz"], shape: [2] });
    const gz = await source.createDataset("gz", {
      shape: [4],
      chunks: [2],
      dtype: "int32",
      codecs: [
        { name: "bytes", configuration: { endian: "big" } },
        { name: "gzip", configuration: { level: 1 } },
      ],
      dimensionNames: ["t"],
      chunkKeyEncoding: "v2",
    });
    await gz.set(null, 7);
    const dest = await group({ store: new MemoryStore(), zarrFormat: 3 });
    await copyAll(source, dest);
    const copied = (await dest.getItem("gz")) as ZarrArray;
    expect(copied.metadata).toMatchObject({
      zarrFormat: 3,
      codecs: [
        { name: "bytes", configuration: { endian: "big" } },
        { name: "gzip", configuration: { level: 1 } },
      ],
      dimensionNames: ["t"],
      chunkKeys: { name: "v2" },
    });
    expect(Array.from((await copied.get()).data as Int32Array)).toEqual([7, 7, 7, 7]);
    expect((await ((await dest.getItem("text")) as ZarrArray).get()).data).toEqual(["x", "yz"]);
  });
});

describe("info of a node with both formats", () => {
  it("says it reads v3 and that a .zarray is there too", async () => {
    const store = new MemoryStore();
    await create({ store, shape: [2], dtype: "<i4" });
    const v3 = new MemoryStore();
    await create({ store: v3, zarrFormat: 3, shape: [2], dtype: "int32" });
    await store.set("zarr.json", (await v3.get("zarr.json"))!);
    const info = await (await openArray(store, { mode: "r" })).info();
    expect(info).toContain("Zarr format        : 3 (read as v3; .zarray beside it too)\n");
  });
});

describe("info of a sharded array", () => {
  it("shows the shard and inner chunk shapes and counts inner chunks, as zarr-python 3's nchunks_initialized", async () => {
    // zarr.create_array(store, shape=(8, 8), shards=(4, 8), chunks=(2, 2), dtype="uint8"); z[:4] = 1
    const z = await create({
      store: new MemoryStore(),
      zarrFormat: 3,
      shape: [8, 8],
      shards: [4, 8],
      chunks: [2, 2],
      dtype: "uint8",
    });
    await z.set([{ kind: "slice", start: 0, stop: 4, step: 1 }, null], 1);
    const info = await z.info();
    expect(info).toContain("Shard shape        : (4, 8)\n");
    expect(info).toContain("Chunk shape        : (2, 2)\n");
    // One of two shards stored, 8 inner chunks each.
    expect(info).toContain("Chunks initialized : 8/16\n");
  });
});
