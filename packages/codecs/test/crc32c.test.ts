import { describe, expect, it } from "vitest";
import { CodecError, crc32c, defaultRegistry } from "@z/codecs";
import { checkCodec, contextFor } from "@z/codecs/testing";
import { checkChecksumFixtures } from "./checksum-fixtures.js";
import { checksumCases } from "./python-fixtures.js";

// Round trips, corruption detection, config handling, and numcodecs 0.16's bytes byte for byte.
checkCodec(
  crc32c,
  {
    configs: [{ id: "crc32c" }, { id: "crc32c", location: "start" }, { id: "crc32c", location: "end" }],
    encoded: checksumCases("crc32c", "0.16").map((c) => ({
      name: c.name,
      config: c.config,
      decoded: c.input,
      encoded: c.encoded,
    })),
    exactEncoding: true,
  },
  { describe, it },
);

checkChecksumFixtures(crc32c, "crc32c", { describe, it, expect }, "0.16");

describe("crc32c", () => {
  it("appends the CRC-32C (Castagnoli) of the data, little-endian, as numcodecs 0.16 does by default", async () => {
    const data = new TextEncoder().encode("123456789");
    const encoded = (await crc32c.create().encode(data, contextFor(data))) as Uint8Array;
    expect(encoded.subarray(0, 9)).toEqual(data);
    // 0xe3069283 is CRC-32C's published check value for "123456789".
    expect([...encoded.subarray(9)]).toEqual([0x83, 0x92, 0x06, 0xe3]);
    expect(crc32c.create().toJSON()).toEqual({ id: "crc32c" });
    expect(crc32c.create({ location: "start" }).toJSON()).toEqual({ id: "crc32c", location: "start" });
    expect(() => crc32c.create({ id: "crc32c", location: "middle" })).toThrow(/location/);
  });

  it("is in the default registry, so arrays numcodecs >= 0.14 wrote with it open", async () => {
    const codec = await defaultRegistry.create({ id: "crc32c" });
    expect(codec.toJSON()).toEqual({ id: "crc32c" });
  });

  it("agrees with a byte-at-a-time CRC-32C at every length and offset around its 8-byte steps", async () => {
    const table = new Uint32Array(256).map((_, n) => {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
      return c >>> 0;
    });
    const slow = (bytes: Uint8Array) => {
      let crc = 0xffffffff;
      for (const b of bytes) crc = table[(crc ^ b) & 0xff]! ^ (crc >>> 8);
      return (crc ^ 0xffffffff) >>> 0;
    };
    const buffer = new Uint8Array(300).map((_, i) => (i * 197 + 13) & 0xff);
    const codec = crc32c.create();
    for (let offset = 0; offset < 9; offset++) {
      for (let length = 0; length < 40; length++) {
        const data = buffer.subarray(offset, offset + length);
        const encoded = (await codec.encode(data, contextFor(data))) as Uint8Array;
        const stored = new DataView(encoded.buffer, encoded.byteOffset).getUint32(length, true);
        expect(stored, `offset ${offset}, length ${length}`).toBe(slow(data));
      }
    }
  });

  it("names the codec and the chunk when the checksum does not match", async () => {
    const data = new Uint8Array([1, 2, 3, 4, 5]);
    const encoded = (await crc32c.create().encode(data, contextFor(data))) as Uint8Array;
    encoded[2]! ^= 1;
    const context = { ...contextFor(data), key: "arr/3.1" };
    expect(() => crc32c.create().decode(encoded, context)).toThrow(CodecError);
    expect(() => crc32c.create().decode(encoded, context)).toThrow(/crc32c checksum mismatch in chunk arr\/3\.1/);
  });
});
