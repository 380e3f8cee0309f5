import { describe, expect, it } from "vitest";
import { bitround, CodecConfigError } from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";
import { checkFilterFixtures } from "./python-fixtures.js";

const f4 = { kind: "f", byteOrder: "<", itemsize: 4 } as const;
const floats = new Uint8Array(Float32Array.from({ length: 1024 }, (_, i) => Math.sin(i) * 10 ** ((i % 9) - 4)).buffer);

// keepbits = 23 keeps float32s as they are; the rounding configs are checked by the fixtures.
checkCodec(
  bitround,
  {
    configs: [{ id: "bitround", keepbits: 23 }],
    samples: [
      { name: "empty", data: new Uint8Array(0), context: { dtype: f4, itemsize: 4 } },
      { name: "float32 values", data: floats, context: { dtype: f4, itemsize: 4, elements: 1024 } },
    ],
    itemsize: 4,
    corruption: "none",
  },
  { describe, it },
);

checkFilterFixtures(bitround, "bitround", { describe, it, expect });

describe("bitround", () => {
  const context = { dtype: f4, itemsize: 4, elements: 1024, key: "b/0" };

  it("is idempotent and decodes to its input", async () => {
    const codec = bitround.create({ keepbits: 7 });
    const once = (await codec.encode(floats, context)) as Uint8Array;
    expect(await codec.encode(once, context)).toEqual(once);
    expect(await codec.decode(once, context)).toEqual(once);
  });

  it("rounds big-endian floats too", async () => {
    const codec = bitround.create({ keepbits: 7 });
    const little = (await codec.encode(floats, context)) as Uint8Array;
    const swap = (b: Uint8Array) => b.map((_, i) => b[i - (i % 4) + 3 - (i % 4)]!);
    const big = (await codec.encode(swap(floats), { ...context, dtype: { ...f4, byteOrder: ">" } })) as Uint8Array;
    expect(swap(big)).toEqual(little);
  });

  it("refuses non-float arrays and too many bits, and negative keepbits", () => {
    const codec = bitround.create({ keepbits: 30 });
    expect(() => codec.encode(floats, context)).toThrow(/keepbits 30 is too large/);
    const ints = { ...context, dtype: { kind: "i", byteOrder: "<", itemsize: 4 } as const };
    expect(() => bitround.create({ keepbits: 3 }).encode(floats, ints)).toThrow(/only float arrays/);
    expect(() => bitround.create({ keepbits: -1 })).toThrow(CodecConfigError);
    expect(() => bitround.create({ id: "bitround" })).toThrow(CodecConfigError);
  });
});
