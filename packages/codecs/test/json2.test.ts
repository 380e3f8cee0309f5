import { describe, expect, it } from "vitest";
import { JsonFloat } from "@z/meta";
import { CodecConfigError, CodecError, json2 } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkObjectFixtures } from "./object-fixtures.js";

// Keys in sorted order: json2 sorts them (sort_keys), so others come back reordered, as in Python.
const values = ["a", "ñ", "", null, true, 1, -2.5, new JsonFloat(3), 2n ** 70n, [1, [2]], { a: "x", b: 1 }, NaN];

checkCodec(
  json2,
  {
    configs: [{ id: "json2" }, { id: "json2", indent: 2 }, { id: "json2", ensure_ascii: false, encoding: "utf-16" }],
    samples: [
      { name: "no values", data: [] },
      { name: "mixed values", data: values },
      { name: "many strings", data: Array.from({ length: 3000 }, (_, i) => `item ${i} ${"é".repeat(i % 7)}`) },
    ],
    corruption: "truncation",
  },
  { describe, it },
);

checkObjectFixtures(json2, "json2", { describe, it, expect });

describe("json2", () => {
  const context = (n: number, shape?: number[]) => ({
    dtype: { kind: "O", byteOrder: "|", itemsize: 8 } as const,
    itemsize: 8,
    elements: n,
    key: "j/0",
    shape,
  });
  const text = async (data: unknown[], config = {}, shape?: number[]) =>
    new TextDecoder().decode((await json2.create(config).encode(data, context(data.length, shape))) as Uint8Array);

  it("writes numcodecs' full config, separators following the indent", () => {
    expect(json2.create().toJSON()).toEqual({
      id: "json2",
      encoding: "utf-8",
      skipkeys: false,
      ensure_ascii: true,
      check_circular: true,
      allow_nan: true,
      indent: null,
      separators: [",", ":"],
      sort_keys: true,
      strict: true,
    });
    expect(json2.create({ indent: 4 }).toJSON().separators).toEqual([", ", ": "]);
    expect(() => json2.create({ id: "json2", encoding: "ebcdic" })).toThrow(CodecConfigError);
    expect(() => json2.create({ id: "json2", separators: [","] })).toThrow(/separators/);
  });

  it("nests the values by the chunk's shape, as NumPy's tolist()", async () => {
    expect(await text(["a", "b", "c", "d", "e", "f"], {}, [2, 3])).toBe('[["a","b","c"],["d","e","f"],"|O",[2,3]]');
    expect(await text([1, 2])).toBe('[1,2,"|O",[2]]');
    await expect(async () => text([1, 2], {}, [3])).rejects.toThrow(/do not fill the chunk shape/);
  });

  it("writes Python's floats, ints and escapes", async () => {
    expect(await text([1, 1.5, new JsonFloat(1), -0, new JsonFloat(-0), 1e16, 1e-7, NaN, -Infinity, 2n ** 64n])).toBe(
      '[1,1.5,1.0,0,-0.0,10000000000000000,1e-07,NaN,-Infinity,18446744073709551616,"|O",[10]]',
    );
    expect(await text(["é\u007f\n😀"])).toBe('["\\u00e9\\u007f\\n\\ud83d\\ude00","|O",[1]]');
    expect(await text(["é\u007f\n😀"], { ensure_ascii: false })).toBe('["é\u007f\\n😀","|O",[1]]');
    expect(await text([{ b: 1, a: 2 }], { sort_keys: false })).toBe('[{"b":1,"a":2},"|O",[1]]');
  });

  it("refuses what Python's json refuses", async () => {
    await expect(async () => text([NaN], { allow_nan: false })).rejects.toThrow(/Out of range float/);
    await expect(async () => text([new Uint8Array(1)])).rejects.toThrow(/bytes is not JSON serializable/);
    const loop: unknown[] = [];
    loop.push(loop);
    await expect(async () => text([loop])).rejects.toThrow(/Circular reference/);
  });

  it("reads what Python's json reads and nothing else", async () => {
    const codec = json2.create();
    const decode = (s: string, n = 1) => codec.decode(new TextEncoder().encode(s), context(n));
    expect(await decode(' [ 1.0 , NaN , -Infinity , "\\ud83d\\ude00" , "|O" , [4] ] ', 4)).toEqual([
      new JsonFloat(1),
      NaN,
      -Infinity,
      "😀",
    ]);
    expect(() => decode('[1, "|O", [1]] x')).toThrow(CodecError);
    expect(() => decode('["a\nb", "|O", [1]]')).toThrow(/Invalid control character/);
    expect(
      await json2.create({ strict: false }).decode(new TextEncoder().encode('["a\nb", "|O", [1]]'), context(1)),
    ).toEqual(["a\nb"]);
    expect(() => decode('[1, 2, "|O", [1]]')).toThrow(/dimension 0 has 2 items/);
    expect(() => decode("[1, 2]")).toThrow(/shape/);
    expect(() => decode('[1, "<x9", [1]]')).toThrow(/dtype/);
    expect(() => decode('[1, "|O", [2]]', 2)).toThrow(/has 1 items/);
  });

  it("decodes numeric chunks to bytes", async () => {
    const codec = json2.create();
    const out = await codec.decode(new TextEncoder().encode('[1,-2,"<i2",[2]]'), {
      dtype: { kind: "i", byteOrder: "<", itemsize: 2 },
      itemsize: 2,
      elements: 2,
    });
    expect(out).toEqual(new Uint8Array([1, 0, 0xfe, 0xff]));
  });
});
