// Datasets in Zarr v3 stores, as xarray on zarr-python 3 writes and reads them. xarray here is
// Debian's 2023.01 on zarr-python 2.13, which knows no v3, so the layout is taken from the sources
// (xarray's xarray/backends/zarr.py and conventions.py at b1c1dc549, zarr-python 3's
// src/zarr/core/array.py and metadata/v3.py at d44f9f92a): each array's dimensions in its
// `dimension_names`, attributes all the user's, a float's Zarr fill_value NaN with its `_FillValue`
// attribute the base64 of a little-endian double (FillValueCoder), the Zarr fill_value no mask
// (use_zarr_fill_value_as_mask is False for v3), the codecs reported as zarr-python 3's Array
// splits them, and the metadata consolidated inline in the root group's zarr.json.
import { join } from "node:path";
import { create, MemoryStore, openGroup } from "@z/core";
import { parseJson, type JsonValue, type Store } from "@z/meta";
import { parseArrayMetadataV3 } from "@z/meta/v3";
import { DirectoryStore } from "@z/store-fs";
import { describe, expect, it } from "vitest";
import { createDataset, DatasetError, openDataset, toZarr } from "../src/index.js";
import { codecEncodingV3 } from "../src/zarr-v3.js";
import { caseNames, comparable, FIXTURES, openOptions, readCase } from "./expected.js";

const NAN_FILL = "AAAAAAAA+H8="; // base64 of NaN as a little-endian double: FillValueCoder.encode(nan)
const ZSTD = { name: "zstd", configuration: { level: 0, checksum: false } };
const BYTES_LE = { name: "bytes", configuration: { endian: "little" } };

const documentOf = async (store: Store, key: string): Promise<Record<string, JsonValue>> =>
  parseJson((await store.get(key))!) as Record<string, JsonValue>;

/**
 * A store in the layout xarray's `to_zarr(zarr_format=3)` leaves: a group with the dataset's
 * attributes, `t2m` packed into int16 (scale_factor, add_offset, an int `_FillValue` attribute,
 * fill_value 0, zarr-python 3's default), `lat` a float64 coordinate (fill_value NaN, `_FillValue`
 * base64), `time` days since 2000 as int64 (fill_value 0, which is 2000-01-01 and no mask), a
 * vlen-utf8 `station` and a `bool` flag.
 */
async function xarrayV3Store(): Promise<MemoryStore> {
  const store = new MemoryStore();
  const root = await openGroup(store, { mode: "w", zarrFormat: 3 });
  await root.attrs.put({ title: "v3 test" });
  const array = async (path: string, options: Record<string, unknown>, data: unknown): Promise<void> => {
    const a = await create({ zarrFormat: 3, store, path, ...options } as never);
    await a.set("...", data as never);
  };
  await array(
    "t2m",
    {
      shape: [3, 2],
      chunks: [3, 2],
      dtype: "int16",
      dimensionNames: ["time", "lat"],
      attributes: { _FillValue: -32767, scale_factor: 0.01, add_offset: 273.15, units: "K" },
    },
    { data: Int16Array.of(-2315, -1315, -32767, 685, 0, -27315), shape: [3, 2] },
  );
  await array(
    "lat",
    {
      shape: [2],
      chunks: [2],
      dtype: "float64",
      fillValue: NaN,
      dimensionNames: ["lat"],
      attributes: { _FillValue: NAN_FILL, units: "degrees_north" },
    },
    { data: Float64Array.of(45, 30), shape: [2] },
  );
  await array(
    "time",
    {
      shape: [3],
      chunks: [3],
      dtype: "int64",
      dimensionNames: ["time"],
      attributes: { units: "days since 2000-01-01", calendar: "proleptic_gregorian" },
    },
    { data: BigInt64Array.of(0n, 1n, 2n), shape: [3] },
  );
  await array(
    "station",
    { shape: [2], chunks: [2], dtype: "string", dimensionNames: ["lat"], attributes: {} },
    { data: ["north", "south"], shape: [2] },
  );
  await array(
    "flag",
    { shape: [3], chunks: [3], dtype: "bool", dimensionNames: ["time"], attributes: {} },
    { data: Uint8Array.of(1, 0, 1), shape: [3] },
  );
  return store;
}

describe("reading a v3 store as xarray on zarr-python 3 reads it", () => {
  it("has the layout xarray writes (zarr-python 3's create_array defaults)", async () => {
    const store = await xarrayV3Store();
    expect(await documentOf(store, "lat/zarr.json")).toEqual({
      zarr_format: 3,
      node_type: "array",
      shape: [2],
      data_type: "float64",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: "NaN",
      codecs: [BYTES_LE, ZSTD],
      attributes: { _FillValue: NAN_FILL, units: "degrees_north" },
      dimension_names: ["lat"],
      storage_transformers: [],
    });
    expect((await documentOf(store, "station/zarr.json")).codecs).toEqual([
      { name: "vlen-utf8", configuration: {} },
      ZSTD,
    ]);
  });

  it("takes dimensions from dimension_names and keeps every attribute", async () => {
    const ds = await openDataset(await xarrayV3Store());
    expect([...ds.variables.keys()]).toEqual(["flag", "lat", "station", "t2m", "time"]);
    expect(ds.sizes).toEqual({ time: 3, lat: 2 });
    expect(ds.coords).toEqual(["lat", "time"]);
    expect(ds.attrs).toEqual({ title: "v3 test" });
    expect(ds.get("t2m").dims).toEqual(["time", "lat"]);
    expect(ds.get("lat").attrs).toEqual({ units: "degrees_north" });
  });

  it("masks by the _FillValue attribute only: the Zarr fill_value is kept in encoding", async () => {
    const ds = await openDataset(await xarrayV3Store());
    const t2m = ds.get("t2m");
    expect(t2m.dtype).toBe("float32");
    expect(t2m.encoding).toMatchObject({ _FillValue: -32767, scale_factor: 0.01, add_offset: 273.15, fill_value: 0 });
    const values = Array.from((await t2m.values()).data as Float32Array);
    expect(values.map((v) => (Number.isNaN(v) ? "NaN" : Math.round(v * 100) / 100))).toEqual([
      250,
      260,
      "NaN",
      280,
      273.15,
      0,
    ]);
    // time 0 is 2000-01-01, not missing: zeros are the fill_value, which does not mask in v3.
    const time = await ds.get("time").values();
    expect(time.dtype).toBe("datetime64[ns]");
    expect(Array.from(time.data as BigInt64Array)).toEqual([
      946684800000000000n,
      946771200000000000n,
      946857600000000000n,
    ]);
    expect(ds.get("lat").encoding).toMatchObject({ _FillValue: NaN, fill_value: NaN });
  });

  it("reports codecs as zarr-python 3's Array: filters, serializer, compressors, chunks, shards", async () => {
    const ds = await openDataset(await xarrayV3Store());
    expect(comparable(ds.get("lat").encoding)).toEqual(
      comparable({
        chunks: [2],
        preferred_chunks: { lat: 2 },
        shards: null,
        filters: [],
        serializer: BYTES_LE,
        compressors: [ZSTD],
        fill_value: NaN,
        _FillValue: NaN,
        dtype: "float64",
      }),
    );
    expect(ds.get("station").encoding).toMatchObject({
      serializer: { name: "vlen-utf8", configuration: {} },
      compressors: [ZSTD],
    });
    expect((await ds.get("station").values()).data).toEqual(["north", "south"]);
    expect((await ds.get("flag").values()).dtype).toBe("bool");
  });

  it("gives a sharded array's inner codecs, its inner chunks as chunks and its shard shape as shards", () => {
    const meta = parseArrayMetadataV3({
      zarr_format: 3,
      node_type: "array",
      shape: [100, 80],
      data_type: "int16",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [50, 40] } },
      chunk_key_encoding: { name: "default" },
      fill_value: 0,
      codecs: [
        {
          name: "sharding_indexed",
          configuration: {
            chunk_shape: [10, 20],
            codecs: [{ name: "transpose", configuration: { order: [1, 0] } }, BYTES_LE, ZSTD],
            index_codecs: [BYTES_LE, { name: "crc32c" }],
            index_location: "end",
          },
        },
      ],
    });
    expect(codecEncodingV3(meta)).toEqual({
      chunks: [10, 20],
      shards: [50, 40],
      filters: [{ name: "transpose", configuration: { order: [1, 0] } }],
      serializer: BYTES_LE,
      compressors: [ZSTD],
    });
  });

  it("uses the metadata consolidated inline in the root zarr.json, as zarr-python 3's open_consolidated", async () => {
    const store = new MemoryStore();
    await toZarr(createDataset({ dataVars: { x: { dims: "i", data: Float32Array.of(1, 2, 3) } } }), store, {
      zarrFormat: 3,
    });
    // The arrays' own zarr.json gone, the inline copies are all there is.
    await store.delete("x/zarr.json");
    const ds = await openDataset(store, { consolidated: true });
    expect(Array.from((await ds.get("x").values()).data as Float32Array)).toEqual([1, 2, 3]);
    expect((await openDataset(store, { consolidated: false })).variables.size).toBe(0);
  });

  it("refuses an array without dimension_names, naming it", async () => {
    const store = new MemoryStore();
    await openGroup(store, { mode: "w", zarrFormat: 3 });
    await create({ zarrFormat: 3, store, path: "nameless", shape: [2], chunks: [2], dtype: "uint8" });
    await expect(openDataset(store)).rejects.toThrow(DatasetError);
    await expect(openDataset(store)).rejects.toThrow(/nameless: no dimension_names.*nameless\/zarr\.json/);
  });
});

describe("toZarr({ zarrFormat: 3 }) writes as xarray's to_zarr(zarr_format=3)", () => {
  const dataset = () =>
    createDataset({
      coords: { lat: { dims: "lat", data: Float64Array.of(60, 45) } },
      dataVars: {
        t: {
          dims: ["time", "lat"],
          data: Float32Array.of(1.5, NaN, 2.5, 3.5),
          shape: [2, 2],
          attrs: { units: "K" },
          encoding: { chunks: [1, 2] },
        },
        ok: { dims: "time", data: [true, false] },
        n: { dims: "time", data: Int32Array.of(7, 8), encoding: { compressors: [], fill_value: -1 } },
      },
      attrs: { source: "z" },
    });

  it("names dimensions in dimension_names, gives floats a NaN fill_value and a base64 _FillValue, keeps booleans", async () => {
    const store = new MemoryStore();
    await toZarr(dataset(), store, { zarrFormat: 3 });
    const t = await documentOf(store, "t/zarr.json");
    expect(t).toMatchObject({
      zarr_format: 3,
      node_type: "array",
      data_type: "float32",
      shape: [2, 2],
      chunk_grid: { name: "regular", configuration: { chunk_shape: [1, 2] } },
      fill_value: "NaN",
      codecs: [BYTES_LE, ZSTD],
      dimension_names: ["time", "lat"],
      attributes: { units: "K", _FillValue: NAN_FILL },
    });
    expect(await documentOf(store, "ok/zarr.json")).toMatchObject({
      data_type: "bool",
      fill_value: false,
      dimension_names: ["time"],
      attributes: {},
    });
    expect(await documentOf(store, "n/zarr.json")).toMatchObject({
      data_type: "int32",
      fill_value: -1,
      codecs: [BYTES_LE],
      dimension_names: ["time"],
    });
    const root = await documentOf(store, "zarr.json");
    expect(root).toMatchObject({ zarr_format: 3, node_type: "group", attributes: { source: "z" } });
    const inline = (root.consolidated_metadata as { kind: string; metadata: Record<string, JsonValue> }) ?? {};
    expect(inline.kind).toBe("inline");
    expect(Object.keys(inline.metadata).sort()).toEqual(["lat", "n", "ok", "t"]);
    expect(await store.get(".zmetadata")).toBeUndefined();
    for (const key of await store.list("")) expect(key).not.toMatch(/\.z(array|attrs|group)$/);
  });

  it("reads back what it wrote, values and encoding", async () => {
    const store = new MemoryStore();
    await toZarr(dataset(), store, { zarrFormat: 3 });
    const ds = await openDataset(store);
    expect(ds.coords).toEqual(["lat"]);
    expect(ds.attrs).toEqual({ source: "z" });
    expect(Array.from((await ds.get("t").values()).data as Float32Array)).toEqual([1.5, NaN, 2.5, 3.5]);
    expect((await ds.get("ok").values()).dtype).toBe("bool");
    expect(ds.get("n").encoding).toMatchObject({ fill_value: -1, compressors: [], chunks: [2] });
    expect(ds.get("t").encoding).toMatchObject({ chunks: [1, 2], preferred_chunks: { time: 1, lat: 2 } });
    // Written again from what was read: the same documents.
    const again = new MemoryStore();
    await toZarr(ds, again, { zarrFormat: 3 });
    for (const name of ["t", "ok", "n", "lat"])
      expect(await documentOf(again, `${name}/zarr.json`), name).toEqual(await documentOf(store, `${name}/zarr.json`));
  });

  it("leaves a v2 object codec out of a v3 array's filters: the serializer encodes the strings", async () => {
    const v2 = new MemoryStore();
    await openGroup(v2, { mode: "w" });
    const a = await create({
      store: v2,
      path: "s",
      shape: [2],
      chunks: [2],
      dtype: "|O",
      objectCodec: { id: "vlen-utf8" },
      attributes: { _ARRAY_DIMENSIONS: ["i"] },
    });
    await a.set("...", { data: ["a", "bc"], shape: [2] } as never);
    const ds = await openDataset(v2, { decodeCF: false });
    expect(ds.get("s").encoding.filters).toEqual([{ id: "vlen-utf8" }]);
    const store = new MemoryStore();
    await toZarr(ds, store, { zarrFormat: 3 });
    expect((await documentOf(store, "s/zarr.json")).codecs).toEqual([{ name: "vlen-utf8", configuration: {} }, ZSTD]);
    expect((await (await openDataset(store)).get("s").values()).data).toEqual(["a", "bc"]);
  });

  // Every dataset xarray 2023.01 wrote and could write back (as to-zarr.test.ts takes them: times,
  // packing, cftime calendars, coordinates, ...), written as v3 and read back: the same values.
  for (const name of caseNames()) {
    const expected = readCase(name);
    if ((expected as unknown as { rewrite: { documents?: unknown } }).rewrite.documents === undefined) continue;
    it(`round-trips fixture ${name} through v3`, async () => {
      const options = { consolidated: expected.consolidated, ...openOptions(expected.open) };
      const ds = await openDataset(new DirectoryStore(join(FIXTURES, `${name}.zarr`)), options);
      const store = new MemoryStore();
      await toZarr(ds, store, { zarrFormat: 3 });
      const back = await openDataset(store, openOptions(expected.open));
      expect([...back.variables.keys()]).toEqual([...ds.variables.keys()]);
      expect(back.coords).toEqual(ds.coords);
      for (const [key, variable] of ds.variables) {
        const a = await back.get(key).values();
        const b = await variable.values();
        expect([a.dtype, a.shape], key).toEqual([b.dtype, b.shape]);
        expect(comparable(a.data), key).toEqual(comparable(b.data));
      }
    });
  }
});
