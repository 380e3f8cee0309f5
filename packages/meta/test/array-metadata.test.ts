import { describe, expect, it } from "vitest";
import {
  MetadataError,
  encodeArrayMetadata,
  parseArrayMetadata,
  parseDataType,
  serializeArrayMetadata,
  type ArrayMetadata,
} from "@z/meta";

// Each text is the ".zarray" zarr-python 2.13 wrote for the call above it (store={}).
const ZARRAY = {
  // zarr.create((20, 30), chunks=(10, 10), dtype="<f8", compressor=None)
  f8: '{\n    "chunks": [\n        10,\n        10\n    ],\n    "compressor": null,\n    "dtype": "<f8",\n    "fill_value": 0.0,\n    "filters": null,\n    "order": "C",\n    "shape": [\n        20,\n        30\n    ],\n    "zarr_format": 2\n}',
  // zarr.create(100, chunks=10, dtype=">u8", fill_value=18446744073709551615)
  u8: '{\n    "chunks": [\n        10\n    ],\n    "compressor": {\n        "blocksize": 0,\n        "clevel": 5,\n        "cname": "lz4",\n        "id": "blosc",\n        "shuffle": 1\n    },\n    "dtype": ">u8",\n    "fill_value": 18446744073709551615,\n    "filters": null,\n    "order": "C",\n    "shape": [\n        100\n    ],\n    "zarr_format": 2\n}',
  // zarr.create((5, 5), chunks=(2, 2), dtype=bool, fill_value=False, order="F", compressor=None)
  bool: '{\n    "chunks": [\n        2,\n        2\n    ],\n    "compressor": null,\n    "dtype": "|b1",\n    "fill_value": false,\n    "filters": null,\n    "order": "F",\n    "shape": [\n        5,\n        5\n    ],\n    "zarr_format": 2\n}',
  // zarr.create(10, dtype="<f4", fill_value=np.nan, compressor=None)
  nan: '{\n    "chunks": [\n        10\n    ],\n    "compressor": null,\n    "dtype": "<f4",\n    "fill_value": "NaN",\n    "filters": null,\n    "order": "C",\n    "shape": [\n        10\n    ],\n    "zarr_format": 2\n}',
  // zarr.create((4, 4), chunks=(2, 2), dtype="i2", dimension_separator="/", compressor=None)
  nested:
    '{\n    "chunks": [\n        2,\n        2\n    ],\n    "compressor": null,\n    "dimension_separator": "/",\n    "dtype": "<i2",\n    "fill_value": 0,\n    "filters": null,\n    "order": "C",\n    "shape": [\n        4,\n        4\n    ],\n    "zarr_format": 2\n}',
  // zarr.create((4, 4), chunks=(2, 2), dtype="i2", dimension_separator=".", compressor=None)
  dotted:
    '{\n    "chunks": [\n        2,\n        2\n    ],\n    "compressor": null,\n    "dimension_separator": ".",\n    "dtype": "<i2",\n    "fill_value": 0,\n    "filters": null,\n    "order": "C",\n    "shape": [\n        4,\n        4\n    ],\n    "zarr_format": 2\n}',
  // zarr.create((10000, 10000), dtype="<f8", fill_value=None)
  guessed:
    '{\n    "chunks": [\n        313,\n        625\n    ],\n    "compressor": {\n        "blocksize": 0,\n        "clevel": 5,\n        "cname": "lz4",\n        "id": "blosc",\n        "shuffle": 1\n    },\n    "dtype": "<f8",\n    "fill_value": null,\n    "filters": null,\n    "order": "C",\n    "shape": [\n        10000,\n        10000\n    ],\n    "zarr_format": 2\n}',
  // zarr.create((20, 20), chunks=(10, 10), dtype="i4", fill_value=42, compressor=zarr.Zlib(level=1),
  //             filters=[numcodecs.Delta(dtype="i4")])
  filtered:
    '{\n    "chunks": [\n        10,\n        10\n    ],\n    "compressor": {\n        "id": "zlib",\n        "level": 1\n    },\n    "dtype": "<i4",\n    "fill_value": 42,\n    "filters": [\n        {\n            "astype": "<i4",\n            "dtype": "<i4",\n            "id": "delta"\n        }\n    ],\n    "order": "C",\n    "shape": [\n        20,\n        20\n    ],\n    "zarr_format": 2\n}',
  // zarr.create((), dtype="<i4", compressor=None)
  scalar:
    '{\n    "chunks": [],\n    "compressor": null,\n    "dtype": "<i4",\n    "fill_value": 0,\n    "filters": null,\n    "order": "C",\n    "shape": [],\n    "zarr_format": 2\n}',
  // zarr.create(8, dtype="<f8", fill_value=1e-7, filters=[], compressor=None)
  tiny: '{\n    "chunks": [\n        8\n    ],\n    "compressor": null,\n    "dtype": "<f8",\n    "fill_value": 1e-07,\n    "filters": null,\n    "order": "C",\n    "shape": [\n        8\n    ],\n    "zarr_format": 2\n}',
  // zarr.create(3, dtype=[("a", "<i4"), ("b", "<f8", (2,))], compressor=None)
  structured:
    '{\n    "chunks": [\n        3\n    ],\n    "compressor": null,\n    "dtype": [\n        [\n            "a",\n            "<i4"\n        ],\n        [\n            "b",\n            "<f8",\n            [\n                2\n            ]\n        ]\n    ],\n    "fill_value": "AAAAAAAAAAAAAAAAAAAAAAAAAAA=",\n    "filters": null,\n    "order": "C",\n    "shape": [\n        3\n    ],\n    "zarr_format": 2\n}',
  // zarr.create(3, dtype="|S4", fill_value=b"ab", compressor=None)
  bytes:
    '{\n    "chunks": [\n        3\n    ],\n    "compressor": null,\n    "dtype": "|S4",\n    "fill_value": "YWI=",\n    "filters": null,\n    "order": "C",\n    "shape": [\n        3\n    ],\n    "zarr_format": 2\n}',
  // zarr.create(3, dtype="<M8[ns]", compressor=None)
  datetime:
    '{\n    "chunks": [\n        3\n    ],\n    "compressor": null,\n    "dtype": "<M8[ns]",\n    "fill_value": 0,\n    "filters": null,\n    "order": "C",\n    "shape": [\n        3\n    ],\n    "zarr_format": 2\n}',
  // zarr.create(3, dtype="<c16", fill_value=1+2j, compressor=None)
  complex:
    '{\n    "chunks": [\n        3\n    ],\n    "compressor": null,\n    "dtype": "<c16",\n    "fill_value": [\n        1.0,\n        2.0\n    ],\n    "filters": null,\n    "order": "C",\n    "shape": [\n        3\n    ],\n    "zarr_format": 2\n}',
  // zarr.create(3, dtype="<U3", fill_value="hé", compressor=None)
  unicode:
    '{\n    "chunks": [\n        3\n    ],\n    "compressor": null,\n    "dtype": "<U3",\n    "fill_value": "h\\u00e9",\n    "filters": null,\n    "order": "C",\n    "shape": [\n        3\n    ],\n    "zarr_format": 2\n}',
  // zarr.create(3, dtype=object, object_codec=numcodecs.VLenUTF8(), compressor=None)
  object:
    '{\n    "chunks": [\n        3\n    ],\n    "compressor": null,\n    "dtype": "|O",\n    "fill_value": 0,\n    "filters": [\n        {\n            "id": "vlen-utf8"\n        }\n    ],\n    "order": "C",\n    "shape": [\n        3\n    ],\n    "zarr_format": 2\n}',
};

const BLOSC = { blocksize: 0, clevel: 5, cname: "lz4", id: "blosc", shuffle: 1 };

describe("serializeArrayMetadata", () => {
  it("writes what zarr.create((20, 30), chunks=(10, 10), dtype='<f8', compressor=None) writes", () => {
    const meta: ArrayMetadata = {
      zarrFormat: 2,
      shape: [20, 30],
      chunks: [10, 10],
      dtype: parseDataType("<f8"),
      compressor: null,
      fillValue: 0,
      order: "C",
      filters: null,
    };
    expect(serializeArrayMetadata(meta)).toBe(ZARRAY.f8);
    expect(encodeArrayMetadata(meta)).toEqual(new TextEncoder().encode(ZARRAY.f8));
  });

  it("writes a big-endian u8 fill value of 2^64 - 1 exactly", () => {
    const meta: ArrayMetadata = {
      zarrFormat: 2,
      shape: [100],
      chunks: [10],
      dtype: parseDataType(">u8"),
      compressor: BLOSC,
      fillValue: 18446744073709551615n,
      order: "C",
      filters: null,
    };
    expect(serializeArrayMetadata(meta)).toBe(ZARRAY.u8);
  });

  it("writes a false bool fill, F order, a NaN fill and a null fill", () => {
    const base = { zarrFormat: 2, compressor: null, order: "C", filters: null } as const;
    const bool: ArrayMetadata = {
      ...base,
      shape: [5, 5],
      chunks: [2, 2],
      dtype: parseDataType("|b1"),
      fillValue: false,
      order: "F",
    };
    const nan: ArrayMetadata = { ...base, shape: [10], chunks: [10], dtype: parseDataType("<f4"), fillValue: NaN };
    const none: ArrayMetadata = {
      ...base,
      shape: [10000, 10000],
      chunks: [313, 625],
      dtype: parseDataType("<f8"),
      fillValue: null,
      compressor: BLOSC,
    };
    expect(serializeArrayMetadata(bool)).toBe(ZARRAY.bool);
    expect(serializeArrayMetadata(nan)).toBe(ZARRAY.nan);
    expect(serializeArrayMetadata(none)).toBe(ZARRAY.guessed);
  });

  it("writes dimension_separator only when the metadata has one", () => {
    const base: ArrayMetadata = {
      zarrFormat: 2,
      shape: [4, 4],
      chunks: [2, 2],
      dtype: parseDataType("<i2"),
      compressor: null,
      fillValue: 0,
      order: "C",
      filters: null,
    };
    expect(serializeArrayMetadata({ ...base, dimensionSeparator: "/" })).toBe(ZARRAY.nested);
    expect(serializeArrayMetadata({ ...base, dimensionSeparator: "." })).toBe(ZARRAY.dotted);
    expect(serializeArrayMetadata(base)).not.toContain("dimension_separator");
  });

  it("writes filters, and an empty filter list as null", () => {
    const meta: ArrayMetadata = {
      zarrFormat: 2,
      shape: [20, 20],
      chunks: [10, 10],
      dtype: parseDataType("<i4"),
      compressor: { id: "zlib", level: 1 },
      fillValue: 42,
      order: "C",
      filters: [{ id: "delta", dtype: "<i4", astype: "<i4" }],
    };
    expect(serializeArrayMetadata(meta)).toBe(ZARRAY.filtered);
    const tiny: ArrayMetadata = {
      ...meta,
      shape: [8],
      chunks: [8],
      dtype: parseDataType("<f8"),
      compressor: null,
      fillValue: 1e-7,
      filters: [],
    };
    expect(serializeArrayMetadata(tiny)).toBe(ZARRAY.tiny);
  });

  it("refuses to write metadata zarr-python could not read", () => {
    const meta: ArrayMetadata = {
      zarrFormat: 2,
      shape: [4],
      chunks: [0],
      dtype: parseDataType("<i2"),
      compressor: null,
      fillValue: 0,
      order: "C",
      filters: null,
    };
    expect(() => serializeArrayMetadata(meta)).toThrow(expect.objectContaining({ field: "chunks" }));
    expect(() => serializeArrayMetadata({ ...meta, chunks: [2, 2] })).toThrow(
      expect.objectContaining({ field: "chunks" }),
    );
    expect(() => serializeArrayMetadata({ ...meta, chunks: [2], order: "X" as "C" })).toThrow(
      expect.objectContaining({ field: "order" }),
    );
  });
});

describe("parseArrayMetadata", () => {
  it("reads the .zarray zarr-python wrote", () => {
    expect(parseArrayMetadata(new TextEncoder().encode(ZARRAY.f8))).toEqual({
      zarrFormat: 2,
      shape: [20, 30],
      chunks: [10, 10],
      dtype: parseDataType("<f8"),
      compressor: null,
      fillValue: 0,
      order: "C",
      filters: null,
    });
    const u8 = parseArrayMetadata(ZARRAY.u8);
    expect([u8.fillValue, u8.compressor, u8.dimensionSeparator]).toEqual([18446744073709551615n, BLOSC, undefined]);
    expect(parseArrayMetadata(ZARRAY.bool).fillValue).toBe(false);
    expect(parseArrayMetadata(ZARRAY.nan).fillValue).toBeNaN();
    expect(parseArrayMetadata(ZARRAY.nested).dimensionSeparator).toBe("/");
    expect(parseArrayMetadata(ZARRAY.dotted).dimensionSeparator).toBe(".");
    expect(parseArrayMetadata(ZARRAY.guessed).fillValue).toBeNull();
    expect(parseArrayMetadata(ZARRAY.filtered).filters).toEqual([{ id: "delta", dtype: "<i4", astype: "<i4" }]);
    expect(parseArrayMetadata(ZARRAY.scalar)).toMatchObject({ shape: [], chunks: [] });
  });

  it.each(Object.entries(ZARRAY))("writes back %s byte for byte", (_name, text) => {
    expect(serializeArrayMetadata(parseArrayMetadata(text))).toBe(text);
  });

  it("reads already-parsed JSON, such as consolidated metadata holds", () => {
    const doc = {
      zarr_format: 2,
      shape: [4],
      chunks: [2],
      dtype: "<i2",
      compressor: null,
      fill_value: 0,
      order: "C",
      filters: null,
    };
    expect(parseArrayMetadata(doc).shape).toEqual([4]);
  });

  it("ignores keys it does not know, reads an empty filter list and a null separator as absent", () => {
    const doc = JSON.parse(ZARRAY.f8) as Record<string, unknown>;
    const text = JSON.stringify({ ...doc, filters: [], dimension_separator: null, extra: { x: 1 } });
    const meta = parseArrayMetadata(text);
    expect([meta.filters, meta.dimensionSeparator, "extra" in meta]).toEqual([null, undefined, false]);
  });

  const base = JSON.parse(ZARRAY.f8) as Record<string, unknown>;
  const without = (field: string): string => JSON.stringify({ ...base, [field]: undefined });
  const withField = (field: string, value: unknown): string => JSON.stringify({ ...base, [field]: value });

  it.each([
    ["not JSON", "{", undefined, /not valid JSON/],
    ["not an object", "[1, 2]", undefined, /must hold a JSON object, found \[1, 2\]/],
    ...["zarr_format", "shape", "chunks", "dtype", "compressor", "fill_value", "order", "filters"].map(
      (field) => [`no ${field}`, without(field), field, new RegExp(`misses the required field "${field}"`)] as const,
    ),
    ["zarr_format 3", withField("zarr_format", 3), "zarr_format", /expected 2 .*found 3/],
    ["zarr_format as text", withField("zarr_format", "2"), "zarr_format", /found "2"/],
    ["shape not a list", withField("shape", 20), "shape", /expected a list of non-negative integers/],
    ["negative shape", withField("shape", [20, -1]), "shape", /found -1 at index 1/],
    ["fractional shape", withField("shape", [20.5, 30]), "shape", /found 20.5 at index 0/],
    ["shape beyond 2^53", '{"shape": [18446744073709551615, 30], "zarr_format": 2}', "shape", /up to 2\^53/],
    ["zero chunk", withField("chunks", [0, 10]), "chunks", /expected a list of positive integers.*found 0 at index 0/],
    ["chunks of another rank", withField("chunks", [10]), "chunks", /expected 2 lengths.*found \[10\]/],
    ["unknown dtype", withField("dtype", "<x4"), "dtype", /found "<x4"/],
    ["dtype a number", withField("dtype", 8), "dtype", /found 8/],
    ["compressor a name", withField("compressor", "zlib"), "compressor", /string "id"\) or null, found "zlib"/],
    ["compressor without id", withField("compressor", { level: 1 }), "compressor", /found an object/],
    ["compressor id a number", withField("compressor", { id: 1 }), "compressor", /string "id"/],
    ["fill_value of the wrong type", withField("fill_value", "abc"), "fill_value", /./],
    ["order A", withField("order", "A"), "order", /expected "C" or "F", found "A"/],
    ["filters an object", withField("filters", { id: "delta" }), "filters", /found an object/],
    ["filter without id", withField("filters", [{ id: "delta" }, 1]), "filters", /found 1 at index 1/],
    ["dimension_separator -", withField("dimension_separator", "-"), "dimension_separator", /"." or "\/", found "-"/],
    ["empty dimension_separator", withField("dimension_separator", ""), "dimension_separator", /found ""/],
    ["object dtype without its codec", withField("dtype", "|O"), "filters", /object codec/],
  ] as const)("refuses %s", (_name, text, field, message) => {
    let error: unknown;
    try {
      parseArrayMetadata(text, "foo/bar/.zarray");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MetadataError);
    const { code, key } = error as MetadataError;
    expect([code, key, (error as MetadataError).field]).toEqual(["ZARR_METADATA", "foo/bar/.zarray", field]);
    expect((error as Error).message).toMatch(message);
  });
});
