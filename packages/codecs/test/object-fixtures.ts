import type { CodecConfig } from "@z/meta";
import { CodecError, type Codec } from "@z/codecs";
import { encodedOf, hex, objectCases, objectDecoded, objectInput } from "./python-fixtures.js";

type Api = {
  describe: (name: string, body: () => void) => void;
  it: (name: string, body: () => Promise<void>) => void;
  expect: typeof import("vitest").expect;
};

/**
 * One test per numcodecs fixture of an object codec: the config round-trips, encoding the values
 * gives numcodecs' bytes, and decoding them gives what numcodecs decoded (or fails where it failed).
 */
export function checkObjectFixtures(
  factory: { create(config: CodecConfig): Codec },
  id: string,
  { describe, it, expect }: Api,
): void {
  const cases = objectCases(id);
  describe(`${id}: numcodecs fixtures (${cases.length})`, () => {
    for (const c of cases) {
      it(c.name, async () => {
        const codec = factory.create(c.config);
        expect(codec.toJSON()).toEqual(c.config);
        const { data, context } = objectInput(c);
        const encoded = encodedOf(c);
        expect(hex((await codec.encode(data, context)) as Uint8Array)).toBe(hex(encoded));
        const expected = objectDecoded(c);
        if (expected === undefined) {
          await expect(async () => codec.decode(encoded, context)).rejects.toThrow(CodecError);
        } else {
          expect(await codec.decode(encoded, context)).toEqual(expected);
        }
      });
    }
  });
}
