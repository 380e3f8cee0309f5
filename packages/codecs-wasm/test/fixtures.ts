import { readFileSync } from "node:fs";
import type { CodecConfig } from "@z/meta";
import type { EncodedFixture } from "@z/codecs/testing";

interface FixtureFile {
  numcodecs: string;
  blosc: string;
  inputs: Record<string, string>;
  cases: { name: string; config: CodecConfig; input: string; itemsize: number; encoded: string }[];
}

const file = JSON.parse(readFileSync(new URL("./fixtures/numcodecs-0.11.json", import.meta.url), "utf8")) as FixtureFile;

export const bytes = (base64: string): Uint8Array => new Uint8Array(Buffer.from(base64, "base64"));

/**
 * Bytes numcodecs 0.11 wrote (see python/generate_fixtures.py) for the codec `id`, with the item
 * size numcodecs saw (blosc shuffles by it) in the chunk context.
 */
export function numcodecsFixtures(id: string, filter: (name: string) => boolean = () => true): EncodedFixture[] {
  return file.cases
    .filter((c) => c.config.id === id && filter(c.name))
    .map((c) => {
      const decoded = bytes(file.inputs[c.input]!);
      return {
        name: c.name,
        config: c.config,
        decoded,
        encoded: bytes(c.encoded),
        context: {
          itemsize: c.itemsize,
          elements: decoded.length / c.itemsize,
          dtype: c.itemsize <= 8 && [1, 2, 4, 8].includes(c.itemsize)
            ? { kind: "u", byteOrder: c.itemsize === 1 ? "|" : "<", itemsize: c.itemsize }
            : { kind: "V", byteOrder: "|", itemsize: c.itemsize },
        },
      };
    });
}

export const versions = { numcodecs: file.numcodecs, blosc: file.blosc };
