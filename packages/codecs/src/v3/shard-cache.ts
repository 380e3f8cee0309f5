import type { ShardIndex } from "./shard-index.js";

/**
 * The shard indexes a `sharding_indexed` codec has read by ranges, by shard key, least recently
 * used first out, holding at most `limit` bytes of decoded entries (16 per inner chunk). A read
 * under way is shared: two regions of one shard read at once read its index once. A key's entry
 * goes when the codec encodes that shard and in `forget` (which @z/core calls when it stores or
 * deletes the shard); another process rewriting a shard is not seen until the entry leaves.
 */
export class IndexCache {
  readonly #limit: number;
  readonly #entries = new Map<string, ShardIndex>();
  readonly #pending = new Map<string, Promise<ShardIndex | undefined>>();
  #bytes = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The index of the shard at `key`: cached, being read, or read now by `load` (`undefined`, the
   * shard is not stored, is not cached).
   */
  get(key: string, load: () => Promise<ShardIndex | undefined>): Promise<ShardIndex | undefined> {
    const cached = this.#entries.get(key);
    if (cached !== undefined) {
      this.#entries.delete(key); // re-inserted: now the most recently used
      this.#entries.set(key, cached);
      return Promise.resolve(cached);
    }
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const loading = load().then(
      (index) => {
        // Forgotten while it was read: the shard may have changed meanwhile.
        if (this.#pending.get(key) !== loading) return index;
        this.#pending.delete(key);
        if (index !== undefined) this.#put(key, index);
        return index;
      },
      (error: unknown) => {
        if (this.#pending.get(key) === loading) this.#pending.delete(key);
        throw error;
      },
    );
    this.#pending.set(key, loading);
    return loading;
  }

  #put(key: string, index: ShardIndex): void {
    const size = index.entries.byteLength;
    if (size > this.#limit) return;
    this.#bytes += size;
    this.#entries.set(key, index);
    for (const [old, entry] of this.#entries) {
      if (this.#bytes <= this.#limit) break;
      this.#entries.delete(old);
      this.#bytes -= entry.entries.byteLength;
    }
  }

  /** Drops what is cached or being read of the shard at `key`. */
  delete(key: string): void {
    this.#pending.delete(key);
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.entries.byteLength;
  }
}
