import { describe, expect, it } from "vitest";
import { astype, CodecConfigError } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkFilterFixtures } from "./python-fixtures.js";

// Widening casts are lossless: bytes → int16 → bytes.
checkCodec(
  astype,
  {
    configs: [
      { id: "astype", encode_dtype: "<i2", decode_dtype: "|u1" },
      { id: "astype", encode_dtype: "<f8", decode_dtype: "<i4" },
      { id: "astype", encode_dtype: ">u8", decode_dtype: "<u4" },
    ],
    samples: [
      { name: "empty", data: new Uint8Array(0) },
      { name: "bytes", data: Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) & 0xff) },
    ],
    itemsize: 4,
    corruption: "none",
  },
  { describe, it },
);

checkFilterFixtures(astype, "astype", { describe, it, expect });

describe("astype config", () => {
  it("requires both dtypes", () => {
    expect(() => astype.create({ id: "astype", encode_dtype: "<f4" })).toThrow(CodecConfigError);
    expect(astype.create({ encode_dtype: "float32", decode_dtype: "float64" }).toJSON()).toEqual({
      id: "astype",
      encode_dtype: "<f4",
      decode_dtype: "<f8",
    });
  });
});
