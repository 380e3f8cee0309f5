import { describe, expect, it } from "vitest";
import { crc32, CodecError } from "@z/codecs";
import { checkCodec, contextFor } from "@z/codecs/testing";
import { checkChecksumFixtures } from "./checksum-fixtures.js";

checkCodec(crc32, { configs: [{ id: "crc32" }, { id: "crc32", location: "end" }] }, { describe, it });

checkChecksumFixtures(crc32, "crc32", { describe, it, expect });
checkChecksumFixtures(crc32, "crc32", { describe, it, expect }, "0.16");

describe("crc32", () => {
  it("puts the checksum first, as numcodecs 0.11 does, or last with location 'end' (newer numcodecs)", async () => {
    const data = new TextEncoder().encode("hello world");
    const first = (await crc32.create().encode(data, contextFor(data))) as Uint8Array;
    const last = (await crc32.create({ location: "end" }).encode(data, contextFor(data))) as Uint8Array;
    expect(first.subarray(4)).toEqual(data);
    expect(last.subarray(0, 11)).toEqual(data);
    expect(last.subarray(11)).toEqual(first.subarray(0, 4));
    expect(crc32.create().toJSON()).toEqual({ id: "crc32" });
    expect(crc32.create({ location: "end" }).toJSON()).toEqual({ id: "crc32", location: "end" });
    expect(() => crc32.create({ id: "crc32", location: "middle" })).toThrow(/location/);
  });

  it("names the codec and the chunk when the checksum does not match", async () => {
    const data = new Uint8Array([1, 2, 3, 4, 5]);
    const encoded = (await crc32.create().encode(data, contextFor(data))) as Uint8Array;
    encoded[6]! ^= 1;
    const context = { ...contextFor(data), key: "arr/3.1" };
    expect(() => crc32.create().decode(encoded, context)).toThrow(CodecError);
    expect(() => crc32.create().decode(encoded, context)).toThrow(/crc32 checksum mismatch in chunk arr\/3\.1/);
    expect(() => crc32.create().decode(encoded.subarray(0, 3), context)).toThrow(/too few/);
  });
});
