import { describe, expect, it } from "vitest";
import {
  DataTypeError,
  byteSwapInPlace,
  needsByteSwap,
  parseDataType,
  typedArrayConstructor,
  valuesPerElement,
  type JsonValue,
} from "@z/meta";

describe("typedArrayConstructor and valuesPerElement", () => {
  it.each([
    ["|b1", Uint8Array, 1],
    ["|i1", Int8Array, 1],
    ["|u1", Uint8Array, 1],
    ["<i2", Int16Array, 1],
    [">u2", Uint16Array, 1],
    ["<i4", Int32Array, 1],
    ["<u4", Uint32Array, 1],
    [">i8", BigInt64Array, 1],
    ["<u8", BigUint64Array, 1],
    ["<f2", Uint16Array, 1],
    ["<f4", Float32Array, 1],
    [">f8", Float64Array, 1],
    ["<c8", Float32Array, 2],
    [">c16", Float64Array, 2],
    ["<M8[ns]", BigInt64Array, 1],
    [">m8[s]", BigInt64Array, 1],
    ["|S5", Uint8Array, 5],
    ["<U3", Uint8Array, 12],
    ["|V7", Uint8Array, 7],
  ] as const)("%s", (json, ctor, k) => {
    const dtype = parseDataType(json);
    expect(typedArrayConstructor(dtype)).toBe(ctor);
    expect(valuesPerElement(dtype)).toBe(k);
  });

  it("gives structured elements as their bytes", () => {
    const dtype = parseDataType([
      ["a", "<i4"],
      ["b", ">f8", [2]],
    ]);
    expect(typedArrayConstructor(dtype)).toBe(Uint8Array);
    expect(valuesPerElement(dtype)).toBe(20);
  });

  it("has no typed array for object dtypes", () => {
    expect(() => typedArrayConstructor(parseDataType("|O"))).toThrow(DataTypeError);
    expect(valuesPerElement(parseDataType("|O"))).toBe(1);
  });
});

// [dtype, np.array(values, dtype).tobytes(), .astype(dtype.newbyteorder('<')).tobytes()] from NumPy 1.24.
const SWAPS: [string, string, string][] = [
  [">i2", "0001fffe012c", "0100feff2c01"],
  [">u4", "00000001ffffffff", "01000000ffffffff"],
  [">i8", "0000000000000001fffffffffffffffe", "0100000000000000feffffffffffffff"],
  [">f2", "3e00ae66", "003e66ae"],
  [">f4", "3fc000007fc00000", "0000c03f0000c07f"],
  [">f8", "3fb999999999999a", "9a9999999999b93f"],
  [">c8", "3f80000040000000", "0000803f00000040"],
  [">c16", "3fb999999999999ac008000000000000", "9a9999999999b93f00000000000008c0"],
  [">M8[ns]", "00000000000000058000000000000000", "05000000000000000000000000000080"],
  [">m8[s]", "0000000000000007", "0700000000000000"],
  [">U2", "00000061000000620001f60000000000", "610000006200000000f6010000000000"],
  ["|S3", "616263", "616263"],
  ["|V2", "0102", "0102"],
  ["<i4", "0100000002000000", "0100000002000000"],
  ["|b1", "0100", "0100"],
  ["|i1", "01ff", "01ff"],
];

describe("byteSwapInPlace converts to and from little-endian as NumPy's astype does", () => {
  it.each(SWAPS)("%s", (json, stored, little) => {
    const dtype = parseDataType(json);
    const bytes = fromHex(stored);
    byteSwapInPlace(bytes, dtype);
    expect(toHex(bytes)).toBe(little);
    byteSwapInPlace(bytes, dtype);
    expect(toHex(bytes)).toBe(stored);
    expect(needsByteSwap(dtype)).toBe(stored !== little);
  });

  it("swaps every big-endian field of a structured dtype, nested and subarray fields included", () => {
    // Two elements of this dtype, filled field by field in NumPy, then .astype(dtype.newbyteorder('<')).
    const dtype = parseDataType([
      ["a", ">i2", [2]],
      [
        "b",
        [
          ["x", ">f4"],
          ["y", "|u1"],
          ["z", "<u2"],
        ],
      ],
      ["c", ">U1"],
      ["d", "|S2"],
      ["e", ">c8", [1]],
      ["f", "<i4"],
    ] as JsonValue);
    expect(dtype.itemsize).toBe(29);
    const bytes = fromHex(
      "000100023fc000000702010000007178793f80000040000000050000000003fffcc0000000080301000000727a7740400000c080000006000000",
    );
    expect(needsByteSwap(dtype)).toBe(true);
    byteSwapInPlace(bytes, dtype);
    expect(toHex(bytes)).toBe(
      "010002000000c03f0702017100000078790000803f00000040050000000300fcff000000c0080301720000007a7700004040000080c006000000",
    );
  });

  it("needs no swap for structs without big-endian multi-byte fields", () => {
    expect(
      needsByteSwap(
        parseDataType([
          ["a", "<i4"],
          ["b", ">u1"],
          ["c", "|S4"],
          ["d", [["e", "<f8"]], [3]],
        ]),
      ),
    ).toBe(false);
    expect(
      needsByteSwap(
        parseDataType([
          ["a", "<i4"],
          ["b", [["e", ">f8"]], [3]],
        ]),
      ),
    ).toBe(true);
    expect(needsByteSwap(parseDataType(">U0"))).toBe(false);
  });

  it("swaps a large subarray field in one run", () => {
    const dtype = parseDataType([
      ["a", ">u2", [1000]],
      ["b", "|u1"],
    ]);
    const bytes = new Uint8Array(2 * 2001);
    bytes[0] = 1;
    bytes[1998] = 2;
    bytes[2001 + 1] = 3;
    byteSwapInPlace(bytes, dtype);
    expect([bytes[1], bytes[1999], bytes[2001]]).toEqual([1, 2, 3]);
  });

  it("refuses a buffer that is not a whole number of elements", () => {
    expect(() => byteSwapInPlace(new Uint8Array(6), parseDataType(">i4"))).toThrow(DataTypeError);
  });
});

function fromHex(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
