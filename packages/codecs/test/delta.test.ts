import { describe, expect, it } from "vitest";
import { CodecConfigError, defaultRegistry, delta } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkFilterFixtures, filterSamples } from "./python-fixtures.js";

checkCodec(
  delta,
  {
    configs: [
      { id: "delta", dtype: "|u1", astype: "|u1" },
      { id: "delta", dtype: "<i4", astype: "<i4" },
      { id: "delta", dtype: ">u8", astype: ">u8" },
      { id: "delta", dtype: "<i2", astype: "<u2" },
    ],
    samples: filterSamples(8),
    itemsize: 8,
    corruption: "none",
  },
  { describe, it },
);

checkFilterFixtures(delta, "delta", { describe, it, expect });

describe("delta config", () => {
  it("writes astype as dtype when it is left out, as numcodecs' get_config does", () => {
    expect(delta.create({ dtype: "int16" }).toJSON()).toEqual({ id: "delta", dtype: "<i2", astype: "<i2" });
    expect(delta.create({ dtype: "<i2", astype: null }).toJSON()).toEqual({ id: "delta", dtype: "<i2", astype: "<i2" });
    expect(delta.create({ dtype: "<i2", astype: "i1" }).toJSON()).toEqual({ id: "delta", dtype: "<i2", astype: "|i1" });
  });

  it("is registered", async () => {
    const codec = await defaultRegistry.create({ id: "delta", dtype: "<f8" });
    expect(codec.toJSON()).toEqual({ id: "delta", dtype: "<f8", astype: "<f8" });
  });

  it("refuses what it cannot compute with", () => {
    expect(() => delta.create({ dtype: "|O" })).toThrow(CodecConfigError);
    expect(() => delta.create({ dtype: "<c16" })).toThrow(/dtype/);
    expect(() => delta.create({ id: "delta" })).toThrow(/missing required field "dtype"/);
  });

  it("refuses bytes that are not whole elements, naming the codec and chunk", async () => {
    const codec = delta.create({ dtype: "<i4" });
    const context = {
      dtype: { kind: "u", byteOrder: "|", itemsize: 1 } as const,
      itemsize: 1,
      elements: 6,
      key: "a/0",
    };
    expect(() => codec.decode(new Uint8Array(6), context)).toThrow(/delta.*a\/0/);
  });
});
