import { describe, expect, it } from "vitest";
import { CodecConfigError, vlenArray } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkObjectFixtures } from "./object-fixtures.js";

checkCodec(
  vlenArray,
  {
    configs: [
      { id: "vlen-array", dtype: "<i4" },
      { id: "vlen-array", dtype: ">f8" },
      { id: "vlen-array", dtype: "<i8" },
    ],
    samples: [{ name: "no arrays", data: [] }],
    corruption: "truncation",
  },
  { describe, it },
);

describe("vlen-array contract with typed arrays", () => {
  for (const [dtype, make] of [
    ["<i4", (n: number) => Int32Array.from({ length: n }, (_, i) => i * 1000 - 7)],
    [">f8", (n: number) => Float64Array.from({ length: n }, (_, i) => i / 3)],
    ["<i8", (n: number) => BigInt64Array.from({ length: n }, (_, i) => BigInt(i) * 10n ** 15n)],
  ] as const) {
    checkCodec(
      vlenArray.create({ dtype }),
      {
        samples: [{ name: "ragged", data: Array.from({ length: 200 }, (_, i) => make(i % 17)) }],
        corruption: "truncation",
      },
      { describe, it },
    );
  }
});

checkObjectFixtures(vlenArray, "vlen-array", { describe, it, expect });

describe("vlen-array", () => {
  const context = (n: number) => ({
    dtype: { kind: "O", byteOrder: "|", itemsize: 8 } as const,
    itemsize: 8,
    elements: n,
    key: "r/0",
  });

  it("converts plain arrays as NumPy does, and refuses nested ones", async () => {
    const codec = vlenArray.create({ dtype: "<i2" });
    const encoded = (await codec.encode([[1, 2.9, -2.9], 5, null, [true]], context(4))) as Uint8Array;
    expect(await codec.decode(encoded, context(4))).toEqual([
      new Int16Array([1, 2, -2]),
      new Int16Array([5]),
      new Int16Array([]),
      new Int16Array([1]),
    ]);
    expect(() => codec.encode([[[1]]], context(1))).toThrow(/one-dimensional/);
    expect(() => codec.encode(["1"], context(1))).toThrow(/expected an array/);
  });

  it("refuses items that are not whole elements", () => {
    const codec = vlenArray.create({ dtype: "<i4" });
    expect(() => codec.decode(new Uint8Array([1, 0, 0, 0, 3, 0, 0, 0, 1, 2, 3]), context(1))).toThrow(
      /3 bytes are not a whole number/,
    );
  });

  it("takes fixed-size dtypes only", () => {
    expect(() => vlenArray.create({ dtype: "|O" })).toThrow(CodecConfigError);
    expect(vlenArray.create({ dtype: "float32" }).toJSON()).toEqual({ id: "vlen-array", dtype: "<f4" });
  });
});
