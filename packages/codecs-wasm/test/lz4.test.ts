import { describe, expect, it } from "vitest";
import { CodecError } from "@z/codecs";
import { checkCodec, contextFor, pseudoRandomBytes } from "@z/codecs/testing";
import { lz4 } from "../src/lz4.js";
import { lz4Bound, lz4DecodeBlock } from "../src/lz4-block.js";
import { lz4EncodeBlock, lz4hcEncodeBlock } from "../src/lz4-block-encode.js";
import { loadKernels, setKernelsEnabled } from "../src/kernels.js";
import { numcodecsFixtures } from "./fixtures.js";

checkCodec(
  lz4,
  {
    configs: [
      { id: "lz4", acceleration: 1 },
      { id: "lz4", acceleration: 10 },
      { id: "lz4", acceleration: 0 },
    ],
    encoded: numcodecsFixtures("lz4"),
    corruption: "truncation",
    boundedDecode: true,
  },
  { describe, it },
);

describe("lz4", () => {
  it("writes numcodecs' config", () => {
    expect(lz4.create().toJSON()).toEqual({ id: "lz4", acceleration: 1 });
    expect(lz4.create({ acceleration: 5 }).toJSON()).toEqual({ id: "lz4", acceleration: 5 });
  });

  it("refuses a header larger than the chunk, before allocating", () => {
    const data = new Uint8Array([0xff, 0xff, 0xff, 0x7f, 0x00]);
    const context = contextFor(new Uint8Array(100));
    expect(() => lz4.create().decode(data, context)).toThrow(/decodes to more than 100 bytes/);
  });

  it("refuses data that decodes to fewer bytes than its header says", () => {
    const codec = lz4.create();
    const context = contextFor(new Uint8Array(64));
    const encoded = codec.encode(new Uint8Array(64).fill(7), context) as Uint8Array;
    encoded[0] = 65;
    expect(() => codec.decode(encoded, { ...context, elements: 65 })).toThrow(CodecError);
    expect(() => codec.decode(encoded, { ...context, elements: 65 })).toThrow(/lz4.*checks\/0\.0/);
  });

  it("decodes numcodecs' fixtures and large corrupt data with and without the WebAssembly kernels", async () => {
    expect(await loadKernels()).toBeDefined();
    const big = Uint8Array.from({ length: 300_000 }, (_, i) => ((i * 7) % 251) ^ (i >>> 10));
    const context = contextFor(big);
    const encoded = lz4.create().encode(big, context) as Uint8Array;
    for (const enabled of [true, false]) {
      setKernelsEnabled(enabled);
      try {
        for (const fixture of numcodecsFixtures("lz4")) {
          const decoded = (await lz4
            .create()
            .decode(fixture.encoded, contextFor(fixture.decoded as Uint8Array))) as Uint8Array;
          expect(Buffer.compare(decoded, fixture.decoded as Uint8Array), fixture.name).toBe(0);
        }
        expect(Buffer.compare((await lz4.create().decode(encoded, context)) as Uint8Array, big)).toBe(0);
        await expect(async () => lz4.create().decode(encoded.subarray(0, encoded.length - 3), context)).rejects.toThrow(
          CodecError,
        );
        const bad = encoded.slice();
        new DataView(bad.buffer).setUint32(0, big.length - 1, true);
        await expect(async () => lz4.create().decode(bad, context)).rejects.toThrow(/more bytes than expected.*|lz4/);
      } finally {
        setKernelsEnabled(true);
      }
    }
  });

  it("refuses offsets before the start of the output", () => {
    // token: 1 literal, match of 4 at offset 2 (only 1 byte written so far)
    const block = new Uint8Array([0x10, 0x41, 0x02, 0x00, 0x00]);
    const out = new Uint8Array(16);
    expect(lz4DecodeBlock(block, 0, block.length, out, 0, 16)).toBeLessThan(0);
  });

  it("round-trips overlapping matches and long runs in both encoders", () => {
    const inputs = [
      new Uint8Array(100_000).fill(3),
      Uint8Array.from({ length: 70_000 }, (_, i) => (i % 3 === 0 ? 1 : i % 251)),
      pseudoRandomBytes(70_000, 9),
      Uint8Array.from({ length: 200_000 }, (_, i) => Math.floor(Math.sin(i / 100) * 50) & 255),
    ];
    for (const input of inputs) {
      for (const encode of [
        (d: Uint8Array, o: Uint8Array) => lz4EncodeBlock(d, 0, d.length, o, 0, 1),
        (d: Uint8Array, o: Uint8Array) => lz4EncodeBlock(d, 0, d.length, o, 0, 17),
        (d: Uint8Array, o: Uint8Array) => lz4hcEncodeBlock(d, 0, d.length, o, 0, 9),
      ]) {
        const out = new Uint8Array(lz4Bound(input.length));
        const n = encode(input, out);
        const back = new Uint8Array(input.length);
        expect(lz4DecodeBlock(out, 0, n, back, 0, back.length)).toBe(input.length);
        expect(Buffer.compare(back, input)).toBe(0);
      }
    }
  });
});
