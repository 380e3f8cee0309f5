/*
 * Live: the WebAssembly inflater decodes what CPython's zlib and gzip modules write
 * (test/python/zlib_streams.py: every level, window sizes, strategies, flushes, several gzip
 * members, every optional gzip header field, 0 bytes to 3.5 MiB) to what numcodecs 0.11 decodes
 * them to, through `decode` and `decodeInto`. Skipped where /usr/bin/python3 lacks numcodecs.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contextFor } from "@z/codecs/testing";
import { gzip, zlib } from "../src/deflate.js";
import { loadInflate } from "../src/inflate-kernels.js";
import { sha256 } from "./samples.js";
import { requireTool } from "../../../scripts/test-child/tools.js";

const PYTHON = "/usr/bin/python3";
const available = spawnSync(PYTHON, ["-c", "import numcodecs"], { encoding: "utf8" }).status === 0;

interface Stream {
  name: string;
  format: "zlib" | "gzip";
  encoded: string;
  size: number;
  sha256: string;
}

describe("the WebAssembly inflater on CPython's zlib and gzip streams (live)", () => {
  requireTool("numcodecs", available);
  let streams: Stream[] = [];
  beforeAll(async () => {
    expect(await loadInflate(), "the inflater loads").toBeDefined();
    const script = fileURLToPath(new URL("./python/zlib_streams.py", import.meta.url));
    const run = spawnSync(PYTHON, [script], { encoding: "utf8", maxBuffer: 1 << 28 });
    expect(run.stderr).toBe("");
    streams = JSON.parse(run.stdout) as Stream[];
  }, 60_000);
  afterAll(() => {
    streams = [];
  });

  it("decode gives numcodecs' bytes for every stream", async () => {
    expect(streams.length).toBeGreaterThan(150);
    for (const s of streams) {
      const codec = (s.format === "zlib" ? zlib : gzip).create();
      const encoded = Buffer.from(s.encoded, "base64");
      const decoded = (await codec.decode(
        encoded,
        contextFor(new Uint8Array(0), 1, { elements: s.size }),
      )) as Uint8Array;
      expect(decoded.length, s.name).toBe(s.size);
      expect(sha256(decoded), s.name).toBe(s.sha256);
    }
  }, 60_000);

  it("decode with a chunk size larger than the data, or none (object arrays), grows its output", async () => {
    for (const s of streams.filter((_, i) => i % 7 === 0)) {
      const codec = (s.format === "zlib" ? zlib : gzip).create();
      const encoded = Buffer.from(s.encoded, "base64");
      const larger = (await codec.decode(
        encoded,
        contextFor(new Uint8Array(0), 1, { elements: 3 * s.size + 5 }),
      )) as Uint8Array;
      expect(sha256(larger), s.name).toBe(s.sha256);
      const unbounded = (await codec.decode(
        encoded,
        contextFor(new Uint8Array(0), 1, { maxDecodedSize: Infinity }),
      )) as Uint8Array;
      expect(sha256(unbounded), s.name).toBe(s.sha256);
    }
  }, 60_000);

  it("decodeInto gives numcodecs' bytes into a buffer of the chunk's size or larger", async () => {
    for (const s of streams) {
      const codec = (s.format === "zlib" ? zlib : gzip).create();
      const encoded = Buffer.from(s.encoded, "base64");
      for (const room of [s.size, s.size + 100]) {
        const out = new Uint8Array(room).fill(0xee);
        const n = await codec.decodeInto!(encoded, out, contextFor(out));
        expect(n, s.name).toBe(s.size);
        expect(sha256(out.subarray(0, n)), s.name).toBe(s.sha256);
        expect(
          out.subarray(n).every((b) => b === 0xee),
          `${s.name}: nothing written past the data`,
        ).toBe(true);
      }
    }
  }, 60_000);
});
