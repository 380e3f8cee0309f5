import { describe, expect, it } from "vitest";
import {
  DataTypeError,
  dataTypeEquals,
  dataTypeFromUser,
  dataTypeToJSON,
  numpyName,
  parseDataType,
  typestr,
  type DataType,
  type JsonValue,
  type StructuredDataType,
} from "@z/meta";

// Golden values: zarr-python 2.13 / NumPy 1.24. For each dtype as found in `.zarray`:
// [json, Metadata2.encode_dtype(Metadata2.decode_dtype(json)), dtype.itemsize, str(dtype)].
const SIMPLE: [string, string, number, string][] = [
  ["|b1", "|b1", 1, "bool"],
  ["<b1", "|b1", 1, "bool"],
  [">b1", "|b1", 1, "bool"],
  ["b1", "|b1", 1, "bool"],
  ["<i1", "|i1", 1, "int8"],
  [">i1", "|i1", 1, "int8"],
  ["|i1", "|i1", 1, "int8"],
  ["=i1", "|i1", 1, "int8"],
  ["|u1", "|u1", 1, "uint8"],
  ["<i2", "<i2", 2, "int16"],
  [">i2", ">i2", 2, ">i2"],
  ["=i2", "<i2", 2, "int16"],
  ["|i4", "<i4", 4, "int32"],
  ["i4", "<i4", 4, "int32"],
  ["<u2", "<u2", 2, "uint16"],
  [">u4", ">u4", 4, ">u4"],
  ["<i8", "<i8", 8, "int64"],
  [">i8", ">i8", 8, ">i8"],
  ["<u8", "<u8", 8, "uint64"],
  [">u8", ">u8", 8, ">u8"],
  ["<f2", "<f2", 2, "float16"],
  [">f2", ">f2", 2, ">f2"],
  ["<f4", "<f4", 4, "float32"],
  [">f4", ">f4", 4, ">f4"],
  ["f8", "<f8", 8, "float64"],
  [">f8", ">f8", 8, ">f8"],
  ["<c8", "<c8", 8, "complex64"],
  [">c8", ">c8", 8, ">c8"],
  ["<c16", "<c16", 16, "complex128"],
  [">c16", ">c16", 16, ">c16"],
  ["<M8[ns]", "<M8[ns]", 8, "datetime64[ns]"],
  [">M8[ns]", ">M8[ns]", 8, ">M8[ns]"],
  ["M8[ns]", "<M8[ns]", 8, "datetime64[ns]"],
  ["|M8[ns]", "<M8[ns]", 8, "datetime64[ns]"],
  ["<M8", "<M8", 8, "datetime64"],
  ["<M8[generic]", "<M8", 8, "datetime64"],
  ["<m8", "<m8", 8, "timedelta64"],
  ["<m8[1s]", "<m8[s]", 8, "timedelta64[s]"],
  ["<m8[10s]", "<m8[10s]", 8, "timedelta64[10s]"],
  ["<M8[010s]", "<M8[10s]", 8, "datetime64[10s]"],
  ["<M8[\u03bcs]", "<M8[us]", 8, "datetime64[us]"],
  ["<M8[Y]", "<M8[Y]", 8, "datetime64[Y]"],
  ["<M8[M]", "<M8[M]", 8, "datetime64[M]"],
  ["<M8[W]", "<M8[W]", 8, "datetime64[W]"],
  ["<M8[D]", "<M8[D]", 8, "datetime64[D]"],
  ["<M8[h]", "<M8[h]", 8, "datetime64[h]"],
  ["<M8[m]", "<M8[m]", 8, "datetime64[m]"],
  ["<M8[s]", "<M8[s]", 8, "datetime64[s]"],
  ["<M8[ms]", "<M8[ms]", 8, "datetime64[ms]"],
  ["<M8[us]", "<M8[us]", 8, "datetime64[us]"],
  ["<M8[ps]", "<M8[ps]", 8, "datetime64[ps]"],
  ["<M8[fs]", "<M8[fs]", 8, "datetime64[fs]"],
  ["<M8[as]", "<M8[as]", 8, "datetime64[as]"],
  ["<m8[25ms]", "<m8[25ms]", 8, "timedelta64[25ms]"],
  ["<M8[2generic]", "<M8", 8, "datetime64"],
  [">m8[7D]", ">m8[7D]", 8, ">m8[7D]"],
  ["|S5", "|S5", 5, "|S5"],
  ["S5", "|S5", 5, "|S5"],
  ["<S5", "|S5", 5, "|S5"],
  [">S5", "|S5", 5, "|S5"],
  ["|S0", "|S0", 0, "|S0"],
  ["|S05", "|S5", 5, "|S5"],
  ["<U5", "<U5", 20, "<U5"],
  [">U5", ">U5", 20, ">U5"],
  ["|U5", "<U5", 20, "<U5"],
  ["U1", "<U1", 4, "<U1"],
  ["<U0", "<U0", 0, "<U0"],
  ["|V7", "|V7", 7, "|V7"],
  ["<V7", "|V7", 7, "|V7"],
  ["|V0", "|V0", 0, "|V0"],
  ["|O", "|O", 8, "object"],
  ["<O", "|O", 8, "object"],
  ["O", "|O", 8, "object"],
  [">O8", "|O", 8, "object"],
];

// [descr, what zarr-python writes back, itemsize, str(dtype), [name, offset, size] of each field].
const STRUCTURED: [JsonValue, JsonValue, number, string, [string, number, number][]][] = [
  [
    [
      ["a", "<i4"],
      ["b", "<f8"],
    ],
    [
      ["a", "<i4"],
      ["b", "<f8"],
    ],
    12,
    "[('a', '<i4'), ('b', '<f8')]",
    [
      ["a", 0, 4],
      ["b", 4, 8],
    ],
  ],
  [
    [
      ["r", "|u1"],
      ["g", "|u1"],
      ["b", "|u1"],
    ],
    [
      ["r", "|u1"],
      ["g", "|u1"],
      ["b", "|u1"],
    ],
    3,
    "[('r', 'u1'), ('g', 'u1'), ('b', 'u1')]",
    [
      ["r", 0, 1],
      ["g", 1, 1],
      ["b", 2, 1],
    ],
  ],
  [
    [
      ["x", "<f4"],
      ["y", "<f4"],
      ["z", "<f4", [2, 2]],
    ],
    [
      ["x", "<f4"],
      ["y", "<f4"],
      ["z", "<f4", [2, 2]],
    ],
    24,
    "[('x', '<f4'), ('y', '<f4'), ('z', '<f4', (2, 2))]",
    [
      ["x", 0, 4],
      ["y", 4, 4],
      ["z", 8, 16],
    ],
  ],
  [
    [
      ["foo", "<f4"],
      [
        "bar",
        [
          ["baz", "<f4"],
          ["qux", "<i4"],
        ],
      ],
    ],
    [
      ["foo", "<f4"],
      [
        "bar",
        [
          ["baz", "<f4"],
          ["qux", "<i4"],
        ],
      ],
    ],
    12,
    "[('foo', '<f4'), ('bar', [('baz', '<f4'), ('qux', '<i4')])]",
    [
      ["foo", 0, 4],
      ["bar", 4, 8],
    ],
  ],
  [
    [
      ["a", "|u1"],
      ["", "|V7"],
      ["b", "<f8"],
    ],
    [
      ["a", "|u1"],
      ["f1", "|V7"],
      ["b", "<f8"],
    ],
    16,
    "[('a', 'u1'), ('f1', 'V7'), ('b', '<f8')]",
    [
      ["a", 0, 1],
      ["f1", 1, 7],
      ["b", 8, 8],
    ],
  ],
  [
    [
      ["a", "|u1"],
      ["", "|V7"],
      ["b", "<f8"],
      ["c", "|u1"],
      ["", "|V7"],
    ],
    [
      ["a", "|u1"],
      ["f1", "|V7"],
      ["b", "<f8"],
      ["c", "|u1"],
      ["f4", "|V7"],
    ],
    24,
    "[('a', 'u1'), ('f1', 'V7'), ('b', '<f8'), ('c', 'u1'), ('f4', 'V7')]",
    [
      ["a", 0, 1],
      ["f1", 1, 7],
      ["b", 8, 8],
      ["c", 16, 1],
      ["f4", 17, 7],
    ],
  ],
  [
    [
      [
        "a",
        [
          ["p", "|u1"],
          ["", "|V7"],
          ["q", "<i8"],
        ],
      ],
      ["b", "|u1"],
      ["", "|V7"],
    ],
    [
      [
        "a",
        [
          ["p", "|u1"],
          ["f1", "|V7"],
          ["q", "<i8"],
        ],
      ],
      ["b", "|u1"],
      ["f2", "|V7"],
    ],
    24,
    "[('a', [('p', 'u1'), ('f1', 'V7'), ('q', '<i8')]), ('b', 'u1'), ('f2', 'V7')]",
    [
      ["a", 0, 16],
      ["b", 16, 1],
      ["f2", 17, 7],
    ],
  ],
  [
    [
      ["a", "<i4", [2, 3]],
      [
        "b",
        [
          ["x", ">f4"],
          ["y", "|u1", [2]],
        ],
      ],
    ],
    [
      ["a", "<i4", [2, 3]],
      [
        "b",
        [
          ["x", ">f4"],
          ["y", "|u1", [2]],
        ],
      ],
    ],
    30,
    "[('a', '<i4', (2, 3)), ('b', [('x', '>f4'), ('y', 'u1', (2,))])]",
    [
      ["a", 0, 24],
      ["b", 24, 6],
    ],
  ],
  [[["a", "<i4", 2]], [["a", "<i4", [2]]], 8, "[('a', '<i4', (2,))]", [["a", 0, 8]]],
  [[["a", "<i4", 1]], [["a", "<i4"]], 4, "[('a', '<i4')]", [["a", 0, 4]]],
  [[["a", "<i4", [1]]], [["a", "<i4", [1]]], 4, "[('a', '<i4', (1,))]", [["a", 0, 4]]],
  [[["a", "<i4", 0]], [["a", "<i4", [0]]], 0, "[('a', '<i4', (0,))]", [["a", 0, 0]]],
  [[["a", "<i4", [2, 0]]], [["a", "<i4", [2, 0]]], 0, "[('a', '<i4', (2, 0))]", [["a", 0, 0]]],
  [
    [
      ["a", "<M8[ns]"],
      ["b", "<U2"],
      ["c", "|b1"],
      ["d", "|S3"],
      ["e", ">c8"],
      ["f", "|V2"],
      ["g", "<f2"],
      ["h", "<m8[10s]"],
      ["i", "<i1"],
      ["j", ">M8"],
    ],
    [
      ["a", "<M8[ns]"],
      ["b", "<U2"],
      ["c", "|b1"],
      ["d", "|S3"],
      ["e", ">c8"],
      ["f", "|V2"],
      ["g", "<f2"],
      ["h", "<m8[10s]"],
      ["i", "|i1"],
      ["j", ">M8"],
    ],
    49,
    "[('a', '<M8[ns]'), ('b', '<U2'), ('c', '?'), ('d', 'S3'), ('e', '>c8'), ('f', 'V2'), ('g', '<f2'), ('h', '<m8[10s]'), ('i', 'i1'), ('j', '>M8')]",
    [
      ["a", 0, 8],
      ["b", 8, 8],
      ["c", 16, 1],
      ["d", 17, 3],
      ["e", 20, 8],
      ["f", 28, 2],
      ["g", 30, 2],
      ["h", 32, 8],
      ["i", 40, 1],
      ["j", 41, 8],
    ],
  ],
  [[["a", [["b", "<i4"]], [2]]], [["a", [["b", "<i4"]], [2]]], 8, "[('a', [('b', '<i4')], (2,))]", [["a", 0, 8]]],
  [
    [
      ["", "<i4"],
      ["", "<i4"],
    ],
    [
      ["f0", "<i4"],
      ["f1", "<i4"],
    ],
    8,
    "[('f0', '<i4'), ('f1', '<i4')]",
    [
      ["f0", 0, 4],
      ["f1", 4, 4],
    ],
  ],
  [
    [
      ["it's", "<i4"],
      ['q"', "|u1"],
      ["nl\n", "|u1"],
      ["\u00e9\u00a0", "|u1"],
    ],
    [
      ["it's", "<i4"],
      ['q"', "|u1"],
      ["nl\n", "|u1"],
      ["\u00e9\u00a0", "|u1"],
    ],
    7,
    "[(\"it's\", '<i4'), ('q\"', 'u1'), ('nl\\n', 'u1'), ('\u00e9\\xa0', 'u1')]",
    [
      ["it's", 0, 4],
      ['q"', 4, 1],
      ["nl\n", 5, 1],
      ["\u00e9\u00a0", 6, 1],
    ],
  ],
  [[], [], 0, "[]", []],
  [[["a", []]], [["a", []]], 0, "[('a', [])]", [["a", 0, 0]]],
];

// What users pass as `zarr.create(dtype=...)` and the dtype zarr-python writes into `.zarray`.
const FROM_USER: [string, string][] = [
  ["i4", "<i4"],
  ["f8", "<f8"],
  ["float32", "<f4"],
  ["int64", "<i8"],
  ["uint8", "|u1"],
  ["bool", "|b1"],
  ["complex128", "<c16"],
  ["datetime64[ns]", "<M8[ns]"],
  ["S10", "|S10"],
  ["U5", "<U5"],
  ["<f4", "<f4"],
  [">i2", ">i2"],
  ["int8", "|i1"],
  ["int16", "<i2"],
  ["int32", "<i4"],
  ["uint16", "<u2"],
  ["uint32", "<u4"],
  ["uint64", "<u8"],
  ["float16", "<f2"],
  ["float64", "<f8"],
  ["complex64", "<c8"],
  ["timedelta64[s]", "<m8[s]"],
  [">datetime64[ns]", ">M8[ns]"],
  ["?", "|b1"],
  ["b", "|i1"],
  ["B", "|u1"],
  ["h", "<i2"],
  ["H", "<u2"],
  ["i", "<i4"],
  ["I", "<u4"],
  ["l", "<i8"],
  ["L", "<u8"],
  ["q", "<i8"],
  ["Q", "<u8"],
  ["e", "<f2"],
  ["f", "<f4"],
  ["d", "<f8"],
  ["F", "<c8"],
  ["D", "<c16"],
  [">i", ">i4"],
  [">f", ">f4"],
  ["M8[10s]", "<M8[10s]"],
  ["m8[D]", "<m8[D]"],
  ["S", "|S0"],
  ["U", "<U0"],
  ["V8", "|V8"],
  ["|V3", "|V3"],
  ["float", "<f8"],
  ["int", "<i8"],
  ["complex", "<c16"],
  ["uint", "<u8"],
  ["half", "<f2"],
  ["single", "<f4"],
  ["double", "<f8"],
  ["bool_", "|b1"],
  ["object", "|O"],
  ["O", "|O"],
  [">U3", ">U3"],
  ["<M8[us]", "<M8[us]"],
  ["S0", "|S0"],
];

describe("parseDataType reads simple dtypes as zarr-python normalises them", () => {
  it.each(SIMPLE)("%s is written back as %s", (json, written, itemsize, name) => {
    const dtype = parseDataType(json);
    expect(dataTypeToJSON(dtype)).toBe(written);
    expect(dtype.itemsize).toBe(itemsize);
    expect(numpyName(dtype)).toBe(name);
  });

  it("keeps kind, byte order, item size and unit in the model", () => {
    expect(parseDataType("<i1")).toEqual({ kind: "i", byteOrder: "|", itemsize: 1 });
    expect(parseDataType(">f8")).toEqual({ kind: "f", byteOrder: ">", itemsize: 8 });
    expect(parseDataType("<U5")).toEqual({ kind: "U", byteOrder: "<", itemsize: 20 });
    expect(parseDataType("|S12")).toEqual({ kind: "S", byteOrder: "|", itemsize: 12 });
    expect(parseDataType("|O")).toEqual({ kind: "O", byteOrder: "|", itemsize: 8 });
    expect(parseDataType(">M8[10s]")).toEqual({ kind: "M", byteOrder: ">", itemsize: 8, unit: "10s" });
    expect(parseDataType("<m8[1ns]")).toEqual({ kind: "m", byteOrder: "<", itemsize: 8, unit: "ns" });
    expect(parseDataType("<M8")).toEqual({ kind: "M", byteOrder: "<", itemsize: 8, unit: "generic" });
  });

  it("typestr writes dtype.str", () => {
    expect(typestr({ kind: "U", byteOrder: ">", itemsize: 12 })).toBe(">U3");
    expect(typestr({ kind: "M", byteOrder: "<", itemsize: 8, unit: "generic" })).toBe("<M8");
    expect(typestr({ kind: "m", byteOrder: "<", itemsize: 8, unit: "25ms" })).toBe("<m8[25ms]");
    expect(typestr({ kind: "O", byteOrder: "|", itemsize: 8 })).toBe("|O");
  });
});

describe("parseDataType reads structured descrs as NumPy builds them", () => {
  it.each(STRUCTURED)("%j", (json, written, itemsize, name, fields) => {
    const dtype = parseDataType(json) as StructuredDataType;
    expect(dtype.kind).toBe("structured");
    expect(dataTypeToJSON(dtype)).toEqual(written);
    expect(dtype.itemsize).toBe(itemsize);
    expect(numpyName(dtype)).toBe(name);
    expect(dtype.fields.map((f) => [f.name, f.offset, f.shape.reduce((n, d) => n * d, f.dtype.itemsize)])).toEqual(
      fields,
    );
  });

  it("models nested and subarray fields", () => {
    expect(
      parseDataType([
        ["a", "<i4", [2, 3]],
        [
          "b",
          [
            ["x", ">f4"],
            ["y", "|u1", [2]],
          ],
        ],
      ]),
    ).toEqual({
      kind: "structured",
      itemsize: 30,
      fields: [
        { name: "a", dtype: { kind: "i", byteOrder: "<", itemsize: 4 }, shape: [2, 3], offset: 0 },
        {
          name: "b",
          dtype: {
            kind: "structured",
            itemsize: 6,
            fields: [
              { name: "x", dtype: { kind: "f", byteOrder: ">", itemsize: 4 }, shape: [], offset: 0 },
              { name: "y", dtype: { kind: "u", byteOrder: "|", itemsize: 1 }, shape: [2], offset: 4 },
            ],
          },
          shape: [],
          offset: 24,
        },
      ],
    });
  });

  it("writes gaps between fields as NumPy's descr does, as unnamed void fields", () => {
    // np.dtype({'names': ['a', 'b'], 'formats': ['u1', '<i4'], 'offsets': [0, 8], 'itemsize': 16}).descr
    const dtype: DataType = {
      kind: "structured",
      itemsize: 16,
      fields: [
        { name: "a", dtype: { kind: "u", byteOrder: "|", itemsize: 1 }, shape: [], offset: 0 },
        { name: "b", dtype: { kind: "i", byteOrder: "<", itemsize: 4 }, shape: [], offset: 8 },
      ],
    };
    expect(dataTypeToJSON(dtype)).toEqual([
      ["a", "|u1"],
      ["", "|V7"],
      ["b", "<i4"],
      ["", "|V4"],
    ]);
    expect(numpyName(dtype)).toBe("{'names': ['a', 'b'], 'formats': ['u1', '<i4'], 'offsets': [0, 8], 'itemsize': 16}");
  });
});

describe("dataTypeFromUser takes what zarr.create takes", () => {
  it.each(FROM_USER)("%s is created as %s", (spec, written) => {
    expect(dataTypeToJSON(dataTypeFromUser(spec))).toBe(written);
  });

  it("takes structured dtypes with NumPy names in their fields", () => {
    // zarr.create(dtype=[('a', 'f4'), ('b', 'int64', (2,)), ('c', [('d', '?')])]) writes:
    expect(
      dataTypeToJSON(
        dataTypeFromUser([
          ["a", "f4"],
          ["b", "int64", [2]],
          ["c", [["d", "?"]]],
        ]),
      ),
    ).toEqual([
      ["a", "<f4"],
      ["b", "<i8", [2]],
      ["c", [["d", "|b1"]]],
    ]);
  });

  it.each(["M8", "datetime64", "m8", "timedelta64", "<M8[generic]"])(
    "refuses generic datetimes like zarr-python: %s",
    (spec) => {
      expect(() => dataTypeFromUser(spec)).toThrow(/generic units are not supported/);
    },
  );

  it("does not take zarr-python's object codec shorthands", () => {
    expect(() => dataTypeFromUser("str")).toThrow(/object codec/);
  });
});

describe("dataTypeEquals", () => {
  it("compares normalised dtypes", () => {
    expect(dataTypeEquals(parseDataType("<i1"), parseDataType(">i1"))).toBe(true);
    expect(dataTypeEquals(parseDataType("=f8"), dataTypeFromUser("float64"))).toBe(true);
    expect(dataTypeEquals(parseDataType("<f8"), parseDataType(">f8"))).toBe(false);
    expect(dataTypeEquals(parseDataType("<M8[ns]"), parseDataType("<M8[us]"))).toBe(false);
    expect(dataTypeEquals(parseDataType("<m8[1s]"), parseDataType("<m8[s]"))).toBe(true);
    expect(dataTypeEquals(parseDataType("<U2"), parseDataType("|S8"))).toBe(false);
  });

  it("compares structured dtypes field by field", () => {
    const a = parseDataType([
      ["a", "<i4"],
      ["b", "<f8", [2]],
    ]);
    expect(
      dataTypeEquals(
        a,
        parseDataType([
          ["a", "<i4"],
          ["b", "<f8", [2]],
        ]),
      ),
    ).toBe(true);
    expect(
      dataTypeEquals(
        a,
        parseDataType([
          ["a", "<i4"],
          ["b", "<f8", [3]],
        ]),
      ),
    ).toBe(false);
    expect(
      dataTypeEquals(
        a,
        parseDataType([
          ["x", "<i4"],
          ["b", "<f8", [2]],
        ]),
      ),
    ).toBe(false);
    expect(dataTypeEquals(a, parseDataType("|V20"))).toBe(false);
  });
});

describe("invalid dtypes", () => {
  const key = "a/b/.zarray";

  it.each([
    ["<i3", "integers take 1, 2, 4 or 8 bytes"],
    ["<u16", "integers take 1, 2, 4 or 8 bytes"],
    ["|b2", "booleans take 1 byte"],
    ["<f16", "floats take 2, 4 or 8 bytes"],
    ["<c32", "complex numbers take 8 or 16 bytes"],
    ["<M4", "datetimes and timedeltas take 8 bytes"],
    ["<M8[B]", "unit of Y, M, W, D"],
    ["<M8[10 s]", "unit of Y, M, W, D"],
    ["<M8[0s]", "positive multiplier"],
    ["<M8[-1s]", "positive multiplier"],
    ["<M8[2147483648s]", "positive multiplier"],
    ["<i4[ns]", "only M8 and m8 take a [unit]"],
    ["|S", "with a length"],
    ["<U", "with a length"],
    ["<U536870912", "at most 2147483647 bytes"],
    ["|O4", "object references take 8 bytes"],
    ["float32", "a type string"],
    ["<f8 ", "a type string"],
    ["<F8", "a type string"],
    ["", "a type string"],
  ])("%s", (json, expected) => {
    const err = catchError(() => parseDataType(json, key));
    expect(err).toBeInstanceOf(DataTypeError);
    expect(err).toMatchObject({ code: "ZARR_DTYPE", key });
    expect(err.message).toContain(`in "${key}"`);
    expect(err.message).toContain(JSON.stringify(json));
    expect(err.message).toContain(expected);
  });

  it.each([
    [42, "a type string such as"],
    [null, "a type string such as"],
    [{ a: 1 }, "a type string such as"],
    [["a", "<i4"], "a field [name, dtype] or [name, dtype, shape]"],
    [[["a"]], "a field [name, dtype] or [name, dtype, shape]"],
    [[["a", "<i4", [2], 5]], "a field [name, dtype] or [name, dtype, shape]"],
    [[[1, "<i4"]], "a string (titled fields are not supported)"],
    [[[["title", "a"], "<i4"]], "a string (titled fields are not supported)"],
    [
      [
        ["a", "<i4"],
        ["a", "<f8"],
      ],
      "field names that occur once",
    ],
    [
      [
        ["f1", "<i4"],
        ["", "<f8"],
      ],
      "field names that occur once",
    ],
    [[["a", 4]], "a type string or a list of fields"],
    [[["a", "<i3"]], "integers take 1, 2, 4 or 8 bytes"],
    [[["a", "|O"]], "fields of fixed-size types"],
    [[["a", "<i4", [-1]]], "a list of non-negative integers"],
    [[["a", "<i4", "x"]], "a list of non-negative integers"],
    [[["a", "<i4", [2.5]]], "a list of non-negative integers"],
    [[["a", "<i4", [true]]], "a list of non-negative integers"],
    [[["a", [["b", "<i3"]]]], "integers take 1, 2, 4 or 8 bytes"],
  ] as [JsonValue, string][])("%j", (json, expected) => {
    const err = catchError(() => parseDataType(json, key));
    expect(err).toBeInstanceOf(DataTypeError);
    expect(err).toMatchObject({ code: "ZARR_DTYPE", key });
    expect(err.message).toContain(expected);
  });

  it("names no key when there is none", () => {
    const err = catchError(() => dataTypeFromUser("float33"));
    expect(err).toMatchObject({ code: "ZARR_DTYPE", key: undefined });
    expect(err.message).toBe(
      'Invalid dtype: expected a type string: byte order <, > or |, then b1, i1/i2/i4/i8, u1/u2/u4/u8, f2/f4/f8, c8/c16, M8[unit], m8[unit], S<n>, U<n>, V<n> or O (e.g. "<f8", "|S12", "<M8[ns]"), or one of TensorStore\'s extension dtypes (bfloat16, float8_e3m4, float8_e4m3fn, float8_e4m3fnuz, float8_e4m3b11fnuz, float8_e5m2, float8_e5m2fnuz, int4, int2), or a NumPy name such as "float32", "int64", "bool" or "datetime64[ns]", found "float33"',
    );
  });
});

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected an error");
}
