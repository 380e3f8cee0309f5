import { readFileSync } from "node:fs";
import type { CodecConfig } from "@z/meta";
import type { EncodedFixture } from "@z/codecs/testing";

interface FixtureFile {
  numcodecs: string;
  blosc: string;
  inputs: Record<string, string>;
  cases: { name: string; config: CodecConfig; input: string; itemsize: number; encoded: string }[];
}

const read = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")) as FixtureFile;
const fileOld = read("numcodecs-0.11.json");
/** Blosc frames numcodecs 0.16 wrote with `typesize` in the config (python/numcodecs_016_fixtures.py). */
const file016 = read("numcodecs-0.16.json");

export const bytes = (base64: string): Uint8Array => new Uint8Array(Buffer.from(base64, "base64"));

/**
 * Bytes numcodecs 0.11 wrote (see python/generate_fixtures.py) for the codec `id`, with the item
 * size numcodecs saw (blosc shuffles by it) in the chunk context.
 */
export function numcodecsFixtures(
  id: string,
  filter: (name: string) => boolean = () => true,
  version: "0.11" | "0.16" = "0.11",
): EncodedFixture[] {
  const file = version === "0.11" ? fileOld : file016;
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
          dtype:
            c.itemsize <= 8 && [1, 2, 4, 8].includes(c.itemsize)
              ? { kind: "u", byteOrder: c.itemsize === 1 ? "|" : "<", itemsize: c.itemsize }
              : { kind: "V", byteOrder: "|", itemsize: c.itemsize },
        },
      };
    });
}

export const versions = { numcodecs: fileOld.numcodecs, blosc: fileOld.blosc };
