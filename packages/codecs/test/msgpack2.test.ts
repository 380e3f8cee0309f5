import { describe, expect, it } from "vitest";
import { JsonFloat } from "@z/meta";
import { CodecError, msgpack2, MsgpackExt } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkObjectFixtures } from "./object-fixtures.js";

const values = [
  "a",
  "ñ",
  "",
  null,
  true,
  1,
  -2.5,
  new JsonFloat(3),
  2n ** 63n,
  [1, [2]],
  { b: 1, a: "x" },
  new Uint8Array([1, 2]),
  new MsgpackExt(5, new Uint8Array([7])),
];

checkCodec(
  msgpack2,
  {
    configs: [{ id: "msgpack2" }, { id: "msgpack2", use_single_float: true }],
    samples: [
      { name: "no values", data: [] },
      { name: "mixed values", data: values },
      { name: "many strings", data: Array.from({ length: 3000 }, (_, i) => `item ${i} ${"é".repeat(i % 70)}`) },
    ],
    corruption: "truncation",
  },
  { describe, it },
);

checkObjectFixtures(msgpack2, "msgpack2", { describe, it, expect });

describe("msgpack2", () => {
  const context = (n: number) => ({
    dtype: { kind: "O", byteOrder: "|", itemsize: 8 } as const,
    itemsize: 8,
    elements: n,
    key: "m/0",
  });
  const codec = msgpack2.create();

  it("writes numcodecs' config in its order", () => {
    expect(Object.keys(codec.toJSON())).toEqual(["id", "raw", "use_single_float", "use_bin_type"]);
  });

  it("refuses corrupt MessagePack, naming the chunk", () => {
    expect(() => codec.decode(new Uint8Array([0x93, 1, 2]), context(1))).toThrow(CodecError);
    expect(() => codec.decode(new Uint8Array([0xc1]), context(1))).toThrow(/msgpack2.*m\/0/);
    expect(() => codec.decode(new Uint8Array([0x93, 1, 0xa2, 0x7c, 0x4f, 0x91, 1, 0]), context(1))).toThrow(
      /extra data/,
    );
    // An array header claiming 2^32 - 1 items is refused before anything is allocated.
    expect(() => codec.decode(new Uint8Array([0xdd, 0xff, 0xff, 0xff, 0xff]), context(1))).toThrow(/max_array_len/);
    // Map keys must be strs or bytes (msgpack's strict_map_key).
    expect(() => codec.decode(new Uint8Array([0x93, 0x81, 1, 2, 0xa2, 0x7c, 0x4f, 0x91, 1]), context(1))).toThrow(
      /map key/,
    );
  });

  it("refuses strs with lone surrogates, as msgpack does, and packs surrogate pairs", async () => {
    await expect(async () => codec.encode(["a\uD800"], context(1))).rejects.toThrow(/lone surrogate/);
    await expect(async () => codec.encode(["\uDE00b"], context(1))).rejects.toThrow(/lone surrogate/);
    const encoded = (await codec.encode(["\uD83D\uDE00"], context(1))) as Uint8Array;
    expect(await codec.decode(encoded, context(1))).toEqual(["\uD83D\uDE00"]);
  });

  it("reads a map's __proto__ key as a key of its own, changing no prototype", async () => {
    const key = [...new TextEncoder().encode("__proto__")];
    // [{"__proto__": {"x": 1}, "a": 2}, "|O", [1]] as msgpack packs it
    const bytes = new Uint8Array([
      0x93,
      0x82,
      0xa9,
      ...key,
      0x81,
      0xa1,
      0x78,
      1,
      0xa1,
      0x61,
      2,
      0xa2,
      0x7c,
      0x4f,
      0x91,
      1,
    ]);
    const [decoded] = (await codec.decode(bytes, context(1))) as Record<string, unknown>[];
    expect(Object.keys(decoded!)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect((decoded as { x?: unknown }).x).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(decoded, "__proto__")?.value).toEqual({ x: 1 });
  });

  it("round-trips maps with bytes keys as Maps", async () => {
    const map = new Map([[new Uint8Array([1]), "x"]]);
    const encoded = (await codec.encode([map], context(1))) as Uint8Array;
    const [decoded] = (await codec.decode(encoded, context(1))) as unknown[];
    expect(decoded).toBeInstanceOf(Map);
    expect([...(decoded as Map<Uint8Array, string>)]).toEqual([[new Uint8Array([1]), "x"]]);
  });
});
