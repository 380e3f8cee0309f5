import { readFileSync } from "node:fs";
import type { CodecConfig } from "@z/meta";
import type { EncodedFixture } from "@z/codecs/testing";

interface FixtureFile {
  numcodecs: string;
  inputs: Record<string, string>;
  cases: { name: string; config: CodecConfig; input: string; encoded: string }[];
}

const file = JSON.parse(
  readFileSync(new URL("./fixtures/numcodecs-0.11.json", import.meta.url), "utf8"),
) as FixtureFile;

const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, "base64"));

/** Bytes numcodecs 0.11 wrote (see fixtures/generate.py), for the codec `id`. */
export function numcodecsFixtures(id: string): EncodedFixture[] {
  return file.cases
    .filter((c) => c.config.id === id)
    .map((c) => ({ name: c.name, config: c.config, decoded: bytes(file.inputs[c.input]!), encoded: bytes(c.encoded) }));
}

export const numcodecsVersion = file.numcodecs;
