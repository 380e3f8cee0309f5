import { readFileSync } from "node:fs";
import type { CodecConfig, DataType } from "@z/meta";
import type { ChunkContext } from "@z/codecs";
import { sha256 as sha256Digest } from "../src/xz-checks.js";

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
  // One template URL on import.meta.url: what Vite also rewrites for the browser run.
  const read = (file: string) => readFileSync(new URL(`./fixtures/${codec}/${file}`, import.meta.url));
  const manifest = JSON.parse(read("manifest.json").toString("utf8"), (key, value: unknown) =>
    key === "id" && value === 2 ** 62 ? LZMA1 : value,
  ) as Manifest;
  const fixtures = manifest.fixtures.map((f) => ({ ...f, encoded: new Uint8Array(read(f.file)) }));
  return { inputs: manifest.inputs, fixtures };
}

/** SHA-256 in hex (the xz check's own implementation: no node:crypto, so the tests run in browsers). */
export function sha256(bytes: Uint8Array): string {
  return Array.from(sha256Digest(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

const U1: DataType = { kind: "u", byteOrder: "|", itemsize: 1 };

/** A chunk context of `size` one-byte elements. */
export function byteChunk(size: number, key = "data/0.0"): ChunkContext {
  return { dtype: U1, itemsize: 1, elements: size, key };
}

/** Whether two byte arrays are equal (vitest's `toEqual` is slow on large arrays). */
export function sameBytes(actual: unknown, expected: Uint8Array): boolean {
  if (!(actual instanceof Uint8Array) || actual.length !== expected.length) return false;
  for (let i = 0; i < expected.length; i++) if (actual[i] !== expected[i]) return false;
  return true;
}
