import { describe, expect, it } from "vitest";
import { JsonFloat, MetadataError, encodeAttributes, parseAttributes, serializeAttributes } from "@z/meta";

// g.attrs["x"] = float("nan"); g.attrs["a"] = {"b": [1, 2.0, "é"]}; g.attrs["big"] = 2**64 - 1
// makes zarr-python 2.13 store exactly this under ".zattrs":
const ZATTRS =
  '{\n    "a": {\n        "b": [\n            1,\n            2.0,\n            "\\u00e9"\n        ]\n    },\n    "big": 18446744073709551615,\n    "x": NaN\n}';

describe(".zattrs", () => {
  it("is written as zarr-python writes it", () => {
    const attrs = { x: NaN, a: { b: [1, new JsonFloat(2), "é"] }, big: 18446744073709551615n };
    expect(serializeAttributes(attrs)).toBe(ZATTRS);
    expect(encodeAttributes(attrs)).toEqual(new TextEncoder().encode(ZATTRS));
    // zarr-python writes empty attributes as {}
    expect(serializeAttributes({})).toBe("{}");
  });

  it("reads back what zarr-python wrote", () => {
    expect(parseAttributes(new TextEncoder().encode(ZATTRS))).toEqual({
      a: { b: [1, 2, "é"] },
      big: 18446744073709551615n,
      x: NaN,
    });
  });

  it("round-trips byte for byte when floats are kept", () => {
    expect(serializeAttributes(parseAttributes(ZATTRS, ".zattrs", { keepFloats: true }))).toBe(ZATTRS);
  });

  it.each([["[]"], ["1"], ["null"], ['"x"'], ["{"]])("refuses %j, which holds no attribute object", (text) => {
    expect(() => parseAttributes(text, "a/.zattrs")).toThrow(MetadataError);
    expect(() => parseAttributes(text, "a/.zattrs")).toThrow(expect.objectContaining({ key: "a/.zattrs" }));
  });
});
