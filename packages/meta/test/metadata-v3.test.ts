/**
 * Zarr v3 `zarr.json` documents in the forms TensorStore 0.1.85 cannot write (its documents are in
 * metadata-v3-tensorstore.test.ts): zarr-python 3's layout and its data types (string, bytes,
 * datetimes, struct, its fixed-length types), the registry's uint2/uint4, hex fills, r<N>, and
 * consolidated groups. The documents are written by hand after zarr-python 3's source
 * (src/zarr/core/metadata/v3.py, dtype/, group.py) and the specs' examples.
 */
import { describe, expect, it } from "vitest";
import {
  fillValueBytes,
  MetadataError,
  parseDataType,
  parseJson,
  UnsupportedExtensionError,
  ZarrError,
  type ArrayMetadataV3,
  type StructuredDataType,
  type JsonValue,
} from "@z/meta";
import {
  chunkKeyV3,
  dataTypeToV3,
  parseArrayMetadataV3,
  parseChunkKeyV3,
  parseDataTypeV3,
  parseGroupMetadataV3,
  parseNodeMetadataV3,
  serializeArrayMetadataV3,
  serializeGroupMetadataV3,
} from "@z/meta/v3";

/** An array document with `members` replacing or adding to a small valid one. */
const array = (members: Record<string, JsonValue | undefined> = {}): string => {
  const doc: Record<string, JsonValue | undefined> = {
    zarr_format: 3,
    node_type: "array",
    shape: [4, 6],
    data_type: "int32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 3] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    ...members,
  };
  const text = JSON.stringify(doc, (_, v) => (typeof v === "bigint" ? `BIG${v}` : v));
  return text.replace(/"BIG(-?\d+)"/g, "$1");
};
const fill = (data_type: JsonValue, fill_value: JsonValue, shape: number[] = [3]): ArrayMetadataV3 =>
  parseArrayMetadataV3(
    array({
      data_type,
      fill_value,
      shape,
      chunk_grid: { name: "regular", configuration: { chunk_shape: shape.map(() => 1) } },
    }),
  );
const fillJson = (meta: ArrayMetadataV3): JsonValue =>
  (parseJson(serializeArrayMetadataV3(meta)) as Record<string, JsonValue>).fill_value!;
const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("did not throw");
};

describe("an array's zarr.json as zarr-python 3 writes it", () => {
  const text = `{
  "shape": [
    100,
    50
  ],
  "data_type": "float64",
  "chunk_grid": {
    "name": "regular",
    "configuration": {
      "chunk_shape": [
        10,
        25
      ]
    }
  },
  "chunk_key_encoding": {
    "name": "default",
    "configuration": {
      "separator": "/"
    }
  },
  "fill_value": 0.0,
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
  "attributes": {
    "units": "K",
    "scale": 1.0
  },
  "dimension_names": [
    "y",
    null
  ],
  "zarr_format": 3,
  "node_type": "array",
  "storage_transformers": []
}`;

  it("reads every member", () => {
    const meta = parseArrayMetadataV3(text, "t/zarr.json");
    expect(meta).toMatchObject({
      zarrFormat: 3,
      nodeType: "array",
      shape: [100, 50],
      dataType: "float64",
      dtype: { kind: "f", byteOrder: "<", itemsize: 8 },
      chunkShape: [10, 25],
      chunkKeys: { name: "default", separator: "/" },
      fillValue: 0,
      dimensionNames: ["y", null],
      storageTransformers: [],
    });
    expect(meta.codecs.map((c) => c.name)).toEqual(["bytes", "zstd"]);
    expect(chunkKeyV3([3, 1], meta.chunkKeys)).toBe("c/3/1");
  });

  it("writes it back byte for byte: indent 2, zarr-python's member order, floats as Python writes them", () => {
    expect(serializeArrayMetadataV3(parseArrayMetadataV3(text))).toBe(text);
  });

  it("keeps a member marked must_understand: false, verbatim, at the end", () => {
    const extra = { must_understand: false, purpose: "kept", nested: { a: [1, 2.5] } };
    const meta = parseArrayMetadataV3(array({ my_extension: extra }));
    // Verbatim: 2.5 stays a float (`JsonFloat`), to be written back as one.
    expect(meta.extraFields).toEqual({
      my_extension: parseJson(JSON.stringify(extra), undefined, { keepFloats: true }),
    });
    const written = parseJson(serializeArrayMetadataV3(meta)) as Record<string, JsonValue>;
    expect(written.my_extension).toEqual(extra);
    expect(Object.keys(written).at(-1)).toBe("my_extension");
  });

  it("normalises bare codec names to { name }", () => {
    const meta = parseArrayMetadataV3(array({ codecs: ["bytes", { name: "crc32c" }] }));
    expect(meta.codecs).toEqual([{ name: "bytes" }, { name: "crc32c" }]);
    expect((parseJson(serializeArrayMetadataV3(meta)) as Record<string, JsonValue>).codecs).toEqual([
      { name: "bytes" },
      { name: "crc32c" },
    ]);
  });

  it("keeps storage transformers that need not be understood, and refuses the others by name", () => {
    const ignorable = { name: "some_cache", must_understand: false, configuration: { size: 3 } };
    expect(parseArrayMetadataV3(array({ storage_transformers: [ignorable] })).storageTransformers).toEqual([ignorable]);
    const e = thrown(() =>
      parseArrayMetadataV3(array({ storage_transformers: [{ name: "sharding_v1" }] }), "a/zarr.json"),
    );
    expect(e).toBeInstanceOf(UnsupportedExtensionError);
    expect(e).toMatchObject({
      code: "ZARR_UNSUPPORTED",
      key: "a/zarr.json",
      field: "storage_transformers",
      extension: "sharding_v1",
    });
  });
});

describe("chunk key encodings", () => {
  const keys = (encoding: JsonValue, coords: number[]): string => {
    const shape = coords.map(() => 10);
    const meta = parseArrayMetadataV3(
      array({
        shape,
        chunk_grid: { name: "regular", configuration: { chunk_shape: shape } },
        chunk_key_encoding: encoding,
      }),
    );
    const key = chunkKeyV3(coords, meta.chunkKeys);
    expect(parseChunkKeyV3(key, coords.length, meta.chunkKeys)).toEqual(coords);
    return key;
  };

  it("default: c, then the indices, separated by / unless . is given", () => {
    expect(keys({ name: "default" }, [1, 2])).toBe("c/1/2");
    expect(keys("default", [1, 2])).toBe("c/1/2");
    expect(keys({ name: "default", configuration: { separator: "." } }, [1, 2])).toBe("c.1.2");
    expect(keys({ name: "default" }, [])).toBe("c");
  });

  it("v2: the indices, separated by . unless / is given", () => {
    expect(keys({ name: "v2" }, [1, 2])).toBe("1.2");
    expect(keys({ name: "v2", configuration: { separator: "/" } }, [1, 2])).toBe("1/2");
    expect(keys({ name: "v2" }, [])).toBe("0");
  });

  it("parses back only the keys it writes", () => {
    const slash = { name: "default", separator: "/" } as const;
    for (const key of ["zarr.json", "c/01/2", "c/1", "c.1.2", "1/2", "c/1/2/3", "c/-1/2", `c/${2 ** 53}/0`]) {
      expect(parseChunkKeyV3(key, 2, slash), key).toBeUndefined();
    }
    expect(parseChunkKeyV3("c", 0, slash)).toEqual([]);
    expect(parseChunkKeyV3("0", 0, slash)).toBeUndefined();
  });

  it("refuses other encodings and separators", () => {
    expect(() => parseArrayMetadataV3(array({ chunk_key_encoding: { name: "flat" } }))).toThrow(
      UnsupportedExtensionError,
    );
    expect(() =>
      parseArrayMetadataV3(array({ chunk_key_encoding: { name: "default", configuration: { separator: "_" } } })),
    ).toThrow(/"chunk_key_encoding.configuration.separator": expected "\/" or "."/);
  });
});

describe("data types TensorStore does not write", () => {
  it("string: an object dtype, its fill a string, written as it is", () => {
    const meta = fill("string", "héllo\n世界");
    expect(meta.dtype).toEqual({ kind: "O", byteOrder: "|", itemsize: 8 });
    expect(meta.fillValue).toBe("héllo\n世界");
    expect(serializeArrayMetadataV3(meta)).toContain('"fill_value": "h\\u00e9llo\\n\\u4e16\\u754c"');
    expect(() => fill("string", 0)).toThrow(MetadataError);
  });

  it("bytes (and zarr-python's variable_length_bytes): base64 or a list of byte values, written as base64", () => {
    for (const name of ["bytes", "variable_length_bytes"]) {
      expect(fill(name, "AQID").fillValue).toEqual(Uint8Array.of(1, 2, 3));
      expect(fill(name, [1, 2, 3]).fillValue).toEqual(Uint8Array.of(1, 2, 3));
      expect(fillJson(fill(name, [1, 2, 3]))).toBe("AQID");
      expect(fill(name, "AQID").dataType).toBe(name);
    }
    expect(() => fill("bytes", [1, 256])).toThrow(/fill_value/);
  });

  it("numpy.datetime64 and numpy.timedelta64: M and m with the unit, an int64 or NaT", () => {
    const ns = { name: "numpy.datetime64", configuration: { unit: "ns", scale_factor: 1 } };
    const meta = fill(ns, "NaT");
    expect(meta.dtype).toEqual({ kind: "M", byteOrder: "<", itemsize: 8, unit: "ns" });
    expect(meta.fillValue).toBe(-(2n ** 63n));
    // zarr-python 3 writes NaT as the int64 it is.
    expect(fillJson(meta)).toBe(-(2n ** 63n));
    expect(fill(ns, 12345).fillValue).toBe(12345n);
    const micro = fill({ name: "numpy.timedelta64", configuration: { unit: "μs", scale_factor: 10 } }, -(2n ** 63n));
    expect(micro.dtype).toEqual({ kind: "m", byteOrder: "<", itemsize: 8, unit: "10us" });
    expect(micro.dataType).toEqual({ name: "numpy.timedelta64", configuration: { unit: "μs", scale_factor: 10 } });
    expect(() => fill({ name: "numpy.datetime64", configuration: { unit: "ns" } }, 0)).toThrow(/scale_factor/);
    expect(() => fill({ name: "numpy.datetime64", configuration: { unit: "fortnight", scale_factor: 1 } }, 0)).toThrow(
      /unit/,
    );
    expect(() => fill("numpy.datetime64", 0)).toThrow(/"configuration"/);
    expect(() => fill(ns, 2n ** 63n)).toThrow(/fill_value/);
  });

  it("uint4 and uint2: x kinds held zero-extended, fills in their range", () => {
    expect(fill("uint4", 15).dtype).toEqual({ kind: "x", byteOrder: "|", itemsize: 1, extension: "uint4" });
    expect(hex(fillValueBytes(fill("uint4", 15).fillValue, fill("uint4", 15).dtype))).toBe("0f");
    expect(fill("uint2", 3).fillValue).toBe(3);
    expect(() => fill("uint4", 16)).toThrow(/an integer from 0 to 15/);
    expect(() => fill("uint2", -1)).toThrow(/an integer from 0 to 3/);
  });

  it("struct: packed fields, the fill an object of the fields' fills, written back as one", () => {
    const struct = {
      name: "struct",
      configuration: {
        fields: [
          { name: "x", data_type: "float32" },
          { name: "n", data_type: "int16" },
          { name: "when", data_type: { name: "numpy.datetime64", configuration: { unit: "s", scale_factor: 1 } } },
        ],
      },
    };
    const meta = fill(struct, { x: 1.5, n: -2, when: "NaT" });
    expect(meta.dtype).toMatchObject({ kind: "structured", itemsize: 14 });
    expect((meta.dtype as StructuredDataType).fields.map((f) => [f.name, f.offset])).toEqual([
      ["x", 0],
      ["n", 4],
      ["when", 6],
    ]);
    expect(hex(meta.fillValue as Uint8Array)).toBe("0000c03ffeff0000000000000080");
    expect(fillJson(meta)).toEqual({ x: 1.5, n: -2, when: -(2n ** 63n) });
    expect(() => fill(struct, { x: 1.5, n: -2 })).toThrow(/"when" included/);
    expect(() => fill(struct, { x: 1.5, n: -2, when: 0, y: 1 })).toThrow(/not "y"/);
    expect(() => fill(struct, { x: 1.5, n: 40000, when: 0 })).toThrow(/fill_value/);
  });

  it("structured (the legacy alias): [name, type] pairs, the fill base64 of the element, written as base64", () => {
    const legacy = {
      name: "structured",
      configuration: {
        fields: [
          ["a", "uint8"],
          ["b", "float64"],
        ],
      },
    };
    const meta = fill(legacy, "AQAAAAAAAPA/");
    expect(meta.dtype).toMatchObject({ kind: "structured", itemsize: 9 });
    expect(fillJson(meta)).toBe("AQAAAAAAAPA/");
    const nested = {
      name: "struct",
      configuration: {
        fields: [
          { name: "p", data_type: { name: "struct", configuration: { fields: [{ name: "x", data_type: "uint8" }] } } },
        ],
      },
    };
    expect(fillJson(fill(nested, { p: { x: 7 } }))).toEqual({ p: { x: 7 } });
  });

  it("refuses struct fields that are variable-length or repeated", () => {
    const withField = (fields: JsonValue): JsonValue => ({ name: "struct", configuration: { fields } });
    expect(() => fill(withField([{ name: "s", data_type: "string" }]), { s: "" })).toThrow(/fixed-size/);
    expect(() =>
      fill(
        withField([
          { name: "a", data_type: "int8" },
          { name: "a", data_type: "int8" },
        ]),
        { a: 0 },
      ),
    ).toThrow(/distinct field names/);
    expect(() => fill(withField([]), {})).toThrow(/non-empty list of fields/);
  });

  it("r<N>: raw bits as V of N/8 bytes, the fill a list of byte values (base64 read too)", () => {
    const meta = fill("r24", [1, 2, 3]);
    expect(meta.dtype).toEqual({ kind: "V", byteOrder: "|", itemsize: 3 });
    expect(fillJson(meta)).toEqual([1, 2, 3]);
    expect(fill("r24", "AQID").fillValue).toEqual(Uint8Array.of(1, 2, 3));
    expect(() => fill("r24", [1, 2])).toThrow(/a list of 3 byte values/);
    expect(() => fill("r12", [1])).toThrow(/multiple of 8/);
  });

  it("zarr-python 3's fixed-length types: null_terminated_bytes, fixed_length_utf32, raw_bytes", () => {
    const s = fill({ name: "null_terminated_bytes", configuration: { length_bytes: 4 } }, "YWI=");
    expect(s.dtype).toEqual({ kind: "S", byteOrder: "|", itemsize: 4 });
    expect(fillJson(s)).toBe("YWI=");
    const u = fill({ name: "fixed_length_utf32", configuration: { length_bytes: 8 } }, "ab");
    expect(u.dtype).toEqual({ kind: "U", byteOrder: "<", itemsize: 8 });
    expect(fillJson(u)).toBe("ab");
    const v = fill({ name: "raw_bytes", configuration: { length_bytes: 2 } }, "AQI=");
    expect(v.dtype).toEqual({ kind: "V", byteOrder: "|", itemsize: 2 });
    expect(fillJson(v)).toBe("AQI=");
    expect(() => fill({ name: "fixed_length_utf32", configuration: { length_bytes: 6 } }, "")).toThrow(/multiple of 4/);
  });
});

describe("fill values in every JSON form", () => {
  it("integers exact beyond 2^53, in range of the type", () => {
    expect(fill("uint64", 18446744073709551615n).fillValue).toBe(2n ** 64n - 1n);
    expect(fill("int64", -9223372036854775808n).fillValue).toBe(-(2n ** 63n));
    expect(fill("int8", 2.0).fillValue).toBe(2);
    for (const [type, value] of [
      ["int8", 128],
      ["uint8", -1],
      ["uint64", 2n ** 64n],
      ["int32", 1.5],
      ["int16", "1"],
      ["bool", 1],
      ["float32", "nan"],
      ["float32", "0x7fc0"],
      ["complex64", [1]],
    ] as [string, JsonValue][]) {
      const e = thrown(() => fill(type, value));
      expect(e, `${type} ${String(value)}`).toBeInstanceOf(MetadataError);
      expect(e).toMatchObject({ code: "ZARR_METADATA", field: "fill_value" });
    }
  });

  it("floats: numbers rounded to the type, NaN and the infinities, hex bits of the type's width", () => {
    expect(fill("float32", 0.1).fillValue).toBe(Math.fround(0.1));
    expect(fill("float16", "0x7c00").fillValue).toBe(Infinity);
    expect(Object.is(fill("float64", "0x8000000000000000").fillValue, -0)).toBe(true);
    // The spec's "NaN" is the quiet NaN; in hex it is a plain NaN too.
    expect(fill("float32", "0x7fc00000").fillValue).toBeNaN();
    expect(fillJson(fill("float32", "0x7fc00000"))).toBe("NaN");
  });

  it("a NaN with a payload keeps its bits, in the element's bytes and when written back", () => {
    const f8 = fill("float64", "0x7ff4000000000001");
    expect(hex(fillValueBytes(f8.fillValue, f8.dtype))).toBe("010000000000f47f");
    expect(fillJson(f8)).toBe("0x7ff4000000000001");
    const c8 = fill("complex64", ["0xffc00001", 2]);
    expect(hex(fillValueBytes(c8.fillValue, c8.dtype))).toBe("0100c0ff00000040");
    expect(fillJson(c8)).toEqual(["0xffc00001", 2]);
    const bf16 = fill("bfloat16", "0xffc1");
    expect(hex(fillValueBytes(bf16.fillValue, bf16.dtype))).toBe("c1ff");
    expect(fillJson(bf16)).toBe("0xffc1");
  });
});

describe("consolidated metadata in a group's zarr.json, as zarr-python 3 writes it", () => {
  const child = JSON.parse(
    array({ shape: [10], chunk_grid: { name: "regular", configuration: { chunk_shape: [5] } } }),
  );
  const group = {
    attributes: { title: "root" },
    zarr_format: 3,
    consolidated_metadata: {
      kind: "inline",
      must_understand: false,
      metadata: {
        "b/deep": { attributes: {}, zarr_format: 3, node_type: "group" },
        B: child,
        a: { attributes: {}, zarr_format: 3, node_type: "group" },
      },
    },
    node_type: "group",
  };

  it("reads each node's document by path", () => {
    const meta = parseGroupMetadataV3(JSON.stringify(group), "root/zarr.json");
    expect(meta.attributes).toEqual({ title: "root" });
    const nodes = meta.consolidatedMetadata!.metadata;
    expect([...nodes.keys()]).toEqual(["b/deep", "B", "a"]);
    expect(nodes.get("B")).toMatchObject({ nodeType: "array", shape: [10], chunkShape: [5] });
    expect(nodes.get("a")).toMatchObject({ nodeType: "group", attributes: {} });
  });

  it("writes the nodes as zarr-python orders them: by depth, then case-folded path", () => {
    const text = serializeGroupMetadataV3(parseGroupMetadataV3(JSON.stringify(group)));
    const written = parseJson(text) as { consolidated_metadata: { metadata: Record<string, JsonValue> } };
    expect(Object.keys(written)).toEqual(["attributes", "zarr_format", "consolidated_metadata", "node_type"]);
    expect(Object.keys(written.consolidated_metadata)).toEqual(["kind", "must_understand", "metadata"]);
    expect(Object.keys(written.consolidated_metadata.metadata)).toEqual(["a", "B", "b/deep"]);
    expect(written).toEqual(parseJson(JSON.stringify(group)));
    expect(text.startsWith('{\n  "attributes": {\n    "title": "root"\n  },\n  "zarr_format": 3,\n')).toBe(true);
  });

  it("refuses a node that is not valid, naming the path", () => {
    const bad = structuredClone(group);
    (bad.consolidated_metadata.metadata.B as Record<string, JsonValue>).shape = [-1];
    expect(() => parseGroupMetadataV3(JSON.stringify(bad), "root/zarr.json")).toThrow(
      /"root\/zarr.json \(consolidated: B\)" has an invalid "shape"/,
    );
    const kind = { ...group, consolidated_metadata: { ...group.consolidated_metadata, kind: "external" } };
    expect(() => parseGroupMetadataV3(JSON.stringify(kind))).toThrow(/"consolidated_metadata.kind": expected "inline"/);
  });

  it("a plain group: zarr_format and node_type only, other members as for arrays", () => {
    expect(serializeGroupMetadataV3()).toBe('{\n  "zarr_format": 3,\n  "node_type": "group"\n}');
    expect(parseNodeMetadataV3('{"zarr_format": 3, "node_type": "group"}')).toEqual({
      zarrFormat: 3,
      nodeType: "group",
    });
    expect(() => parseGroupMetadataV3('{"zarr_format": 3, "node_type": "group", "x": 1}')).toThrow(
      UnsupportedExtensionError,
    );
    const kept = parseGroupMetadataV3('{"zarr_format": 3, "node_type": "group", "x": {"must_understand": false}}');
    expect(kept.extraFields).toEqual({ x: { must_understand: false } });
  });
});

describe("bad zarr.json: a typed error naming the key and the member", () => {
  const cases: [string, string, string, RegExp][] = [
    ["not an object", "[1, 2]", "", /must hold a JSON object, found a list of 2 items|must hold a JSON object/],
    ["zarr_format 2", array({ zarr_format: 2 }), "zarr_format", /expected 3/],
    ["no node_type", array({ node_type: undefined }), "node_type", /misses the required field "node_type"/],
    ["node_type group", array({ node_type: "group" }), "node_type", /this is a group/],
    ["node_type other", array({ node_type: "table" }), "node_type", /"array"/],
    [
      "chunk rank",
      array({ chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } } }),
      "chunk_grid.configuration.chunk_shape",
      /2 lengths/,
    ],
    [
      "zero chunk",
      array({ chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 0] } } }),
      "chunk_grid.configuration.chunk_shape",
      /positive integers/,
    ],
    [
      "negative chunk",
      array({ chunk_grid: { name: "regular", configuration: { chunk_shape: [-2, 3] } } }),
      "chunk_grid.configuration.chunk_shape",
      /positive/,
    ],
    ["no chunk_shape", array({ chunk_grid: { name: "regular" } }), "chunk_grid", /"configuration" with "chunk_shape"/],
    ["huge shape", array({ shape: [2n ** 70n, 1] }), "shape", /1180591620717411303424/],
    ["negative shape", array({ shape: [-1, 6] }), "shape", /non-negative/],
    ["fractional shape", array({ shape: [4.5, 6] }), "shape", /non-negative integers/],
    ["fill too big", array({ fill_value: 2 ** 31 }), "fill_value", /an integer from -2147483648 to 2147483647/],
    ["fill null", array({ fill_value: null }), "fill_value", /required/],
    ["no fill", array({ fill_value: undefined }), "fill_value", /misses the required field "fill_value"/],
    ["names length", array({ dimension_names: ["x"] }), "dimension_names", /a list of 2 names/],
    ["names type", array({ dimension_names: ["x", 1] }), "dimension_names", /at index 1/],
    ["codecs empty", array({ codecs: [] }), "codecs", /non-empty list/],
    ["codec number", array({ codecs: [{ name: "bytes" }, 3] }), "codecs[1]", /found 3/],
    ["codec without name", array({ codecs: [{ configuration: {} }] }), "codecs[0]", /string "name"/],
    [
      "codec configuration",
      array({ codecs: [{ name: "gzip", configuration: 5 }] }),
      "codecs[0].configuration",
      /an object/,
    ],
    ["codec extra member", array({ codecs: [{ name: "gzip", level: 5 }] }), "codecs[0]", /unknown member "level"/],
    ["attributes", array({ attributes: [] }), "attributes", /an object/],
    ["data type number", array({ data_type: 5 }), "data_type", /a name or an object/],
    [
      "data type configuration",
      array({ data_type: { name: "int32", configuration: { x: 1 } } }),
      "data_type.configuration",
      /no configuration/,
    ],
  ];
  for (const [what, doc, field, message] of cases) {
    it(what, () => {
      const e = thrown(() => parseArrayMetadataV3(doc, "a/zarr.json"));
      expect(e).toBeInstanceOf(MetadataError);
      expect(e).toMatchObject({ code: "ZARR_METADATA", key: "a/zarr.json" });
      if (field !== "") expect((e as MetadataError).field).toBe(field);
      expect((e as Error).message).toMatch(message);
      expect((e as Error).message).toContain("a/zarr.json");
    });
  }

  const unsupported: [string, string, string, string][] = [
    ["unknown data type", array({ data_type: "float128" }), "data_type", "float128"],
    [
      "unknown parametrised data type",
      array({ data_type: { name: "urn:example:datetime", configuration: { unit: "ns" } } }),
      "data_type",
      "urn:example:datetime",
    ],
    [
      "rectilinear grid",
      array({ chunk_grid: { name: "rectilinear", configuration: { kind: "inline", chunk_shapes: [2, 3] } } }),
      "chunk_grid",
      "rectilinear",
    ],
    ["unknown member", array({ sharding: { enabled: true } }), "sharding", "sharding"],
    ["unknown member that is not an object", array({ version: 2 }), "version", "version"],
  ];
  for (const [what, doc, field, extension] of unsupported) {
    it(`${what}: refused by name`, () => {
      const e = thrown(() => parseArrayMetadataV3(doc, "a/zarr.json"));
      expect(e).toBeInstanceOf(UnsupportedExtensionError);
      expect(e).toMatchObject({ code: "ZARR_UNSUPPORTED", key: "a/zarr.json", field, extension });
      expect((e as Error).message).toContain(JSON.stringify(extension));
    });
  }

  it("hostile values give short messages and typed errors (as v2's hostile-messages probes)", () => {
    const big = 2n ** 70n;
    for (const doc of [
      array({ chunk_grid: { name: "regular", configuration: { chunk_shape: [big, [big]] } } }),
      array({ data_type: `x${"y".repeat(500)}` }),
      array({ data_type: { name: "struct", configuration: { fields: [[[[[[big]]]]]] } } }),
      array({ fill_value: [[[[big]]]] }),
      array({ dimension_names: [`\u0000\ud800${"x".repeat(500)}`, big] }),
      array({ codecs: [{ name: big }] }),
      `${"[".repeat(5000)}${"]".repeat(5000)}`,
    ]) {
      const e = thrown(() => parseArrayMetadataV3(doc, "a/zarr.json"));
      expect(e).toBeInstanceOf(ZarrError);
      expect((e as ZarrError).code).toMatch(/^ZARR_(METADATA|UNSUPPORTED)$/);
      expect((e as Error).message.length).toBeLessThan(700);
    }
  });
});

describe("dataTypeToV3: the data_type zarr-python 3 writes for a v2-style dtype", () => {
  it("drops the byte order and names the type", () => {
    expect(dataTypeToV3(parseDataType(">f8"))).toBe("float64");
    expect(dataTypeToV3(parseDataType("|b1"))).toBe("bool");
    expect(dataTypeToV3(parseDataType("bfloat16"))).toBe("bfloat16");
    expect(dataTypeToV3(parseDataType("<M8[10s]"))).toEqual({
      name: "numpy.datetime64",
      configuration: { unit: "s", scale_factor: 10 },
    });
    expect(dataTypeToV3(parseDataType("|S5"))).toEqual({
      name: "null_terminated_bytes",
      configuration: { length_bytes: 5 },
    });
    expect(
      dataTypeToV3(
        parseDataType([
          ["a", "<i2"],
          ["b", ">f4"],
        ]),
      ),
    ).toEqual({
      name: "struct",
      configuration: {
        fields: [
          { name: "a", data_type: "int16" },
          { name: "b", data_type: "float32" },
        ],
      },
    });
    expect(() => dataTypeToV3(parseDataType("|O"))).toThrow(/"string" or "bytes"/);
  });

  it("reads back as the same dtype, little-endian", () => {
    for (const v2 of [
      "|b1",
      ">i2",
      "<u8",
      ">f2",
      "<c16",
      "uint4",
      "float8_e5m2",
      ">M8[ns]",
      "<m8[5D]",
      "|S3",
      ">U2",
      "|V7",
    ]) {
      const dtype = parseDataType(v2);
      const little = parseDataType(v2.replace(">", "<"));
      expect(parseDataTypeV3(dataTypeToV3(dtype) as JsonValue).dtype, v2).toEqual(little);
    }
  });
});
