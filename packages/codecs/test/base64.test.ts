import { describe, expect, it } from "vitest";
import { base64, CodecError } from "@z/codecs";
import { checkCodec, contextFor } from "@z/codecs/testing";
import { base64Fixtures, bytes, hex } from "./python-fixtures.js";

checkCodec(base64, { corruption: "none" }, { describe, it });

describe("base64: numcodecs fixtures", () => {
  for (const c of base64Fixtures()) {
    it(c.name, async () => {
      const codec = base64.create(c.config);
      expect(codec.toJSON()).toEqual({ id: "base64" });
      const encoded = bytes(c.encoded);
      if (c.input !== undefined) {
        const input = bytes(c.input);
        expect(hex((await codec.encode(input, contextFor(input))) as Uint8Array)).toBe(hex(encoded));
        expect(hex((await codec.decode(encoded, contextFor(input))) as Uint8Array)).toBe(hex(input));
      } else if (c.error !== undefined) {
        expect(() => codec.decode(encoded, contextFor(encoded))).toThrow(CodecError);
      } else {
        expect(hex((await codec.decode(encoded, contextFor(encoded))) as Uint8Array)).toBe(hex(bytes(c.decoded!)));
      }
    });
  }
});
