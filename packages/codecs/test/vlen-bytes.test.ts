import { describe, expect, it } from "vitest";
import { vlenBytes } from "@z/codecs";
import { checkCodec, pseudoRandomBytes } from "@z/codecs/testing";
import { checkObjectFixtures } from "./object-fixtures.js";

checkCodec(
  vlenBytes,
  {
    samples: [
      { name: "none", data: [] },
      { name: "empty bytes", data: [new Uint8Array(0)] },
      { name: "random", data: Array.from({ length: 300 }, (_, i) => pseudoRandomBytes(i * 3, i + 1)) },
    ],
    corruption: "truncation",
  },
  { describe, it },
);

checkObjectFixtures(vlenBytes, "vlen-bytes", { describe, it, expect });

describe("vlen-bytes", () => {
  const context = (n: number) => ({
    dtype: { kind: "O", byteOrder: "|", itemsize: 8 } as const,
    itemsize: 8,
    elements: n,
    key: "b/0",
  });

  it("stores null as empty and refuses other values", async () => {
    const codec = vlenBytes.create();
    const encoded = (await codec.encode([null, new Uint8Array([1, 2])], context(2))) as Uint8Array;
    expect(await codec.decode(encoded, context(2))).toEqual([new Uint8Array(0), new Uint8Array([1, 2])]);
    expect(() => codec.encode(["text"], context(1))).toThrow(/expected a Uint8Array, found "text"/);
  });
});
