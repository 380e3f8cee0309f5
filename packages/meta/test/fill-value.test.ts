import { describe, expect, it } from "vitest";
import {
  JsonFloat,
  MetadataError,
  DataTypeError,
  dataTypeFromUser,
  decodeFillValue,
  encodeFillValue,
  fillValueBytes,
  fillValueToElement,
  normalizeFillValue,
  parseDataType,
  parseJson,
  stringifyJson,
  type JsonValue,
} from "@z/meta";

const key = "a/.zarray";

// zarr.create(shape=(2,), dtype=X, fill_value=Y) in zarr-python 2.13: [the dtype it wrote, the JS
// value for Y, the fill_value text it wrote into .zarray (newlines and indentation removed), and
// np.array(z.fill_value, dtype=z.dtype).tobytes()].
const CREATE: [JsonValue, unknown, string, string | null][] = [
  [">u8", 18446744073709551615n, "18446744073709551615", "ffffffffffffffff"],
  ["<u8", 0, "0", "0000000000000000"],
  ["<i8", -(2n ** 63n), "-9223372036854775808", "0000000000000080"],
  ["<i8", 5, "5", "0500000000000000"],
  ["<i8", 5n, "5", "0500000000000000"],
  ["<i4", 42, "42", "2a000000"],
  ["<i4", true, "1", "01000000"],
  [">i2", -2, "-2", "fffe"],
  ["|u1", 255, "255", "ff"],
  ["|i1", -128, "-128", "80"],
  ["<u4", 4294967295n, "4294967295", "ffffffff"],
  ["<f4", NaN, '"NaN"', "0000c07f"],
  ["<f4", "NaN", '"NaN"', "0000c07f"],
  ["<f4", "nan", '"NaN"', "0000c07f"],
  ["<f4", "-Infinity", '"-Infinity"', "000080ff"],
  ["<f4", "inf", '"Infinity"', "0000807f"],
  ["<f4", " 2.5 ", "2.5", "00002040"],
  ["<f4", "1_0", "10.0", "00002041"],
  ["<f4", 0.1, "0.10000000149011612", "cdcccc3d"],
  ["<f4", 1e39, '"Infinity"', "0000807f"],
  ["<f8", 0, "0.0", "0000000000000000"],
  ["<f8", -0, "0.0", "0000000000000000"],
  ["<f8", 0.1, "0.1", "9a9999999999b93f"],
  ["<f8", 5, "5.0", "0000000000001440"],
  ["<f8", true, "1.0", "000000000000f03f"],
  ["<f8", 1e16, "1e+16", "0080e03779c34143"],
  ["<f8", 1e-7, "1e-07", "48afbc9af2d77a3e"],
  ["<f8", -Infinity, '"-Infinity"', "000000000000f0ff"],
  [">f8", 1.5, "1.5", "3ff8000000000000"],
  ["<f8", 2n ** 70n, "1.1805916207174113e+21", "0000000000005044"],
  ["<f2", 0.1, "0.0999755859375", "662e"],
  ["<f2", 70000, '"Infinity"', "007c"],
  ["<f2", 65519, "65504.0", "ff7b"],
  ["<f2", 1e-8, "0.0", "0000"],
  [">f2", -3e-8, "-5.960464477539063e-08", "8001"],
  ["<f4", null, "null", null],
  ["|b1", 0, "false", "00"],
  ["|b1", 1, "true", "01"],
  ["|b1", true, "true", "01"],
  ["|b1", false, "false", "00"],
  ["|b1", 5, "true", "01"],
  ["|b1", 0.5, "true", "01"],
  ["|b1", NaN, "true", "01"],
  ["<c16", [1, 2], "[1.0,2.0]", "000000000000f03f0000000000000040"],
  ["<c8", [0.1, 0.2], "[0.10000000149011612,0.20000000298023224]", "cdcccc3dcdcc4c3e"],
  // zarr-python's bytes had the sign bit of this NaN set (x86's default NaN from re-reading the
  // value as re + 1j * im); JS writes the canonical NaN.
  ["<c16", [NaN, Infinity], '["NaN","Infinity"]', "000000000000f87f000000000000f07f"],
  ["<c16", [-Infinity, 0], '["-Infinity",0.0]', "000000000000f0ff0000000000000000"],
  ["<c16", 3, "[3.0,0.0]", "00000000000008400000000000000000"],
  ["<c16", 0, "[0.0,0.0]", "00000000000000000000000000000000"],
  [">c8", [-0, -1], "[-0.0,-1.0]", "80000000bf800000"],
  ["<c16", [-0, 0], "[0.0,0.0]", "00000000000000000000000000000000"],
  ["<c8", 1e39, '["Infinity",0.0]', "0000807f00000000"],
  ["|S5", bytes("ab"), '"YWI="', "6162000000"],
  ["|S5", 0, '""', "0000000000"],
  ["|S5", bytes("ab\0\0\0"), '"YWI="', "6162000000"],
  ["|S5", bytes("\0ab"), '"AGFi"', "0061620000"],
  ["|S5", bytes("abcdefg"), '"YWJjZGU="', "6162636465"],
  ["|S5", "abc", '"YWJj"', "6162630000"],
  ["|S5", bytes("a\0b"), '"YQBi"', "6100620000"],
  // NumPy stores an |S0 scalar in a 1-byte array; the element itself has no bytes.
  ["|S0", 0, '""', ""],
  ["<U5", "héllo", '"h\\u00e9llo"', "68000000e90000006c0000006c0000006f000000"],
  ["<U5", 0, '""', "0000000000000000000000000000000000000000"],
  ["<U5", "toolongvalue", '"toolongvalue"', "740000006f0000006f0000006c0000006f000000"],
  [">U3", "ab", '"ab"', "000000610000006200000000"],
  ["<U2", "\u{1F600}x", '"\\ud83d\\ude00x"', "00f6010078000000"],
  ["|V4", bytes("\x01\x02\x03\x04"), '"AQIDBA=="', "01020304"],
  ["|V4", bytes("\x01\x02"), '"AQIAAA=="', "01020000"],
  ["|V4", bytes("\x01\x02\x03\x04\x05\x06"), '"AQIDBA=="', "01020304"],
  ["|V4", 0, '"AAAAAA=="', "00000000"],
  ["<M8[ns]", 1577836800000000000n, "1577836800000000000", "00008ab9359ae515"],
  ["<M8[ns]", "NaT", "-9223372036854775808", "0000000000000080"],
  ["<M8[ns]", 0, "0", "0000000000000000"],
  ["<M8[ns]", 5, "5", "0500000000000000"],
  ["<m8[s]", 7n, "7", "0700000000000000"],
  [">M8[s]", 7, "7", "0000000000000007"],
  ["<M8[10s]", 3, "3", "0300000000000000"],
  ["<M8[ns]", -(2n ** 63n), "-9223372036854775808", "0000000000000080"],
  [
    [
      ["a", "<i4"],
      ["b", "<f8"],
    ],
    0,
    '"AAAAAAAAAAAAAAAA"',
    "000000000000000000000000",
  ],
  [
    [
      ["a", "<i4"],
      ["b", "<f8"],
    ],
    new Uint8Array(12).fill(1),
    '"AQEBAQEBAQEBAQEB"',
    "010101010101010101010101",
  ],
  [
    [
      ["a", "<i4"],
      ["b", "<f8"],
    ],
    new Uint8Array(3).fill(1),
    '"AQEBAAAAAAAAAAAA"',
    "010101000000000000000000",
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
    0,
    '"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"',
    "000000000000000000000000000000000000000000000000000000000000",
  ],
  [
    [
      ["a", "<i4"],
      ["b", ">u2", [2]],
    ],
    Uint8Array.from([7, 0, 0, 0, 0, 1, 0, 2]),
    '"BwAAAAABAAI="',
    "0700000000010002",
  ],
  ["|O", 0, "0", null],
  ["|O", null, "null", null],
  ["|O", "x", '"x"', null],
];

describe("normalizeFillValue then encodeFillValue write what zarr.create writes", () => {
  it.each(CREATE)("%s with fill_value %s", (dtypeJson, fill, written, hex) => {
    const dtype = dataTypeFromUser(dtypeJson);
    const canonical = normalizeFillValue(fill, dtype);
    expect(compact(stringifyJson(encodeFillValue(canonical, dtype)))).toBe(written);
    if (hex !== null) expect(toHex(fillValueBytes(canonical, dtype))).toBe(hex);
    // What zarr-python writes reads back as the same value.
    expect(decodeFillValue(parseJson(written), dtype, key)).toEqual(canonical);
  });

  it("gives the canonical JS values the FillValue type describes", () => {
    expect(normalizeFillValue(0, parseDataType("<f8"))).toBe(0);
    expect(Object.is(normalizeFillValue(-0, parseDataType("<f8")), 0)).toBe(true);
    expect(normalizeFillValue(0.1, parseDataType("<f4"))).toBe(Math.fround(0.1));
    expect(normalizeFillValue(7, parseDataType("<i8"))).toBe(7n);
    expect(normalizeFillValue(7n, parseDataType("<i4"))).toBe(7);
    expect(normalizeFillValue(0, parseDataType("|b1"))).toBe(false);
    expect(normalizeFillValue(0, parseDataType("<U3"))).toBe("");
    expect(normalizeFillValue(0, parseDataType("<M8[ns]"))).toBe(0n);
    expect(normalizeFillValue("NaT", parseDataType("<m8[s]"))).toBe(-(2n ** 63n));
    expect(normalizeFillValue(2, parseDataType("<c8"))).toEqual([2, 0]);
    expect(normalizeFillValue("ab", parseDataType("|S4"))).toEqual(Uint8Array.from([97, 98, 0, 0]));
    expect(normalizeFillValue(undefined, parseDataType("<f8"))).toBe(null);
    const obj = { any: "thing" };
    expect(normalizeFillValue(obj, parseDataType("|O"))).toBe(obj);
  });

  it("writes floats as Python floats", () => {
    expect(encodeFillValue(0, parseDataType("<f8"))).toEqual(new JsonFloat(0));
    expect(encodeFillValue([1, NaN], parseDataType("<c16"))).toEqual([new JsonFloat(1), "NaN"]);
  });
});

// Metadata2.decode_fill_value(json, dtype) in zarr-python 2.13: [dtype, fill_value JSON text,
// np.array(value, dtype).tobytes(), json.dumps(Metadata2.encode_fill_value(value, dtype))], legacy
// and odd values included.
const DECODE: [JsonValue, string, string | null, string][] = [
  ["<f4", '"NaN"', "0000c07f", '"NaN"'],
  ["<f4", '"Infinity"', "0000807f", '"Infinity"'],
  ["<f4", '"-Infinity"', "000080ff", '"-Infinity"'],
  ["<f4", "0", "00000000", "0.0"],
  ["<f4", "1.5", "0000c03f", "1.5"],
  ["<f4", "0.1", "cdcccc3d", "0.10000000149011612"],
  ["<f4", "1e39", "0000807f", '"Infinity"'],
  ["<f4", "-0.0", "00000080", "-0.0"],
  ["<f4", "65520", "00f07f47", "65520.0"],
  ["<f4", "16777217", "0000804b", "16777216.0"],
  [">f8", "0.1", "3fb999999999999a", "0.1"],
  [">f8", '"NaN"', "7ff8000000000000", '"NaN"'],
  [">f8", "0", "0000000000000000", "0.0"],
  [">f8", "-0.0", "8000000000000000", "-0.0"],
  [">f8", "1e+16", "4341c37937e08000", "1e+16"],
  [">f8", "18446744073709551615", "43f0000000000000", "1.8446744073709552e+19"],
  ["<f2", "0.1", "662e", "0.0999755859375"],
  ["<f2", "65520", "007c", '"Infinity"'],
  ["<f2", "65519", "ff7b", "65504.0"],
  ["<f2", "1e-8", "0000", "0.0"],
  ["<f2", "6e-8", "0100", "5.960464477539063e-08"],
  ["<f2", "3e-8", "0100", "5.960464477539063e-08"],
  ["<f2", "-2.5", "00c1", "-2.5"],
  ["|u1", "0", "00", "0"],
  ["|u1", "5", "05", "5"],
  ["|u1", "255", "ff", "255"],
  ["|u1", "2.0", "02", "2"],
  ["<i2", "-32768", "0080", "-32768"],
  ["<i2", "32767", "ff7f", "32767"],
  ["<u4", "4294967295", "ffffffff", "4294967295"],
  ["<i8", "0", "0000000000000000", "0"],
  ["<i8", "-1", "ffffffffffffffff", "-1"],
  ["<i8", "9223372036854775807", "ffffffffffffff7f", "9223372036854775807"],
  ["<i8", "-9223372036854775808", "0000000000000080", "-9223372036854775808"],
  [">u8", "18446744073709551615", "ffffffffffffffff", "18446744073709551615"],
  [">u8", "9223372036854775808", "8000000000000000", "9223372036854775808"],
  [">u8", "0", "0000000000000000", "0"],
  ["|b1", "true", "01", "true"],
  ["|b1", "false", "00", "false"],
  ["|b1", "0", "00", "false"],
  ["|b1", "1", "01", "true"],
  ["<c16", "[1.0, 2.0]", "000000000000f03f0000000000000040", "[1.0,2.0]"],
  // NumPy's bytes: 000000000000f8ff000000000000f0ff (x86's default NaN has the sign bit set).
  ["<c16", '["NaN","-Infinity"]', "000000000000f87f000000000000f0ff", '["NaN","-Infinity"]'],
  ["<c16", "[0.1, 0.2]", "9a9999999999b93f9a9999999999c93f", "[0.1,0.2]"],
  ["<c16", "[0, -0.0]", "00000000000000000000000000000000", "[0.0,0.0]"],
  ["<c8", "[0.1, 0.2]", "cdcccc3dcdcc4c3e", "[0.10000000149011612,0.20000000298023224]"],
  ["<c8", "[1e39, 0]", "0000807f00000000", '["Infinity",0.0]'],
  ["|S5", '"YWI="', "6162000000", '"YWI="'],
  ["|S5", '""', "0000000000", '""'],
  ["|S5", "0", "3000000000", '"MA=="'],
  ["|S5", '"AGFi"', "0061620000", '"AGFi"'],
  ["|S5", '"YWJjZGVmZ2g="', "6162636465", '"YWJjZGU="'],
  ["|S5", '"!!"', "0000000000", '""'],
  ["|S5", '"YW"', "5957000000", '"WVc="'],
  ["|S5", "5", "3500000000", '"NQ=="'],
  ["|S5", '"abc"', "6162630000", '"YWJj"'],
  ["|S5", '"YWJj\\n"', "6162630000", '"YWJj"'],
  ["|S5", '"YW Jj"', "6162630000", '"YWJj"'],
  ["|S5", '"YWJjZA"', "59574a6a5a", '"WVdKalo="'],
  ["|S5", '"YW=="', "6100000000", '"YQ=="'],
  ["|S5", '"YWI=="', "6162000000", '"YWI="'],
  ["|S5", '"YQ=Q"', "59513d5100", '"WVE9UQ=="'],
  ["|S5", '"-_8="', "2d5f383d00", '"LV84PQ=="'],
  ["|S5", '"AAAAAA=="', "0000000000", '""'],
  ["|S5", "true", "5472756500", '"VHJ1ZQ=="'],
  ["|S5", "1.5", "312e350000", '"MS41"'],
  ["|S5", "1e20", "31652b3230", '"MWUrMjA="'],
  ["|S5", "-3", "2d33000000", '"LTM="'],
  ["|S5", "12345678", "3132333435", '"MTIzNDU="'],
  ["|S5", '"=YWI="', "6162000000", '"YWI="'],
  ["|S5", '"Y=WI="', "6162000000", '"YWI="'],
  ["|S5", '"YWI=garbage"', "6162000000", '"YWI="'],
  ["|V4", '"AQIDBA=="', "01020304", '"AQIDBA=="'],
  ["|V4", '"AQI="', "01020000", '"AQIAAA=="'],
  ["|V4", '"AQIDBAUG"', "01020304", '"AQIDBA=="'],
  ["|V4", '""', "00000000", '"AAAAAA=="'],
  ["|V4", '"AAAAAA=="', "00000000", '"AAAAAA=="'],
  ["|V4", '"A Q I D"', "01020300", '"AQIDAA=="'],
  ["<U5", '"abc"', "6100000062000000630000000000000000000000", '"abc"'],
  ["<U5", '""', "0000000000000000000000000000000000000000", '""'],
  ["<U5", "0", "3000000000000000000000000000000000000000", "0"],
  ["<U5", "5", "3500000000000000000000000000000000000000", "5"],
  ["<U5", '"toolongvalue"', "740000006f0000006f0000006c0000006f000000", '"toolongvalue"'],
  ["<U5", '"\\u00e9\\ud83d\\ude00"', "e900000000f60100000000000000000000000000", '"\\u00e9\\ud83d\\ude00"'],
  [">U2", '"ab"', "0000006100000062", '"ab"'],
  ["<M8[ns]", "0", "0000000000000000", "0"],
  ["<M8[ns]", "5", "0500000000000000", "5"],
  ["<M8[ns]", "-9223372036854775808", "0000000000000080", "-9223372036854775808"],
  ["<M8[ns]", '"NaT"', "0000000000000080", "-9223372036854775808"],
  ["<M8[ns]", "9223372036854775807", "ffffffffffffff7f", "9223372036854775807"],
  [">m8[s]", "-1", "ffffffffffffffff", "-1"],
  [">m8[s]", '"NaT"', "8000000000000000", "-9223372036854775808"],
  ["|O", "0", null, "0"],
  ["|O", '"x"', null, '"x"'],
  ["|O", '{"a": 1}', null, '{"a": 1}'],
  ["|O", "1.5", null, "1.5"],
  [
    [
      ["a", "<i2"],
      ["b", "|u1", [2]],
    ],
    '"AQIDBA=="',
    "01020304",
    '"AQIDBA=="',
  ],
  [
    [
      ["a", "<i2"],
      ["b", "|u1", [2]],
    ],
    '"AQI="',
    "01020000",
    '"AQIAAA=="',
  ],
  [
    [
      ["a", "<i2"],
      ["b", "|u1", [2]],
    ],
    '""',
    "00000000",
    '"AAAAAA=="',
  ],
];

describe("decodeFillValue reads what zarr-python reads", () => {
  it.each(DECODE)("%s reads %s", (dtypeJson, text, hex, rewritten) => {
    const dtype = parseDataType(dtypeJson);
    const value = decodeFillValue(parseJson(text), dtype, key);
    if (hex !== null) expect(toHex(fillValueBytes(value, dtype))).toBe(hex);
    expect(compact(stringifyJson(encodeFillValue(value, dtype)))).toBe(rewritten);
  });

  it("reads legacy and lenient values as zarr-python does", () => {
    // The legacy 0 of a bytes dtype is not base64, so NumPy makes it the text "0".
    expect(decodeFillValue(0, parseDataType("|S3"))).toEqual(Uint8Array.from([0x30, 0, 0]));
    expect(decodeFillValue(0, parseDataType("|b1"))).toBe(false);
    expect(decodeFillValue(1, parseDataType("|b1"))).toBe(true);
    expect(decodeFillValue(0, parseDataType("<f8"))).toBe(0);
    expect(decodeFillValue(5, parseDataType("<i8"))).toBe(5n);
    expect(decodeFillValue(5, parseDataType("<u2"))).toBe(5);
    // A legacy number of a U dtype stays a number (zarr-python writes it back as is) and fills as its text.
    expect(decodeFillValue(0, parseDataType("<U3"))).toBe(0);
    expect(fillValueBytes(0, parseDataType("<U2"))).toEqual(Uint8Array.from([0x30, 0, 0, 0, 0, 0, 0, 0]));
    expect(decodeFillValue(null, parseDataType("<f8"))).toBe(null);
    expect(decodeFillValue("NaT", parseDataType("<M8[ns]"))).toBe(-(2n ** 63n));
  });

  it("reproduces zarr-python's re + 1j * im for complex fill values", () => {
    // Metadata2.decode_fill_value([1.0, "Infinity"], np.dtype("<c16")) == (nan+infj)
    expect(decodeFillValue([1, "Infinity"], parseDataType("<c16"))).toEqual([NaN, Infinity]);
    // ... [1.0, "NaN"] -> (nan+nanj); [-0.0, 1.0] -> 1j; [-0.0, -0.0] -> (-0+0j); ["NaN", 1.0] -> (nan+1j)
    expect(decodeFillValue([1, "NaN"], parseDataType("<c8"))).toEqual([NaN, NaN]);
    expect(decodeFillValue([-0, 1], parseDataType("<c16"))).toEqual([0, 1]);
    const negZero = decodeFillValue([-0, -0], parseDataType("<c16")) as number[];
    expect([Object.is(negZero[0], -0), Object.is(negZero[1], 0)]).toEqual([true, true]);
    expect(decodeFillValue(["NaN", 1], parseDataType("<c16"))).toEqual([NaN, 1]);
  });
});

describe("invalid fill values", () => {
  // Each of these is an error in zarr-python 2.13 too.
  it.each([
    ["<f4", "abc", 'a number or "NaN", "Infinity" or "-Infinity"'],
    ["<f4", "", 'a number or "NaN", "Infinity" or "-Infinity"'],
    ["|V4", 0, "base64 text of the element's bytes"],
    ["|V4", "A", "base64 text of the element's bytes"],
    ["|V4", "AAAAA", "base64 text of the element's bytes"],
    ["<c16", [1], "[real, imaginary]"],
    ["<c16", 0, "[real, imaginary]"],
    ["<c16", "1+2j", "[real, imaginary]"],
    ["<c16", [1, "x"], 'a number or "NaN"'],
    ["<M8[ns]", 1.5, "an integer count of the unit"],
    ["<M8[ns]", 9223372036854775808n, "an integer count of the unit"],
    ["<M8[ns]", "x", "an integer count of the unit"],
    ["<i8", 18446744073709551615n, "an integer from -9223372036854775808 to 9223372036854775807"],
    ["|u1", 9223372036854775808n, "an integer from 0 to 255"],
    ["<u8", -9223372036854775809n, "an integer from 0 to 18446744073709551615"],
    ["|S5", "é", "base64 text"],
  ] as [string, JsonValue, string][])("%s %s", (dtypeJson, json, expected) => {
    expectFillError(() => decodeFillValue(json, parseDataType(dtypeJson), key), expected, key);
  });

  // zarr-python lets NumPy coerce these (shown after ->); they are refused here.
  it.each([
    ["|u1", 300, "an integer from 0 to 255"], // -> 44
    ["|u1", -1, "an integer from 0 to 255"], // -> 255
    ["<i4", 1.5, "an integer from -2147483648 to 2147483647"], // -> 1
    ["<i4", true, "an integer from"], // -> 1
    ["<i4", "5", "an integer from"], // -> 5
    ["<f8", true, 'a number or "NaN"'], // -> 1.0
    ["<f8", "nan", 'a number or "NaN"'], // -> nan
    ["<f8", [1], 'a number or "NaN"'], // -> array([1.])
    ["|b1", 2, "true or false (or the legacy 0 or 1)"], // -> True
    ["|b1", "", "true or false"], // -> False
    ["<c16", [1, 2, 3], "[real, imaginary]"], // -> (1+2j)
    ["<U5", [1], "a string"], // -> [1]
    ["<U5", true, "a string"], // -> True
    ["<M8[D]", "2020-01-01", "an integer count of the unit"], // -> numpy.datetime64('2020-01-01')
    ["<M8[ns]", true, "an integer count of the unit"], // -> 1 ns
    ["|S5", [1], "base64 text"], // -> array([b'1'])
    ["|S5", {}, "base64 text"], // -> b'{}'
  ] as [string, JsonValue, string][])("%s %s", (dtypeJson, json, expected) => {
    expectFillError(() => decodeFillValue(json, parseDataType(dtypeJson), key), expected, key);
  });

  it("says which key and dtype", () => {
    const err = catchError(() => decodeFillValue(300, parseDataType("|u1"), key));
    expect(err.message).toBe(
      'Invalid fill_value for dtype "|u1" in "a/.zarray": expected an integer from 0 to 255, found 300',
    );
    const bare = catchError(() => normalizeFillValue(1.5, parseDataType("<i2")));
    expect(bare.message).toBe(
      'Invalid fill_value for dtype "<i2": expected an integer from -32768 to 32767, found 1.5',
    );
    expect(bare).toMatchObject({ key: undefined, field: "fill_value" });
  });

  // What users pass to create. zarr-python's result, where it has one, after ->.
  it.each([
    ["|u1", 300, "an integer from 0 to 255"], // -> 44
    ["|u1", -1, "an integer from 0 to 255"], // -> 255
    ["<u8", 2n ** 64n, "an integer from 0 to 18446744073709551615"], // ValueError
    ["<u8", -1, "an integer from 0 to 18446744073709551615"], // -> 18446744073709551615
    ["|i1", 128, "an integer from -128 to 127"], // -> -128
    ["<i4", 1.5, "an integer from"], // -> 1
    ["<i4", "5", "an integer from"], // -> 5
    ["<i4", "x", "an integer from"], // ValueError
    ["<i4", NaN, "an integer from"], // ValueError
    ["<f4", "abc", "a number"], // ValueError
    ["<f4", [1], "a number"],
    ["|b1", "abc", "true or false"], // -> True
    ["<c16", "1+2j", "a number or [real, imaginary]"], // -> (1+2j)
    ["<c16", [1, 2, 3], "a number or [real, imaginary]"],
    ["<c16", ["1", 2], "a number or [real, imaginary]"],
    ["|S5", "é", "a Uint8Array or ASCII text"], // UnicodeEncodeError
    ["|S5", 5, "a Uint8Array or ASCII text"], // -> b'5'
    ["<U5", Uint8Array.from([97]), "a string"], // ValueError: must be a unicode string
    ["<U5", 5, "a string"], // ValueError: must be a unicode string
    ["|V4", 1, "a Uint8Array of the element's bytes"], // ValueError: a bytes-like object is required
    ["|V4", "ab", "a Uint8Array of the element's bytes"],
    ["<M8[ns]", 1.5, "an integer count of the unit"],
    ["<M8[ns]", true, "an integer count of the unit"], // -> 1 ns
    ["<M8[D]", "2020-01-02", "an integer count of the unit"], // -> 18263
    ["<M8[ns]", 2n ** 63n, "an integer count of the unit"],
  ] as [string, unknown, string][])("create with %s and %s", (dtypeJson, fill, expected) => {
    expectFillError(() => normalizeFillValue(fill, dataTypeFromUser(dtypeJson)), expected, undefined);
  });

  it("refuses values of the wrong type when encoding or building bytes", () => {
    expectFillError(() => encodeFillValue("x", parseDataType("<f8")), "a number", undefined);
    expectFillError(() => encodeFillValue(1.5, parseDataType("<i4")), "an integer", undefined);
    expectFillError(() => fillValueBytes("x", parseDataType("|S2")), "a Uint8Array", undefined);
    expect(() => fillValueBytes(0, parseDataType("|O"))).toThrow(DataTypeError);
  });
});

describe("fillValueBytes", () => {
  it("gives zeros for a null fill value", () => {
    expect(fillValueBytes(null, parseDataType(">f8"))).toEqual(new Uint8Array(8));
    expect(fillValueBytes(null, parseDataType([["a", "<i4"]]))).toEqual(new Uint8Array(4));
  });

  it("writes float16 as NumPy rounds it", () => {
    // np.array(x, dtype="<f2").view("<u2") for each x
    const cases: [number, number][] = [
      [1 + 2 ** -11, 15360],
      [1 + 3 * 2 ** -11, 15362],
      [1 + 2 ** -11 + 2 ** -40, 15361],
      [2 ** -25, 0],
      [2 ** -25 * 1.0000001, 1],
      [2 ** -24 * 1.5, 2],
      [2 ** -24 * 2.5, 2],
      [65519.99, 31743],
      [NaN, 0x7e00],
    ];
    for (const [x, bits] of cases) {
      expect(fillValueToElement(normalizeFillValue(x, parseDataType("<f2")), parseDataType("<f2"))).toBe(bits);
    }
  });
});

describe("fillValueToElement gives what fills the dtype's typed array", () => {
  it.each([
    ["|b1", true, 1],
    ["|b1", null, 0],
    ["<i4", -5, -5],
    [">i8", 5n, 5n],
    ["<u8", null, 0n],
    ["<f4", Math.fround(0.1), Math.fround(0.1)],
    [">f8", NaN, NaN],
    ["<f2", 1.5, 0x3e00],
    ["<c8", [1, 2], [1, 2]],
    ["<c16", null, [0, 0]],
    ["<M8[ns]", -(2n ** 63n), -(2n ** 63n)],
    ["|S3", Uint8Array.from([97, 0, 0]), Uint8Array.from([97, 0, 0])],
    // Byte-backed elements come little-endian: U code points, and big-endian struct fields.
    [">U2", "ab", Uint8Array.from([97, 0, 0, 0, 98, 0, 0, 0])],
  ] as [string, unknown, unknown][])("%s %s", (dtypeJson, value, element) => {
    expect(fillValueToElement(value, parseDataType(dtypeJson))).toEqual(element);
  });

  it("gives struct elements little-endian", () => {
    const dtype = parseDataType([
      ["a", ">u2"],
      ["b", "<u2"],
    ]);
    expect(fillValueBytes(Uint8Array.from([1, 2, 3, 4]), dtype)).toEqual(Uint8Array.from([1, 2, 3, 4]));
    expect(fillValueToElement(Uint8Array.from([1, 2, 3, 4]), dtype)).toEqual(Uint8Array.from([2, 1, 3, 4]));
  });

  it("has none for object dtypes", () => {
    expect(() => fillValueToElement(0, parseDataType("|O"))).toThrow(DataTypeError);
  });
});

function expectFillError(fn: () => unknown, expected: string, errKey: string | undefined): void {
  const err = catchError(fn);
  expect(err).toBeInstanceOf(MetadataError);
  expect(err).toMatchObject({ code: "ZARR_METADATA", field: "fill_value", key: errKey });
  expect(err.message).toContain(expected);
  if (errKey !== undefined) expect(err.message).toContain(`in "${errKey}"`);
}

function catchError(fn: () => unknown): Error & { key?: string; field?: string } {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected an error");
}

function bytes(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

function compact(json: string): string {
  return json.replace(/\n\s*/g, "");
}

function toHex(data: Uint8Array): string {
  return Array.from(data, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
