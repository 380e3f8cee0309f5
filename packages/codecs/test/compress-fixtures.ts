import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { CodecConfig, DataType } from "@z/meta";
import type { ChunkContext } from "@z/codecs";

/** One entry of test/fixtures/{bz2,lzma}/manifest.json (written by test/python/compress_fixtures.py). */
export interface CompressFixture {
  readonly name: string;
  readonly file: string;
  /** The numcodecs config to decode it with (as the JSON parser of @z/meta would give it). */
  readonly config: CodecConfig;
  /** What Python decodes it to, or the error Python raises. */
  readonly python: { readonly size: number; readonly sha256: string } | { readonly error: string };
  /** The input it was made from, when there is one. */
  readonly input?: string;
  readonly note?: string;
  /** Our fixtures: the size of Python's own encoding of the input. */
  readonly python_size?: number;
  readonly encoded: Uint8Array;
}

interface Manifest {
  readonly numcodecs: string;
  readonly inputs: Record<string, { size: number; sha256: string }>;
  readonly fixtures: readonly Omit<CompressFixture, "encoded">[];
}

const LZMA1 = 0x4000000000000001n;

/** The fixtures of `codec`, with FILTER_LZMA1 ids as bigints (as @z/meta parses them). */
export function compressFixtures(codec: "bz2" | "lzma"): { inputs: Manifest["inputs"]; fixtures: CompressFixture[] } {
  const dir = new URL(`./fixtures/${codec}/`, import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL("manifest.json", dir), "utf8"), (key, value: unknown) =>
    key === "id" && value === 2 ** 62 ? LZMA1 : value,
  ) as Manifest;
  const fixtures = manifest.fixtures.map((f) => ({ ...f, encoded: new Uint8Array(readFileSync(new URL(f.file, dir))) }));
  return { inputs: manifest.inputs, fixtures };
}

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

const U1: DataType = { kind: "u", byteOrder: "|", itemsize: 1 };

/** A chunk context of `size` one-byte elements. */
export function byteChunk(size: number, key = "data/0.0"): ChunkContext {
  return { dtype: U1, itemsize: 1, elements: size, key };
}

/** Whether two byte arrays are equal (vitest's `toEqual` is slow on large arrays). */
export function sameBytes(actual: unknown, expected: Uint8Array): boolean {
  return actual instanceof Uint8Array && Buffer.from(actual.buffer, actual.byteOffset, actual.length).equals(expected);
}
