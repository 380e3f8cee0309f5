import { describe, expect, it } from "vitest";
import { CodecConfigError, quantize, quantizeScale } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkFilterFixtures, filterFixtures } from "./python-fixtures.js";

// Values already on the quantization grid round-trip exactly.
const grid = (scale: number) =>
  new Uint8Array(Float64Array.from({ length: 4096 }, (_, i) => Math.round((i - 2048) * 7.3 * scale) / scale).buffer);

checkCodec(
  quantize,
  {
    configs: [{ id: "quantize", digits: 2, dtype: "<f8", astype: "<f8" }],
    samples: [
      { name: "empty", data: new Uint8Array(0) },
      { name: "grid of 2 digits", data: grid(quantizeScale(2)) },
    ],
    itemsize: 8,
    corruption: "none",
  },
  { describe, it },
);

checkFilterFixtures(quantize, "quantize", { describe, it, expect });

describe("quantize", () => {
  it("scales by the power of two numcodecs computes for each number of digits", () => {
    for (const [digits, scale] of filterFixtures().quantizeScales) {
      expect([digits, quantizeScale(Number(digits))]).toEqual([digits, Number(scale)]);
    }
  });

  it("accepts any digits, and fails to encode where numcodecs does", () => {
    const codec = quantize.create({ digits: 400, dtype: "<f8" });
    const context = {
      dtype: { kind: "f", byteOrder: "<", itemsize: 8 } as const,
      itemsize: 8,
      elements: 1,
      key: "q/0",
    };
    expect(() => codec.encode(new Uint8Array(8), context)).toThrow(/quantize.*q\/0/);
    expect(codec.decode(new Uint8Array(8), context)).toEqual(new Uint8Array(8));
  });

  it("only takes float dtypes", () => {
    expect(() => quantize.create({ digits: 2, dtype: "<i4" })).toThrow(CodecConfigError);
    expect(() => quantize.create({ digits: 2, dtype: "<f8", astype: "<i2" })).toThrow(/astype/);
    expect(quantize.create({ digits: 2, dtype: "float32" }).toJSON()).toEqual({
      id: "quantize",
      digits: 2,
      dtype: "<f4",
      astype: "<f4",
    });
  });
});
