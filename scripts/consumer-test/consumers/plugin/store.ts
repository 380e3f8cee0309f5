// The store author: a store over a Map, held to the store contract by @z/meta/testing's checks,
// run without any test framework. A store that breaks the contract must fail them.
import { StoreError, ZarrError, type ByteRange, type DirectoryListing, type Store } from "@z/meta";
import { storeContractChecks, StoreContractError } from "@z/meta/testing";

class MapStore implements Store {
  readonly values = new Map<string, Uint8Array>();

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.values.get(key)?.slice();
  }

  async getRange(key: string, range: ByteRange): Promise<Uint8Array | undefined> {
    const value = this.values.get(key);
    if (value === undefined) return undefined;
    if ("suffixLength" in range) return value.slice(Math.max(0, value.length - range.suffixLength));
    return value.slice(range.offset, range.length === undefined ? value.length : range.offset + range.length);
  }

  async set(key: string, value: Uint8Array): Promise<void> {
    if (key === "" || key.startsWith("/")) throw new StoreError(`invalid key ${JSON.stringify(key)}`, { key });
    this.values.set(key, value.slice());
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }

  async list(prefix = ""): Promise<string[]> {
    return [...this.values.keys()].filter((key) => key.startsWith(prefix));
  }

  async listDir(prefix: string): Promise<DirectoryListing> {
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    for (const key of this.values.keys()) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash === -1) keys.add(rest);
      else prefixes.add(rest.slice(0, slash));
    }
    return { keys: [...keys], prefixes: [...prefixes] };
  }
}

/** Returns (without throwing) the names of the checks the stores `make` builds fail. */
async function failedChecks(make: () => Store): Promise<string[]> {
  const failed: string[] = [];
  for (const check of storeContractChecks()) {
    try {
      await check.run(make());
    } catch (error) {
      if (!(error instanceof StoreContractError)) throw error;
      failed.push(`${check.group}: ${check.name}: ${error.message}`);
    }
  }
  return failed;
}

const failures = await failedChecks(() => new MapStore());
if (failures.length > 0) throw new Error(`MapStore fails the store contract:\n${failures.join("\n")}`);
console.log(`storeContractChecks: MapStore passes all ${storeContractChecks().length}`);

// Hands out its own buffer: a caller changing it changes the store.
class LeakyStore extends MapStore {
  override async get(key: string): Promise<Uint8Array | undefined> {
    return this.values.get(key);
  }
}
const leaks = await failedChecks(() => new LeakyStore());
if (leaks.length === 0) throw new Error("storeContractChecks passed a store that hands out its own buffers");
console.log(`storeContractChecks: a leaky store fails ${leaks.length}, e.g. ${leaks[0]}`);

const error = new StoreError("disk on fire", { key: "a/0" });
if (!(error instanceof ZarrError) || error.code !== "ZARR_STORE")
  throw new Error("StoreError is a ZarrError ZARR_STORE");
