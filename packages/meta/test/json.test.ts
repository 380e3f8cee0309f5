import { describe, expect, it } from "vitest";
import {
  JsonFloat,
  MetadataError,
  decodeJson,
  encodeJson,
  formatPythonFloat,
  parseJson,
  stringifyJson,
  type JsonValue,
} from "@z/meta";

// Every expected string below was printed by Python 3 with zarr-python's settings:
// json.dumps(v, indent=4, sort_keys=True, ensure_ascii=True, separators=(",", ": ")).

describe("formatPythonFloat", () => {
  it("writes floats as Python's repr does", () => {
    const golden: [number, string][] = [
      [0.0, "0.0"],
      [-0.0, "-0.0"],
      [1.0, "1.0"],
      [1.5, "1.5"],
      [0.1, "0.1"],
      [100.0, "100.0"],
      [1e-5, "1e-05"],
      [1e-4, "0.0001"],
      [0.0001234, "0.0001234"],
      [0.00001234, "1.234e-05"],
      [0.00030000000000000003, "0.00030000000000000003"],
      [1e15, "1000000000000000.0"],
      [1e16, "1e+16"],
      [123456789012345.6, "123456789012345.6"],
      // biome-ignore lint/correctness/noPrecisionLoss: the literal is the input whose nearest double is printed
      [1234567890123456.7, "1234567890123456.8"],
      [9999999999999998.0, "9999999999999998.0"],
      [2 ** 53, "9007199254740992.0"],
      [1e21, "1e+21"],
      [1e22, "1e+22"],
      [1.2345678901234567e19, "1.2345678901234567e+19"],
      [1e100, "1e+100"],
      [5e-324, "5e-324"],
      [2.5e-308, "2.5e-308"],
      [1.7976931348623157e308, "1.7976931348623157e+308"],
      [-1e-7, "-1e-07"],
      [1 / 3, "0.3333333333333333"],
      [4.35, "4.35"],
    ];
    for (const [value, python] of golden) expect(formatPythonFloat(value)).toBe(python);
  });

  it("writes the non-finite values as the bare tokens Python's json writes", () => {
    expect([NaN, Infinity, -Infinity].map(formatPythonFloat)).toEqual(["NaN", "Infinity", "-Infinity"]);
  });
});

describe("stringifyJson", () => {
  it("indents by four, sorts keys and writes empty containers inline", () => {
    const value = { b: [1, new JsonFloat(2.5), {}], a: { y: [], x: null }, c: true };
    expect(stringifyJson(value)).toBe(
      '{\n    "a": {\n        "x": null,\n        "y": []\n    },\n    "b": [\n        1,\n        2.5,\n        {}\n    ],\n    "c": true\n}',
    );
    expect([stringifyJson({}), stringifyJson([]), stringifyJson([[]]), stringifyJson({ a: {} })]).toEqual([
      "{}",
      "[]",
      "[\n    []\n]",
      '{\n    "a": {}\n}',
    ]);
  });

  it("escapes everything outside printable ASCII", () => {
    const value = {
      s: "café ☃ 😀",
      q: 'a"b\\c',
      ctl: "\n\r\t\b\f\x00\x1f\x7f",
      slash: "/",
    };
    expect(stringifyJson(value)).toBe(
      '{\n    "ctl": "\\n\\r\\t\\b\\f\\u0000\\u001f\\u007f",\n    "q": "a\\"b\\\\c",\n    "s": "caf\\u00e9 \\u2603 \\ud83d\\ude00",\n    "slash": "/"\n}',
    );
  });

  it("sorts keys by code point, so astral characters come after U+FFFF", () => {
    const value = { "😀": 1, "\uffff": 2, b: 3, B: 4, "": 5, é: 6 };
    expect(stringifyJson(value)).toBe(
      '{\n    "": 5,\n    "B": 4,\n    "b": 3,\n    "\\u00e9": 6,\n    "\\uffff": 2,\n    "\\ud83d\\ude00": 1\n}',
    );
  });

  it("writes NaN bare, bigints exactly, and integral numbers as integers", () => {
    const value = [NaN, Infinity, -Infinity, 18446744073709551615n, -9223372036854775808n, 2 ** 53];
    expect(stringifyJson(value)).toBe(
      "[\n    NaN,\n    Infinity,\n    -Infinity,\n    18446744073709551615,\n    -9223372036854775808,\n    9007199254740992\n]",
    );
  });

  it("tells plain numbers from floats: only JsonFloat keeps the .0", () => {
    expect(stringifyJson([1, new JsonFloat(1), 0.5, -0, new JsonFloat(-0), 1e21])).toBe(
      "[\n    1,\n    1.0,\n    0.5,\n    0,\n    -0.0,\n    1000000000000000000000\n]",
    );
  });

  it("skips properties whose value is undefined", () => {
    const value = { a: 1, b: undefined } as unknown as JsonValue;
    expect(stringifyJson(value)).toBe('{\n    "a": 1\n}');
  });

  it("refuses values JSON cannot hold", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stringifyJson(cyclic as JsonValue)).toThrow(MetadataError);
    expect(() => stringifyJson({ a: new Uint8Array(2) } as unknown as JsonValue)).toThrow(/\$\.a.*Uint8Array/);
    expect(() => stringifyJson([() => 1] as unknown as JsonValue)).toThrow(/\$\[0\].*function/);
  });

  it("encodes to the ASCII bytes zarr-python stores", () => {
    expect(encodeJson({ é: [] })).toEqual(new TextEncoder().encode('{\n    "\\u00e9": []\n}'));
  });
});

describe("parseJson", () => {
  it("reads integers beyond 2^53 as exact bigints", () => {
    expect(parseJson("[18446744073709551615, -9223372036854775808, 9007199254740991, 9007199254740993]")).toEqual([
      18446744073709551615n,
      -9223372036854775808n,
      9007199254740991,
      9007199254740993n,
    ]);
  });

  it("reads the bare NaN and Infinity tokens Python writes", () => {
    expect(parseJson('{"a": NaN, "b": Infinity, "c": -Infinity}')).toEqual({ a: NaN, b: Infinity, c: -Infinity });
  });

  it("reads numbers as Python does", () => {
    // json.loads: -0 -> 0, 1.5E+3 -> 1500.0, 1E400 -> inf
    expect(parseJson("[-0, 1.5E+3, 1E400, 0e0, -0.0]")).toEqual([0, 1500, Infinity, 0, -0]);
    expect(Object.is(parseJson("-0"), 0)).toBe(true);
  });

  it("keeps floats apart from integers when asked, so they write back unchanged", () => {
    const text = '{\n    "a": 1.0,\n    "b": 1,\n    "c": NaN,\n    "d": 1e-07\n}';
    const value = parseJson(text, ".zattrs", { keepFloats: true });
    expect(value).toEqual({ a: new JsonFloat(1), b: 1, c: new JsonFloat(NaN), d: new JsonFloat(1e-7) });
    expect(stringifyJson(value)).toBe(text);
  });

  it("keeps the last value of a repeated key, as Python does", () => {
    expect(parseJson('{"a": 1, "a": 2}')).toEqual({ a: 2 });
  });

  it("reads escapes, including surrogate pairs and lone surrogates", () => {
    expect(parseJson('"\\ud83d\\ude00 \\ud800 \\/ \\u00E9 \\n"')).toBe("😀 \ud800 / é \n");
  });

  it("treats a __proto__ key as data", () => {
    const value = parseJson('{"__proto__": {"polluted": true}}') as Record<string, JsonValue>;
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("decodes UTF-8 bytes", () => {
    expect(decodeJson(new TextEncoder().encode('{"s": "é"}'), "a/.zattrs")).toEqual({ s: "é" });
  });

  // Each of these is rejected by Python's json.loads too.
  it.each([
    ["", "a value at line 1 column 1"],
    ["1.", "the end of the text at line 1 column 2"],
    [".5", "a value"],
    ["01", "the end of the text"],
    ["-", "a value"],
    ["+1", "a value"],
    ["1e", "the end of the text"],
    ["nan", "a value"],
    ["-NaN", "a value"],
    ["tru", "a value"],
    ["[1,]", "a value at line 1 column 4"],
    ["[1 2]", "',' or ']' after an array item at line 1 column 4"],
    ['{"a":1,}', "a property name in double quotes at line 1 column 8"],
    ["{1:2}", "a property name in double quotes"],
    ['{"a" 1}', "':' after a property name"],
    ['{\n  "a": 1\n  "b": 2\n}', "',' or '}' after a property value at line 3 column 3"],
    ['"\x01"', "no control characters inside a string"],
    ['"\\x"', "a valid escape"],
    ['"\\u12"', "four hex digits"],
    ['"abc', "a closing '\"' of the string opened at char 0 at line 1 column 5 (char 4), found the end of the text"],
    ["1 2", "the end of the text at line 1 column 3"],
  ])("rejects %j", (text, expected) => {
    let error: unknown;
    try {
      parseJson(text, "foo/.zarray");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MetadataError);
    const { code, key, message } = error as MetadataError;
    expect([code, key]).toEqual(["ZARR_METADATA", "foo/.zarray"]);
    expect(message).toContain('"foo/.zarray" is not valid JSON: expected ');
    expect(message).toContain(expected);
  });

  it("rejects bytes that are not UTF-8", () => {
    expect(() => decodeJson(new Uint8Array([0x22, 0xff, 0x22]), ".zattrs")).toThrow(/".zattrs" is not valid UTF-8/);
  });

  it("rejects nesting deep enough to overflow the stack", () => {
    expect(() => parseJson("[".repeat(5000) + "]".repeat(5000))).toThrow(/levels of nesting/);
    expect(parseJson("[".repeat(500) + "]".repeat(500))).toBeInstanceOf(Array);
  });
});
