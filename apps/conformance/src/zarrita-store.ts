/**
 * A directory as zarrita.js 0.7.5 takes a store: any object with `get` and `set` of absolute keys
 * (`/a/zarr.json`). zarrita's own file store is in `@zarrita/storage`, a package of its own; this
 * is all the cross-check needs, and what zarrita writes lands as files z's `DirectoryStore` reads.
 * `getRange` (which zarrita needs to read shards) reads the file and slices it.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export class ZarritaFileStore {
  constructor(readonly root: string) {}

  async get(key: `/${string}`): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.#path(key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  async getRange(
    key: `/${string}`,
    range: { offset: number; length: number } | { suffixLength: number },
  ): Promise<Uint8Array | undefined> {
    const whole = await this.get(key);
    if (whole === undefined) return undefined;
    if ("suffixLength" in range) return whole.slice(Math.max(0, whole.length - range.suffixLength));
    return whole.slice(range.offset, range.offset + range.length);
  }

  async set(key: `/${string}`, value: Uint8Array): Promise<void> {
    const path = this.#path(key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, value);
  }

  #path(key: string): string {
    if (!key.startsWith("/") || key.split("/").includes("..")) throw new Error(`not a store key: ${key}`);
    return join(this.root, key.slice(1));
  }
}
