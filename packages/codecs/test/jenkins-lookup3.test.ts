import { describe, expect, it } from "vitest";
import { jenkinsLookup3 } from "@z/codecs";
import { checkCodec, contextFor } from "@z/codecs/testing";
import { checkChecksumFixtures } from "./checksum-fixtures.js";
import { lookup3Hash } from "../src/checksum32.js";

checkCodec(
  jenkinsLookup3,
  {
    configs: [
      { id: "jenkins_lookup3", initval: 0, prefix: null },
      { id: "jenkins_lookup3", initval: 1230, prefix: [72, 105] },
    ],
  },
  { describe, it },
);

checkChecksumFixtures(jenkinsLookup3, "jenkins_lookup3", { describe, it, expect });

describe("jenkins_lookup3", () => {
  const text = (s: string) => new TextEncoder().encode(s);

  it("gives Bob Jenkins' own test values (lookup3.c driver5)", () => {
    expect(lookup3Hash(text(""), 0)).toBe(0xdeadbeef);
    expect(lookup3Hash(text(""), 0xdeadbeef)).toBe(0xbd5b7dde);
    expect(lookup3Hash(text("Four score and seven years ago"), 0)).toBe(0x17770551);
    expect(lookup3Hash(text("Four score and seven years ago"), 1)).toBe(0xcd628161);
    expect(lookup3Hash(text("jenkins"), 0)).toBe(202276345);
  });

  it("writes numcodecs' config and appends the hash", async () => {
    const codec = jenkinsLookup3.create();
    expect(codec.toJSON()).toEqual({ id: "jenkins_lookup3", initval: 0, prefix: null });
    const data = text("Four score and seven years ago");
    const encoded = (await codec.encode(data, contextFor(data))) as Uint8Array;
    expect([...encoded.subarray(-4)]).toEqual([0x51, 0x05, 0x77, 0x17]);
    expect(() => jenkinsLookup3.create({ initval: -1 })).toThrow(/initval/);
    expect(() => jenkinsLookup3.create({ prefix: [256] })).toThrow(/prefix/);
  });
});
