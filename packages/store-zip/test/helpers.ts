import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import type { ByteSource, WritableByteSource } from "@z/store-zip";

const fixtures = new URL("./fixtures/", import.meta.url);

/** The bytes of `test/fixtures/<name>.zip` (written by test/python/generate.py). */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`${name}.zip`, fixtures)));
}

export interface ManifestEntry {
  data: string;
  method: number;
  crc: number;
  flags: number;
}

/** What zipfile read from each fixture: every name (the last entry of it), its bytes and method. */
export const manifest = JSON.parse(readFileSync(new URL("manifest.json", fixtures), "utf8")) as Record<string, { entries: Record<string, ManifestEntry>; count: number; comment: string }>;

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
export const text = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));
export const base64 = (data: string): Uint8Array => new Uint8Array(Buffer.from(data, "base64"));

/** A local file as a {@link WritableByteSource}: what `@z/store-fs` could offer as `fileByteSource`. */
export async function nodeFile(path: string): Promise<WritableByteSource & { close(): Promise<void> }> {
  const handle = await open(path, existsSync(path) ? "r+" : "w+");
  return {
    size: async () => (await handle.stat()).size,
    read: async (offset, length) => {
      const out = new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(out, filled, length - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return out.subarray(0, filled);
    },
    write: async (offset, data) => {
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await handle.write(data, written, data.length - written, offset + written);
        written += bytesWritten;
      }
    },
    truncate: (size) => handle.truncate(size),
    close: () => handle.close(),
  };
}

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
    this.#segments = this.#segments.filter((segment) => segment.offset < size).map(({ offset, data }) => ({ offset, data: data.subarray(0, size - offset) }));
    this.#size = size;
  }
}

/** Whether /usr/bin/python3 with zarr-python is here, for the live cross-checks. */
export const hasZarrPython = spawnSync("/usr/bin/python3", ["-c", "import zarr"], { stdio: "ignore" }).status === 0;

/** Runs a Python script with /usr/bin/python3 and returns its standard output, parsed as JSON. */
export function python<T = unknown>(script: string, ...args: string[]): T {
  const out = execFileSync("/usr/bin/python3", ["-c", script, ...args], { encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });
  return JSON.parse(out) as T;
}
