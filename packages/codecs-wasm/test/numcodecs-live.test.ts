/*
 * Live check that numcodecs 0.11 (zarr-python's codecs, via /usr/bin/python3) decodes what our
 * encoders write: every cname x shuffle x item size x a few levels and block sizes, and the
 * zstd and lz4 codecs. Skipped where that Python is missing. With Z_RECORD_OURS=1 it also
 * records a few of our encodings and numcodecs' decode of them in fixtures/, for the offline
 * test in ours-decoded-by-numcodecs.test.ts.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CodecConfig } from "@z/meta";
import { contextFor } from "@z/codecs/testing";
import { blosc } from "../src/blosc.js";
import { lz4 } from "../src/lz4.js";
import { zstd } from "../src/zstd.js";
import { sampleInputs, sha256 } from "./samples.js";
import { requireTool } from "../../../scripts/test-child/tools.js";

const PYTHON = "/usr/bin/python3";
const available = spawnSync(PYTHON, ["-c", "import numcodecs"], { encoding: "utf8" }).status === 0;

interface Case {
  name: string;
  config: CodecConfig;
  itemsize: number;
  encoded: string;
  sha256: string;
  size: number;
}

async function encodeAll(): Promise<Case[]> {
  const cases: Case[] = [];
  const add = async (name: string, config: CodecConfig, itemsize: number, data: Uint8Array) => {
    const factory = config.id === "blosc" ? blosc : config.id === "zstd" ? zstd : lz4;
    const encoded = (await factory.create(config).encode(data, contextFor(data, itemsize))) as Uint8Array;
    cases.push({
      name,
      config,
      itemsize,
      encoded: Buffer.from(encoded).toString("base64"),
      sha256: sha256(data),
      size: data.length,
    });
  };
  for (const { name, itemsize, data } of sampleInputs()) {
    for (const cname of ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"]) {
      for (const shuffle of [0, 1, 2, -1]) {
        for (const [clevel, blocksize] of [
          [5, 0],
          [1, 0],
          [9, 0],
          [0, 0],
          [5, 1000],
          [3, 256],
        ] as const) {
          const config = { id: "blosc", cname, clevel, shuffle, blocksize };
          await add(
            `${name} blosc ${cname} clevel ${clevel} shuffle ${shuffle} blocksize ${blocksize}`,
            config,
            itemsize,
            data,
          );
        }
      }
    }
    for (const level of [1, 3, -2, 19]) await add(`${name} zstd level ${level}`, { id: "zstd", level }, itemsize, data);
    await add(`${name} zstd checksum`, { id: "zstd", level: 1, checksum: true }, itemsize, data);
    for (const acceleration of [1, 20])
      await add(`${name} lz4 acceleration ${acceleration}`, { id: "lz4", acceleration }, itemsize, data);
  }
  return cases;
}

function numcodecsDecode(cases: readonly Case[]): {
  numcodecs: string;
  blosc: string;
  results: { sha256?: string; error?: string }[];
} {
  // numcodecs 0.11's Zstd has no checksum parameter; it reads such frames all the same.
  const configs = cases.map((c) => {
    const { checksum: _, ...rest } = c.config as CodecConfig & { checksum?: boolean };
    return { config: rest, encoded: c.encoded };
  });
  const run = spawnSync(PYTHON, [new URL("./python/check_ours.py", import.meta.url).pathname], {
    input: JSON.stringify({ cases: configs }),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`check_ours.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as ReturnType<typeof numcodecsDecode>;
}

describe("numcodecs 0.11 decodes our encodings", () => {
  requireTool("numcodecs", available);
  it("for every cname, shuffle, item size, level and block size, and zstd and lz4", { timeout: 60_000 }, async () => {
    const cases = await encodeAll();
    const { results } = numcodecsDecode(cases);
    const wrong = cases.flatMap((c, i) => {
      const r = results[i]!;
      if (c.size === 0 && c.config.id === "lz4") return [];
      return r.sha256 === c.sha256 ? [] : [`${c.name}: ${r.error ?? "decoded to different bytes"}`];
    });
    expect(wrong).toEqual([]);
    expect(cases.length).toBeGreaterThan(1000);

    if (process.env.Z_RECORD_OURS) {
      const keep = cases.filter((c) =>
        [
          "float32 blosc lz4 clevel 5 shuffle 1 blocksize 0",
          "float32 blosc zstd clevel 5 shuffle 1 blocksize 0",
          "int16 blosc blosclz clevel 5 shuffle 1 blocksize 0",
          "int16 blosc snappy clevel 9 shuffle 2 blocksize 0",
          "float64 blosc lz4 clevel 1 shuffle -1 blocksize 0",
          "text blosc lz4hc clevel 5 shuffle 2 blocksize 1000",
          "struct12 blosc zlib clevel 3 shuffle 1 blocksize 256",
          "float32 zstd level 3",
          "text zstd checksum",
          "text lz4 acceleration 1",
        ].includes(c.name),
      );
      const again = numcodecsDecode(keep);
      const recorded = keep.map((c, i) => ({ ...c, numcodecs_sha256: again.results[i]!.sha256 }));
      const doc = { numcodecs: again.numcodecs, blosc: again.blosc, cases: recorded };
      writeFileSync(
        new URL("./fixtures/ours-decoded-by-numcodecs.json", import.meta.url),
        `${JSON.stringify(doc, null, 1)}\n`,
      );
    }
  });
});
