import { describe, expect, it } from "vitest";
import { adler32, CodecError } from "@z/codecs";
import { checkCodec, contextFor } from "@z/codecs/testing";
import { checkChecksumFixtures } from "./checksum-fixtures.js";

checkCodec(adler32, { configs: [{ id: "adler32" }, { id: "adler32", location: "end" }] }, { describe, it });

checkChecksumFixtures(adler32, "adler32", { describe, it, expect });
checkChecksumFixtures(adler32, "adler32", { describe, it, expect }, "0.16");

describe("adler32", () => {
  it("puts the checksum first, as numcodecs 0.11 does, or last with location 'end' (newer numcodecs)", async () => {
    const data = new TextEncoder().encode("hello world");
    const first = (await adler32.create().encode(data, contextFor(data))) as Uint8Array;
    const last = (await adler32.create({ location: "end" }).encode(data, contextFor(data))) as Uint8Array;
    expect(first.subarray(4)).toEqual(data);
    expect(last.subarray(0, 11)).toEqual(data);
    expect(last.subarray(11)).toEqual(first.subarray(0, 4));
    expect(adler32.create().toJSON()).toEqual({ id: "adler32" });
    expect(adler32.create({ location: "end" }).toJSON()).toEqual({ id: "adler32", location: "end" });
    expect(() => adler32.create({ id: "adler32", location: "middle" })).toThrow(/location/);
  });

  it("names the codec and the chunk when the checksum does not match", async () => {
    const data = new Uint8Array([1, 2, 3, 4, 5]);
    const encoded = (await adler32.create().encode(data, contextFor(data))) as Uint8Array;
    encoded[6]! ^= 1;
    const context = { ...contextFor(data), key: "arr/3.1" };
    expect(() => adler32.create().decode(encoded, context)).toThrow(CodecError);
    expect(() => adler32.create().decode(encoded, context)).toThrow(/adler32 checksum mismatch in chunk arr\/3\.1/);
    expect(() => adler32.create().decode(encoded.subarray(0, 3), context)).toThrow(/too few/);
  });
});
