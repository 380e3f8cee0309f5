import { describe, expect, it } from "vitest";
import { decodeJson } from "@z/meta";
import {
  create,
  full,
  group,
  MemoryStore,
  openArray,
  openGroup,
  zeros,
  empty,
  ones,
  array,
  zerosLike,
  fullLike,
} from "@z/core";

const text = async (store: MemoryStore, key: string): Promise<string | undefined> => {
  const bytes = await store.get(key);
  return bytes && new TextDecoder().decode(bytes);
};

describe("creating arrays", () => {
  it("writes the .zarray zarr-python writes for the same arguments", async () => {
    const store = new MemoryStore();
    // zarr.create((20,30), chunks=(10,10), dtype='<i4', store=..., dimension_separator='/', compressor=zarr.Zlib(1), order='F')
    await create({
      store,
      shape: [20, 30],
      chunks: [10, 10],
      dtype: "<i4",
      dimensionSeparator: "/",
      compressor: { id: "zlib", level: 1 },
      order: "F",
    });
    expect(await text(store, ".zarray")).toBe(
      '{\n    "chunks": [\n        10,\n        10\n    ],\n    "compressor": {\n        "id": "zlib",\n        "level": 1\n    },\n    "dimension_separator": "/",\n    "dtype": "<i4",\n    "fill_value": 0,\n    "filters": null,\n    "order": "F",\n    "shape": [\n        20,\n        30\n    ],\n    "zarr_format": 2\n}',
    );
  });

  it("uses zarr-python's defaults: fill 0, C order, blosc lz4, guessed chunks", async () => {
    const z = await create({ shape: [10000, 10000], dtype: "<f8" });
    expect(z.chunks).toEqual([313, 625]);
    expect([z.fillValue, z.order, z.compressor]).toEqual([
      0,
      "C",
      { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
    ]);
  });

  it("never compresses a 0-d array, as zarr-python", async () => {
    const z = await create({ shape: [], dtype: "<i4", compressor: { id: "zlib", level: 1 } });
    expect(z.compressor).toBeNull();
    expect(z.chunks).toEqual([]);
  });

  it("gives empty, zeros, ones and full their fill values", async () => {
    const opts = { shape: [4], compressor: null, dtype: "<f8" };
    expect((await empty(opts)).fillValue).toBeNull();
    expect((await zeros(opts)).fillValue).toBe(0);
    expect((await ones(opts)).fillValue).toBe(1);
    expect(Number.isNaN((await full({ ...opts, fillValue: NaN })).fillValue)).toBe(true);
  });

  it("creates every ancestor group of an array", async () => {
    const store = new MemoryStore();
    await create({ store, path: "a/b/c", shape: [3], compressor: null });
    expect(await text(store, ".zgroup")).toBe('{\n    "zarr_format": 2\n}');
    expect(await store.get("a/.zgroup")).toBeDefined();
    expect(await store.get("a/b/.zgroup")).toBeDefined();
    expect(await store.get("a/b/c/.zarray")).toBeDefined();
  });

  it("refuses to create over an existing array or group unless told to overwrite", async () => {
    const store = new MemoryStore();
    await create({ store, shape: [3], compressor: null });
    await expect(create({ store, shape: [3] })).rejects.toMatchObject({ code: "ZARR_EXISTS" });
    const other = new MemoryStore();
    await group({ store: other, path: "g" });
    await expect(create({ store: other, path: "g", shape: [3] })).rejects.toMatchObject({ code: "ZARR_EXISTS" });
    const z = await create({ store, shape: [5], compressor: null, overwrite: true });
    expect(z.shape).toEqual([5]);
  });

  it("overwrite removes the old array's chunks", async () => {
    const store = new MemoryStore();
    const z = await create({ store, shape: [6], chunks: [3], compressor: null });
    await z.set(undefined, 7);
    await create({ store, shape: [6], chunks: [3], compressor: null, overwrite: true });
    expect((await store.list()).sort()).toEqual([".zarray"]);
  });

  it("array() takes its shape and dtype from the data", async () => {
    const z = await array(new Int16Array([1, -2, 3]), { compressor: null });
    expect([z.shape, z.metadata.dtype]).toEqual([[3], { kind: "i", byteOrder: "<", itemsize: 2 }]);
    expect(Array.from((await z.get()).data as Int16Array)).toEqual([1, -2, 3]);
  });

  it("*Like functions copy shape, chunks, dtype, compressor and order", async () => {
    const a = await create({
      shape: [7, 3],
      chunks: [2, 3],
      dtype: ">u2",
      order: "F",
      compressor: { id: "zlib", level: 3 },
      fillValue: 5,
    });
    const b = await zerosLike(a);
    expect([b.shape, b.chunks, b.metadata.dtype, b.order, b.compressor, b.fillValue]).toEqual([
      [7, 3],
      [2, 3],
      a.metadata.dtype,
      "F",
      { id: "zlib", level: 3 },
      0,
    ]);
    expect((await fullLike(a)).fillValue).toBe(5);
  });
});

describe("opening arrays with a mode", () => {
  it("r and r+ need an existing array; r refuses writes", async () => {
    const store = new MemoryStore();
    await expect(openArray(store, { mode: "r" })).rejects.toMatchObject({ code: "ZARR_NOT_FOUND", key: ".zarray" });
    await create({ store, shape: [2], compressor: null });
    const ro = await openArray(store, { mode: "r" });
    await expect(ro.set(undefined, 1)).rejects.toMatchObject({ code: "ZARR_READ_ONLY" });
    await expect(ro.attrs.set("a", 1)).rejects.toMatchObject({ code: "ZARR_READ_ONLY" });
    const rw = await openArray(store, { mode: "r+" });
    await rw.set(undefined, 1);
  });

  it("a opens or creates; w replaces; w- fails when something is there", async () => {
    const store = new MemoryStore();
    const a = await openArray(store, { mode: "a", shape: [3], compressor: null });
    await a.set(undefined, 9);
    expect((await openArray(store, { mode: "a" })).shape).toEqual([3]);
    await expect(openArray(store, { mode: "w-", shape: [3] })).rejects.toMatchObject({ code: "ZARR_EXISTS" });
    const w = await openArray(store, { mode: "w", shape: [4], compressor: null });
    expect(Array.from((await w.get()).data as Float64Array)).toEqual([0, 0, 0, 0]);
  });

  it("reads an array's metadata once when opening it, asking for either format at once, and nothing else", async () => {
    const store = new MemoryStore();
    await create({ store, path: "a/b", shape: [4], dtype: "<i2" });
    const asked: string[] = [];
    const counting = {
      get: (key: string) => (asked.push(`get ${key}`), store.get(key)),
      has: async (key: string) => (asked.push(`has ${key}`), (await store.get(key)) !== undefined),
    };
    for (const mode of ["r", "r+", "a"] as const) {
      asked.length = 0;
      await openArray(counting, { path: "a/b", mode });
      // zarr.json (v3) and .zarray (v2) in one round trip, as zarr-python 3 asks for them.
      expect(asked, mode).toEqual(["get a/b/zarr.json", "get a/b/.zarray"]);
    }
  });

  it("reads a group's metadata once when opening it, either format's in one round trip", async () => {
    const store = new MemoryStore();
    await group({ store, path: "g" });
    const asked: string[] = [];
    const counting = { get: (key: string) => (asked.push(key), store.get(key)) };
    for (const mode of ["r", "r+", "a"] as const) {
      asked.length = 0;
      await openGroup(counting, { path: "g", mode });
      expect(asked, mode).toEqual(["g/zarr.json", "g/.zgroup"]);
    }
  });

  it("opening a group as an array names what is there", async () => {
    const store = new MemoryStore();
    await group({ store });
    await expect(openArray(store, { mode: "r" })).rejects.toMatchObject({ code: "ZARR_EXISTS" });
    await expect(openGroup(store, { mode: "r" })).resolves.toBeDefined();
  });

  it("reports invalid metadata with the key and the field", async () => {
    const store = new MemoryStore();
    await store.set(
      ".zarray",
      new TextEncoder().encode(
        '{"zarr_format": 2, "shape": [3], "chunks": [3], "dtype": "<f8", "compressor": null, "fill_value": 0, "order": "Q", "filters": null}',
      ),
    );
    await expect(openArray(store, { mode: "r" })).rejects.toMatchObject({
      code: "ZARR_METADATA",
      key: ".zarray",
      field: "order",
    });
    await store.set(".zarray", new TextEncoder().encode("{not json"));
    await expect(openArray(store, { mode: "r" })).rejects.toMatchObject({ code: "ZARR_METADATA", key: ".zarray" });
  });

  it("an unknown codec id fails at open, naming the id and the key", async () => {
    const store = new MemoryStore();
    await store.set(
      "x/.zarray",
      new TextEncoder().encode(
        '{"zarr_format": 2, "shape": [3], "chunks": [3], "dtype": "<f8", "compressor": {"id": "nosuch"}, "fill_value": 0, "order": "C", "filters": null}',
      ),
    );
    const err = await openArray(store, { mode: "r", path: "x" }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "ZARR_UNKNOWN_CODEC", key: "x/.zarray" });
    expect(String(err)).toContain("nosuch");
  });

  it("attributes are written as zarr-python writes .zattrs", async () => {
    const store = new MemoryStore();
    const z = await create({ store, shape: [1], compressor: null, attributes: { b: 1 } });
    await z.attrs.update({ a: NaN, c: [1.5, "é"] });
    expect(await z.attrs.asObject()).toEqual({ a: NaN, b: 1, c: [1.5, "é"] });
    expect(await text(store, ".zattrs")).toBe(
      '{\n    "a": NaN,\n    "b": 1,\n    "c": [\n        1.5,\n        "\\u00e9"\n    ]\n}',
    );
    expect(decodeJson((await store.get(".zattrs")) as Uint8Array, ".zattrs")).toMatchObject({ b: 1 });
  });
});
