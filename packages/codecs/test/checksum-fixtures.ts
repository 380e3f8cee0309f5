import type { CodecConfig } from "@z/meta";
import type { Codec } from "@z/codecs";
import { contextFor } from "@z/codecs/testing";
import { checksumCases, hex, type ChecksumFixtureVersion } from "./python-fixtures.js";

/** One test per checksum fixture: config round trip, encoding byte for byte, and decoding back. */
export function checkChecksumFixtures(
  factory: { create(config: CodecConfig): Codec },
  id: string,
  api: {
    describe: (name: string, body: () => void) => void;
    it: (name: string, body: () => Promise<void>) => void;
    expect: typeof import("vitest").expect;
  },
  version: ChecksumFixtureVersion = "0.11",
): void {
  const { describe, it, expect } = api;
  const cases = checksumCases(id, version);
  describe(`${id}: numcodecs ${version} fixtures (${cases.length})`, () => {
    for (const c of cases) {
      it(c.name, async () => {
        const codec = factory.create(c.config);
        expect(codec.toJSON()).toEqual(c.config);
        expect(hex((await codec.encode(c.input, contextFor(c.input))) as Uint8Array)).toBe(hex(c.encoded));
        expect(hex((await codec.decode(c.encoded, contextFor(c.input))) as Uint8Array)).toBe(hex(c.input));
      });
    }
  });
}
