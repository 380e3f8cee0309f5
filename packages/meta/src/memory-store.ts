import { StoreError } from "./errors.js";
import type { ByteRange, DirectoryListing, Store } from "./store.js";

/**
 * A store that keeps values in a `Map`. Values are copied in and out, so a caller mutating a
 * buffer it passed or received never changes what the store holds.
 */
export class MemoryStore implements Store {
  readonly #values = new Map<string, Uint8Array>();

  async get(key: string): Promise<Uint8Array | undefined> {
    const value = this.#values.get(key);
    return value === undefined ? undefined : value.slice();
  }

  async getRange(key: string, range: ByteRange): Promise<Uint8Array | undefined> {
    const value = this.#values.get(key);
    if (value === undefined) return undefined;
    if ("suffixLength" in range) return value.slice(Math.max(0, value.length - range.suffixLength));
    const end = range.length === undefined ? value.length : range.offset + range.length;
    return value.slice(range.offset, end);
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    if (key === "" || key.startsWith("/")) throw new StoreError(`invalid key ${JSON.stringify(key)}`, { key });
    this.#values.set(key, value.slice());
  }

  async delete(key: string): Promise<void> {
    this.#values.delete(key);
  }

  async list(prefix = ""): Promise<string[]> {
    return [...this.#values.keys()].filter((key) => key.startsWith(prefix));
  }

  async listDir(prefix: string): Promise<DirectoryListing> {
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    for (const key of this.#values.keys()) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash === -1) keys.add(rest);
      else prefixes.add(rest.slice(0, slash));
    }
    return { keys: [...keys].sort(), prefixes: [...prefixes].sort() };
  }

  /** How many keys the store holds. */
  get size(): number {
    return this.#values.size;
  }
}
