import { describe, expect, it } from "vitest";
import { CodecError, packbits } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkFilterFixtures } from "./python-fixtures.js";

const booleans = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => ((i * seed) >> 3) & 1);

checkCodec(
  packbits,
  {
    samples: [0, 1, 7, 8, 9, 1000, 4099].map((n) => ({ name: `${n} booleans`, data: booleans(n, 2654435761) })),
    corruption: "none",
  },
  { describe, it },
);

checkFilterFixtures(packbits, "packbits", { describe, it, expect });

describe("packbits", () => {
  it("refuses a padding byte over 7 and missing data, naming the chunk", () => {
    const codec = packbits.create();
    const context = {
      dtype: { kind: "b", byteOrder: "|", itemsize: 1 } as const,
      itemsize: 1,
      elements: 8,
      key: "x/1",
    };
    expect(() => codec.decode(new Uint8Array([8, 0]), context)).toThrow(CodecError);
    expect(() => codec.decode(new Uint8Array([]), context)).toThrow(/packbits.*x\/1/);
    expect(() => codec.decode(new Uint8Array([1]), context)).toThrow(/padding/);
  });
});
