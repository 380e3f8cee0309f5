import { describe, expect, it } from "vitest";
import { shuffle } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkFilterFixtures } from "./python-fixtures.js";

checkCodec(
  shuffle,
  {
    configs: [
      { id: "shuffle", elementsize: 4 },
      { id: "shuffle", elementsize: 1 },
      { id: "shuffle", elementsize: 8 },
    ],
    itemsize: 8,
    corruption: "none",
  },
  { describe, it },
);

checkFilterFixtures(shuffle, "shuffle", { describe, it, expect });

describe("shuffle", () => {
  it("defaults to 4-byte elements and refuses partial elements", () => {
    const codec = shuffle.create();
    expect(codec.toJSON()).toEqual({ id: "shuffle", elementsize: 4 });
    expect(() =>
      codec.encode(new Uint8Array(6), {
        dtype: { kind: "u", byteOrder: "|", itemsize: 1 },
        itemsize: 1,
        elements: 6,
        key: "s/0",
      }),
    ).toThrow(/shuffle.*s\/0/);
  });
});
