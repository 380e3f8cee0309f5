/**
 * The v3 codec layer against TensorStore 0.1.85's zarr3 driver, with the codecs @z/codecs has
 * (bytes, transpose, gzip, crc32c); @z/codecs-wasm's test runs every case (blosc, zstd too).
 *
 * - Each chunk TensorStore stored (test/fixtures/tensorstore-v3-chunks.json) decodes, through the
 *   chain `compileCodecsV3` builds from its zarr.json, to the chunk TensorStore wrote, bit for bit.
 * - z encodes every chunk, and TensorStore reads the arrays z wrote back as the values it wrote;
 *   without a compressor, z's chunks are TensorStore's byte for byte.
 * - The fixtures are what the script makes again (TensorStore's output is deterministic: gzip
 *   writes mtime 0, and blosc and zstd have no time or randomness in their frames).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultRegistry, UnknownCodecError } from "@z/codecs";
import { requireTool } from "../../../scripts/test-child/tools.js";
import {
  compile,
  decodeChunk,
  encodeChunk,
  FIXTURES,
  registryIds,
  SCRIPT,
  tensorstoreCases,
  tensorstorePython,
  tensorstoreRead,
  writeCase,
} from "./v3-tensorstore-cases.js";

const registry = defaultRegistry;
const cases = tensorstoreCases();
const ours = cases.filter((c) => registryIds(c).every((id) => registry.has(id)));
const wasm = cases.filter((c) => !ours.includes(c));

describe("chunks TensorStore 0.1.85 wrote", () => {
  it("cover every data type and codec the script lists", () => {
    expect(cases.length).toBe(101);
    expect(cases.reduce((n, c) => n + c.chunks.length, 0)).toBe(262);
    // blosc and zstd are @z/codecs-wasm's: its test decodes those.
    expect(wasm.every((c) => registryIds(c).some((id) => id === "blosc" || id === "zstd"))).toBe(true);
    expect(ours.length).toBe(65);
  });

  for (const c of ours) {
    it(`${c.name}: decodes every stored chunk to the chunk TensorStore wrote`, async () => {
      const chain = await compile(c, registry);
      for (const chunk of c.chunks) {
        const decoded = await decodeChunk(chain, chunk.stored, `${c.name}/${chunk.key}`);
        expect(decoded, chunk.key).toEqual(chunk.decoded);
      }
    });
  }

  it("a chain needing blosc or zstd names the codec when the registry lacks it", async () => {
    for (const c of wasm) {
      const error = await compile(c, registry).catch((e: unknown) => e);
      expect(error, c.name).toBeInstanceOf(UnknownCodecError);
      expect((error as UnknownCodecError).key).toBe(`${c.name}/zarr.json`);
      expect((error as Error).message).toMatch(
        /the v2 codec "(blosc|zstd)", not registered here \(@z\/codecs-wasm has it/,
      );
    }
  });
});

describe("arrays z writes, read by TensorStore 0.1.85", () => {
  requireTool("tensorstore", tensorstorePython !== undefined);
  const root = mkdtempSync(join(tmpdir(), "z-v3-chunks-"));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(`${root}-again.json`, { force: true });
  });

  it("reads back every array as the values TensorStore wrote", async () => {
    for (const c of ours) {
      const chain = await compile(c, registry);
      const chunks = new Map<string, Uint8Array>();
      for (const chunk of c.chunks) {
        const encoded = await encodeChunk(chain, chunk.decoded, `${c.name}/${chunk.key}`);
        // Without a compressor there is one encoding: TensorStore's.
        if (!registryIds(c).includes("gzip")) expect(encoded, `${c.name} ${chunk.key}`).toEqual(chunk.stored);
        chunks.set(chunk.key, encoded);
      }
      writeCase(root, c, chunks);
    }
    const read = tensorstoreRead(root);
    expect(Object.keys(read).sort()).toEqual(ours.map((c) => c.name).sort());
    for (const c of ours) {
      expect(read[c.name]!.error, c.name).toBeUndefined();
      expect(read[c.name]!.array, c.name).toEqual(c.array);
    }
  }, 300_000);

  it("makes the same fixtures again", () => {
    const out = `${root}-again.json`;
    const run = spawnSync(tensorstorePython!, [SCRIPT, "generate", out], { encoding: "utf8", timeout: 300_000 });
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(FIXTURES, "utf8"));
  }, 300_000);
});
