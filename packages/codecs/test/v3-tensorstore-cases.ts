/**
 * The chunks TensorStore 0.1.85 wrote (test/fixtures/tensorstore-v3-chunks.json, made by
 * test/python/tensorstore_v3_chunks.py), and what the cross-checks do with them: compile a case's
 * `codecs` with `compileCodecsV3`, run its stages over a chunk as an engine would (encode in order,
 * decode in reverse), and have TensorStore read what z wrote. Used by this package's test (the codecs
 * `@z/codecs` has) and by `@z/codecs-wasm`'s (every case, blosc and zstd too).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ArrayMetadataV3, NamedConfig } from "@z/meta";
import { parseArrayMetadataV3 } from "@z/meta/v3";
import type { CodecData, CodecRegistry } from "@z/codecs/registry";
import { compileCodecsV3, type CodecChainV3 } from "@z/codecs/v3";
import { tensorstorePython } from "../../../scripts/test-child/tools.js";

export const FIXTURES = new URL("./fixtures/tensorstore-v3-chunks.json", import.meta.url).pathname;
export const SCRIPT = new URL("./python/tensorstore_v3_chunks.py", import.meta.url).pathname;
export { tensorstorePython };

interface StoredCase {
  readonly zarr_json: string;
  /** The whole array as z holds it (C order, little-endian), base64. */
  readonly array: string;
  readonly chunks: Readonly<Record<string, { readonly stored: string; readonly decoded: string }>>;
}

export interface ChunkCase {
  readonly key: string;
  /** The bytes TensorStore stored. */
  readonly stored: Uint8Array;
  /** The chunk as z holds it in memory: C order, little-endian (fill past the array's edge). */
  readonly decoded: Uint8Array;
}

export interface TensorStoreCase {
  readonly name: string;
  readonly zarrJson: string;
  readonly meta: ArrayMetadataV3;
  readonly array: Uint8Array;
  readonly chunks: readonly ChunkCase[];
}

const bytes = (base64: string): Uint8Array => new Uint8Array(Buffer.from(base64, "base64"));

/** Every case of the fixtures, its zarr.json read by @z/meta. */
export function tensorstoreCases(): TensorStoreCase[] {
  const json = JSON.parse(readFileSync(FIXTURES, "utf8")) as Record<string, StoredCase>;
  return Object.entries(json).map(([name, c]) => ({
    name,
    zarrJson: c.zarr_json,
    meta: parseArrayMetadataV3(c.zarr_json, `${name}/zarr.json`),
    array: bytes(c.array),
    chunks: Object.entries(c.chunks).map(([key, chunk]) => ({
      key,
      stored: bytes(chunk.stored),
      decoded: bytes(chunk.decoded),
    })),
  }));
}

/** The v2 codec ids a case's chain needs from the registry (v3 core codecs are built from them), sharding's inner chains too. */
export function registryIds(c: TensorStoreCase): string[] {
  const ids: string[] = [];
  const walk = (codecs: readonly NamedConfig[]): void => {
    for (const codec of codecs) {
      if (["blosc", "gzip", "zstd", "crc32c"].includes(codec.name)) ids.push(codec.name);
      const inner = codec.configuration;
      if (inner?.codecs) walk(inner.codecs as unknown as NamedConfig[]);
      if (inner?.index_codecs) walk(inner.index_codecs as unknown as NamedConfig[]);
    }
  };
  walk(c.meta.codecs);
  return ids;
}

export function compile(c: TensorStoreCase, registry: CodecRegistry): Promise<CodecChainV3> {
  const { chunkShape: shape, dtype, fillValue } = c.meta;
  return compileCodecsV3(c.meta.codecs, { shape, dtype, fillValue }, registry, { key: `${c.name}/zarr.json` });
}

/**
 * Decodes a stored chunk through the chain's stages, last to first, as an engine does: the stage
 * next to the array -> bytes codec decodes to one chunk's bytes (its context says so), the ones
 * before it to the next stage's encoding, bounded as @z/core bounds v2 filters (8 chunks and 4 kB).
 */
export async function decodeChunk(chain: CodecChainV3, stored: Uint8Array, key: string): Promise<CodecData> {
  let data: CodecData = stored;
  const { stages } = chain;
  for (let i = stages.length - 1; i >= 0; i--) {
    const stage = stages[i]!;
    const next = stages[i - 1];
    const inner = stage.kind === "bytes-bytes" && next?.kind === "bytes-bytes";
    const chunkBytes = stage.chunk.elements * stage.chunk.itemsize;
    data = await stage.codec.decode(data, {
      ...stage.chunk,
      key,
      ...(inner ? { maxDecodedSize: chunkBytes * 8 + 4096 } : {}),
    });
  }
  return data;
}

/** Encodes a chunk (as z holds it) through the chain's stages, first to last. */
export async function encodeChunk(chain: CodecChainV3, decoded: Uint8Array, key: string): Promise<Uint8Array> {
  let data: CodecData = decoded;
  for (const stage of chain.stages) data = await stage.codec.encode(data, { ...stage.chunk, key });
  if (!(data instanceof Uint8Array)) throw new Error(`chunk ${key} did not encode to bytes`);
  return data;
}

/** Writes each case's zarr.json and `chunks` under `root/<case>/`, as a file kvstore holds them. */
export function writeCase(root: string, c: TensorStoreCase, chunks: ReadonlyMap<string, Uint8Array>): void {
  const dir = join(root, c.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "zarr.json"), c.zarrJson);
  for (const [key, data] of chunks) {
    const path = join(dir, key);
    if (!existsSync(dirname(path))) mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, data);
  }
}

/** What TensorStore reads of every case under `root`: the whole array (as `TensorStoreCase.array`), or its error. */
export function tensorstoreRead(root: string): Record<string, { array?: Uint8Array; error?: string }> {
  const run = spawnSync(tensorstorePython!, [SCRIPT, "read", root], {
    encoding: "utf8",
    timeout: 300_000,
    maxBuffer: 64 << 20,
  });
  if (run.status !== 0) throw new Error(`tensorstore_v3_chunks.py read failed: ${run.stderr.slice(-2000)}`);
  const out = JSON.parse(run.stdout) as Record<string, { array?: string; error?: string }>;
  return Object.fromEntries(
    Object.entries(out).map(([name, r]) => [
      name,
      r.array === undefined ? { error: r.error } : { array: bytes(r.array) },
    ]),
  );
}
