// Test helpers that run in Node and in Chromium (fixtures are read through the browser run's
// `readFileSync` shim, so each URL is written whole on import.meta.url, as Vite rewrites them);
// the Node-only ones are in node-helpers.ts.
import { readFileSync } from "node:fs";
import type { ByteSource, WritableByteSource } from "@z/store-zip";

/** The bytes of `test/fixtures/<name>.zip` (written by test/python/generate.py). */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`./fixtures/${name}.zip`, import.meta.url)));
}

export interface ManifestEntry {
  data: string;
  method: number;
  crc: number;
  flags: number;
}

/** What zipfile read from each fixture: every name (the last entry of it), its bytes and method. */
export const manifest = JSON.parse(
  readFileSync(new URL("./fixtures/manifest.json", import.meta.url), "utf8"),
) as Record<string, { entries: Record<string, ManifestEntry>; count: number; comment: string }>;

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
export const text = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);
export const base64 = (data: string): Uint8Array => new Uint8Array(Buffer.from(data, "base64"));

/** A source that records every read, to show which bytes a store fetched. */
export class CountingSource implements ByteSource {
  readonly reads: { offset: number; length: number }[] = [];
  constructor(readonly inner: ByteSource) {}

  get bytesRead(): number {
    return this.reads.reduce((sum, read) => sum + read.length, 0);
  }

  size(): Promise<number> {
    return this.inner.size();
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    this.reads.push({ offset, length });
    return this.inner.read(offset, length);
  }
}

/**
 * A huge, mostly empty in-memory file: writes are kept as segments, everything else reads as
 * zeros. Lets the tests put entries past 4 GiB without 4 GiB of memory.
 */
export class SparseFile implements WritableByteSource {
  #segments: { offset: number; data: Uint8Array }[] = [];
  #size = 0;

  async size(): Promise<number> {
    return this.#size;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const out = new Uint8Array(Math.max(0, Math.min(length, this.#size - offset)));
    for (const { offset: at, data } of this.#segments) {
      const from = Math.max(at, offset);
      const to = Math.min(at + data.length, offset + out.length);
      if (from < to) out.set(data.subarray(from - at, to - at), from - offset);
    }
    return out;
  }

  async write(offset: number, data: Uint8Array): Promise<void> {
    this.#segments.push({ offset, data: data.slice() });
    this.#size = Math.max(this.#size, offset + data.length);
  }

  async truncate(size: number): Promise<void> {
    this.#segments = this.#segments
      .filter((segment) => segment.offset < size)
      .map(({ offset, data }) => ({ offset, data: data.subarray(0, size - offset) }));
    this.#size = size;
  }
}

/** Whether two byte arrays are equal: `toEqual` compares megabytes element by element, slowly. */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (a === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A remote file read with HTTP range requests through `fetch`: the least a `ByteSource` over HTTP
 * needs (`@z/store-http`'s `HttpByteSource` adds retries and checks, but this package's tests may
 * not import it). Anything but a 206 of the asked length is an error.
 */
export function rangeSource(url: string): ByteSource {
  return {
    async size() {
      const response = await fetch(url, { method: "HEAD" });
      if (!response.ok) throw new Error(`HEAD ${url}: ${response.status}`);
      return Number(response.headers.get("content-length"));
    },
    async read(offset, length, options = {}) {
      const response = await fetch(url, {
        headers: { range: `bytes=${offset}-${offset + length - 1}` },
        signal: options.signal,
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (response.status !== 206 || bytes.length !== length)
        throw new Error(`GET ${url} bytes ${offset}+${length}: ${response.status} with ${bytes.length} bytes`);
      return bytes;
    },
  };
}
