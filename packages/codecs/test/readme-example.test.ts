// The example of README.md, run as written: a third-party codec registered and tested with the kit.
import { describe, expect, it } from "vitest";
import {
  defaultRegistry,
  defineCodec,
  integer,
  registerCodec,
  requireBytes,
  type ChunkContext,
  type CodecData,
} from "@z/codecs";
import { checkCodec } from "@z/codecs/testing";

// xor.ts
export const xor = defineCodec({
  id: "xor",
  config: { key: integer({ min: 0, max: 255, default: 0x5a }) },
  create: ({ key }) => {
    const apply = (data: CodecData, chunk: ChunkContext) => requireBytes(data, "xor", chunk).map((b) => b ^ key);
    return { encode: apply, decode: apply };
  },
});

registerCodec("xor", () => xor);

// xor.test.ts
checkCodec(
  xor,
  {
    configs: [
      { id: "xor", key: 0 },
      { id: "xor", key: 255 },
    ],
    encoded: [
      { config: { id: "xor", key: 1 }, decoded: new Uint8Array([1, 2, 3]), encoded: new Uint8Array([0, 3, 2]) },
    ],
    corruption: "none",
  },
  { describe, it },
);

describe("the README's claims", () => {
  it("builds the codec from its config in each way shown", async () => {
    expect(xor.create({ key: 3 }).toJSON()).toEqual({ id: "xor", key: 3 });
    expect(xor.create({ id: "xor", key: 3 }).config.key).toBe(3);
    expect((await defaultRegistry.create({ id: "xor", key: 3 })).toJSON()).toEqual({ id: "xor", key: 3 });
    expect(() => xor.create({ id: "xor", key: 300 })).toThrow(
      'invalid config for codec "xor": field "key" must be an integer from 0 to 255, got 300',
    );
  });
});
