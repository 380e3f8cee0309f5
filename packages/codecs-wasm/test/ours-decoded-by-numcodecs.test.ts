/*
 * Encodings our codecs wrote, recorded with the SHA-256 of what numcodecs 0.11 decoded them to
 * (see numcodecs-live.test.ts, run with Z_RECORD_OURS=1). numcodecs decoded each to the input
 * (its SHA-256 is the input's), and so do we.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CodecConfig } from "@z/meta";
import { contextFor } from "@z/codecs/testing";
import { blosc } from "../src/blosc.js";
import { lz4 } from "../src/lz4.js";
import { zstd } from "../src/zstd.js";
import { sampleInputs, sha256 } from "./samples.js";

interface Recorded {
  numcodecs: string;
  blosc: string;
  cases: {
    name: string;
    config: CodecConfig;
    itemsize: number;
    encoded: string;
    sha256: string;
    size: number;
    numcodecs_sha256: string;
  }[];
}

const recorded = JSON.parse(
  readFileSync(new URL("./fixtures/ours-decoded-by-numcodecs.json", import.meta.url), "utf8"),
) as Recorded;

describe(`our encodings, as numcodecs ${recorded.numcodecs} (c-blosc ${recorded.blosc}) decoded them`, () => {
  const inputs = new Map(sampleInputs().map((s) => [sha256(s.data), s]));
  for (const c of recorded.cases) {
    it(c.name, async () => {
      // numcodecs decoded our bytes to the input…
      expect(c.numcodecs_sha256).toBe(c.sha256);
      expect(inputs.has(c.sha256)).toBe(true);
      // …and so do we.
      const factory = c.config.id === "blosc" ? blosc : c.config.id === "zstd" ? zstd : lz4;
      const encoded = new Uint8Array(Buffer.from(c.encoded, "base64"));
      const decoded = (await factory
        .create(c.config)
        .decode(encoded, contextFor(new Uint8Array(c.size), c.itemsize))) as Uint8Array;
      expect(sha256(decoded)).toBe(c.numcodecs_sha256);
    });
  }
});
