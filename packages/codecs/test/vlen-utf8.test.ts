import { describe, expect, it } from "vitest";
import { CodecError, vlenUtf8 } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkObjectFixtures } from "./object-fixtures.js";

const words = ["a", "ñ", "", "日本", "😀", "x".repeat(1000), "nul\0inside", "\uFEFFbom"];

checkCodec(
  vlenUtf8,
  {
    samples: [
      { name: "no strings", data: [] },
      { name: "one empty string", data: [""] },
      { name: "words", data: words },
      { name: "many strings", data: Array.from({ length: 5000 }, (_, i) => words[i % words.length]!.repeat(i % 5)) },
    ],
    corruption: "truncation",
  },
  { describe, it },
);

checkObjectFixtures(vlenUtf8, "vlen-utf8", { describe, it, expect });

describe("vlen-utf8", () => {
  const context = (n: number) => ({
    dtype: { kind: "O", byteOrder: "|", itemsize: 8 } as const,
    itemsize: 8,
    elements: n,
    key: "v/0",
  });

  it("stores null, undefined, 0 and false as empty strings, as numcodecs stores None and 0", async () => {
    const codec = vlenUtf8.create();
    const encoded = (await codec.encode([null, undefined, 0, false, "a"], context(5))) as Uint8Array;
    expect(await codec.decode(encoded, context(5))).toEqual(["", "", "", "", "a"]);
  });

  it("refuses non-strings and lone surrogates", () => {
    const codec = vlenUtf8.create();
    expect(() => codec.encode(["a", 1], context(2))).toThrow(/item 1: expected a string, found 1/);
    expect(() => codec.encode(["\uD800"], context(1))).toThrow(/lone surrogate/);
    expect(() => codec.encode(new Uint8Array(4), context(1))).toThrow(CodecError);
  });

  it("refuses truncated and corrupt data, naming the chunk", () => {
    const codec = vlenUtf8.create();
    expect(() => codec.decode(new Uint8Array([1, 0, 0]), context(1))).toThrow(
      /corrupt vlen-utf8 data in chunk v\/0.*header/,
    );
    expect(() => codec.decode(new Uint8Array([1, 0, 0, 0, 5, 0, 0, 0, 97]), context(1))).toThrow(/run past the end/);
    expect(() => codec.decode(new Uint8Array([255, 255, 255, 255]), context(1))).toThrow(/truncated/);
    expect(() => codec.decode(new Uint8Array([1, 0, 0, 0, 1, 0, 0, 0, 0xff]), context(1))).toThrow(/not valid UTF-8/);
    expect(() => codec.decode(new Uint8Array([0, 0, 0, 0]), context(1))).toThrow(/counts 0 items, but the chunk has 1/);
  });

  it("ignores bytes after the last item, as numcodecs does", async () => {
    const codec = vlenUtf8.create();
    expect(await codec.decode(new Uint8Array([1, 0, 0, 0, 1, 0, 0, 0, 97, 1, 2, 3]), context(1))).toEqual(["a"]);
  });
});
