/**
 * Every chain of @z/codecs' TensorStore 0.1.85 fixtures (packages/codecs/test/fixtures/
 * tensorstore-v3-chunks.json) with this package's codecs registered: blosc (every cname and shuffle,
 * typesizes other than the item size, block sizes), zstd (levels, checksums) and the chains combining
 * them with transpose, bytes, gzip and crc32c. Each stored chunk decodes to the chunk TensorStore
 * wrote, bit for bit, and TensorStore reads back the arrays z encodes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultRegistry } from "@z/codecs";
import { registerWasmCodecs } from "../src/loaders.js";
import { requireTool } from "../../../scripts/test-child/tools.js";
import {
  compile,
  decodeChunk,
  encodeChunk,
  registryIds,
  tensorstoreCases,
  tensorstorePython,
  tensorstoreRead,
  writeCase,
} from "../../codecs/test/v3-tensorstore-cases.js";

const registry = registerWasmCodecs(defaultRegistry.clone());
const cases = tensorstoreCases();

describe("chunks TensorStore 0.1.85 wrote, with blosc and zstd", () => {
  it("has the blosc and zstd chains", () => {
    expect(cases.filter((c) => registryIds(c).includes("blosc")).length).toBe(29);
    expect(cases.filter((c) => registryIds(c).includes("zstd")).length).toBe(8);
  });

  for (const c of cases) {
    it(`${c.name}: decodes every stored chunk to the chunk TensorStore wrote`, async () => {
      const chain = await compile(c, registry);
      for (const chunk of c.chunks) {
        const decoded = await decodeChunk(chain, chunk.stored, `${c.name}/${chunk.key}`);
        expect(decoded, chunk.key).toEqual(chunk.decoded);
      }
    });
  }

  it("builds blosc with the typesize the metadata gives (encoding shuffles by it) and zstd with its checksum", async () => {
    const byName = (name: string) => cases.find((c) => c.name === name)!;
    expect((await compile(byName("blosc-typesize-2-int32"), registry)).registryConfigs).toEqual([
      { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0, typesize: 2 },
    ]);
    // TensorStore leaves typesize out for noshuffle; the chunk's item size stands in.
    expect((await compile(byName("blosc-zstd-noshuffle-int32"), registry)).registryConfigs).toEqual([
      { id: "blosc", cname: "zstd", clevel: 5, shuffle: 0, blocksize: 0, typesize: 4 },
    ]);
    expect((await compile(byName("zstd-3-checksum-int32"), registry)).registryConfigs).toEqual([
      { id: "zstd", level: 3, checksum: true },
    ]);
  });
});

describe("arrays z writes with blosc and zstd, read by TensorStore 0.1.85", () => {
  requireTool("tensorstore", tensorstorePython !== undefined);
  const root = mkdtempSync(join(tmpdir(), "z-v3-wasm-chunks-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("reads back every array as the values TensorStore wrote", async () => {
    for (const c of cases) {
      const chain = await compile(c, registry);
      const chunks = new Map<string, Uint8Array>();
      for (const chunk of c.chunks)
        chunks.set(chunk.key, await encodeChunk(chain, chunk.decoded, `${c.name}/${chunk.key}`));
      writeCase(root, c, chunks);
    }
    const read = tensorstoreRead(root);
    expect(Object.keys(read).sort()).toEqual(cases.map((c) => c.name).sort());
    for (const c of cases) {
      expect(read[c.name]!.error, c.name).toBeUndefined();
      expect(read[c.name]!.array, c.name).toEqual(c.array);
    }
  }, 300_000);
});
