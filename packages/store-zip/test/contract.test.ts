import { describe, it } from "vitest";
import type { ByteRange, DirectoryListing, Store, StoreOptions } from "@z/meta";
import { describeStoreContract } from "@z/meta/testing";
import { MemoryFile, ZipStore, type ZipStoreOptions } from "@z/store-zip";

const api = { describe, it };
const contract = { refusesUnsafeKeys: true } as const;
const inMemory = (options: ZipStoreOptions = {}) => ZipStore.open(new MemoryFile(), { mode: "w", ...options });

describeStoreContract("ZipStore (stored, in memory)", () => inMemory(), api, contract);
describeStoreContract("ZipStore (deflate)", () => inMemory({ compression: "deflate", level: 1 }), api, contract);
describeStoreContract("ZipStore (forced zip64)", () => inMemory({ forceZip64: true }), api, contract);

/**
 * A ZipStore that flushes after every write and reopens the archive from its bytes before every
 * operation: each check then also goes through writing and parsing the central directory.
 */
class ReopeningZipStore implements Store {
  readonly file = new MemoryFile();
  constructor(readonly options: ZipStoreOptions) {}
  async #store(): Promise<ZipStore> {
    return ZipStore.open(this.file, { ...this.options, mode: "a" });
  }
  async get(key: string, options?: StoreOptions) {
    return (await this.#store()).get(key, options);
  }
  async getRange(key: string, range: ByteRange, options?: StoreOptions) {
    return (await this.#store()).getRange(key, range, options);
  }
  async list(prefix?: string) {
    return (await this.#store()).list(prefix);
  }
  async listDir(prefix: string): Promise<DirectoryListing> {
    return (await this.#store()).listDir(prefix);
  }
  // One archive, one writer at a time: writes are chained so concurrent sets do not race.
  #queue: Promise<unknown> = Promise.resolve();
  set(key: string, value: Uint8Array) {
    const copy = value.slice();
    return this.#chain(async () => {
      const store = await this.#store();
      await store.set(key, copy);
      await store.close();
    });
  }
  delete(key: string) {
    return this.#chain(async () => {
      const store = await this.#store();
      await store.delete(key);
      await store.close();
    });
  }
  #chain(task: () => Promise<void>): Promise<void> {
    const next = this.#queue.then(task);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

describeStoreContract(
  "ZipStore reopened from its bytes around every write",
  () => new ReopeningZipStore({}),
  api,
  contract,
);
describeStoreContract(
  "ZipStore reopened around every write (deflate, zip64)",
  () => new ReopeningZipStore({ compression: "deflate", forceZip64: true }),
  api,
  contract,
);
