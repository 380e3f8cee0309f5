import { describe, expect, it } from "vitest";
import { JsonFloat } from "@z/meta";
import { CodecConfigError, fixedscaleoffset } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkFilterFixtures, filterSamples } from "./python-fixtures.js";

// Lossless configs for the contract's round trips: integers scaled by 1 and offset, back exactly.
checkCodec(
  fixedscaleoffset,
  {
    configs: [
      { id: "fixedscaleoffset", scale: 1, offset: 0, dtype: "|u1", astype: "|u1" },
      { id: "fixedscaleoffset", scale: 1, offset: 7, dtype: "<i2", astype: "<i2" },
      { id: "fixedscaleoffset", scale: 1, offset: 0, dtype: "<u4", astype: "<u4" },
    ],
    samples: filterSamples(4),
    itemsize: 4,
    corruption: "none",
  },
  { describe, it },
);

checkFilterFixtures(fixedscaleoffset, "fixedscaleoffset", { describe, it, expect });

describe("fixedscaleoffset config", () => {
  it("keeps Python ints and floats apart, as numcodecs writes them back", () => {
    const codec = fixedscaleoffset.create({ scale: 10, offset: new JsonFloat(1000), dtype: "<f8", astype: "u1" });
    expect(codec.toJSON()).toEqual({
      id: "fixedscaleoffset",
      scale: 10,
      offset: new JsonFloat(1000),
      dtype: "<f8",
      astype: "|u1",
    });
    expect(fixedscaleoffset.create({ scale: 0.5, offset: 2n ** 70n, dtype: "<f8" }).toJSON()).toEqual({
      id: "fixedscaleoffset",
      scale: 0.5,
      offset: 2n ** 70n,
      dtype: "<f8",
      astype: "<f8",
    });
  });

  it("requires scale, offset and dtype", () => {
    expect(() => fixedscaleoffset.create({ id: "fixedscaleoffset", scale: 1, dtype: "<f8" })).toThrow(CodecConfigError);
    expect(() => fixedscaleoffset.create({ id: "fixedscaleoffset", scale: "1", offset: 0, dtype: "<f8" })).toThrow(
      /scale/,
    );
  });

  it("an int offset and a float offset of the same value compute differently, as in NumPy", async () => {
    // float16 data: `x - 1000` is float32 (1000 is a uint16 scalar), `x - 1000.0` stays float16.
    const data = new Uint8Array([0x66, 0x2e]); // 0.1 as float16
    const context = { dtype: { kind: "f", byteOrder: "<", itemsize: 2 } as const, itemsize: 2, elements: 1 };
    const encode = async (offset: number | JsonFloat) => {
      const codec = fixedscaleoffset.create({ scale: 10, offset, dtype: "<f2", astype: "<f8" });
      return new Float64Array(((await codec.encode(data, context)) as Uint8Array).slice().buffer)[0];
    };
    // numcodecs 0.11: [-9999.] and [-10000.]
    expect(await encode(1000)).toBe(-9999);
    expect(await encode(new JsonFloat(1000))).toBe(-10000);
  });
});
