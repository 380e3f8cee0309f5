// The store author's driver: a store over a Map registered for the URL scheme `map:` and the
// TensorStore kvstore driver `map`, as docs/writing-a-store.md shows. Each named store starts with
// one array, `a` (int32, [7, 8, 9]), so a process that only loads this module has data to read.
import type { DirectoryListing, Store, StoreDriver } from "@z/meta";

class MapStore implements Store {
  readonly values = new Map<string, Uint8Array>();
  async get(key: string): Promise<Uint8Array | undefined> {
    return this.values.get(key)?.slice();
  }
  async set(key: string, value: Uint8Array): Promise<void> {
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
    for (const key of await this.list(prefix)) {
      const rest = key.slice(prefix.length);
      if (rest.includes("/")) prefixes.add(rest.slice(0, rest.indexOf("/")));
      else keys.add(rest);
    }
    return { keys: [...keys], prefixes: [...prefixes] };
  }
}

const stores = new Map<string, MapStore>();

/** The store called `name`, made with the array `a` in it. */
function named(name: string): MapStore {
  let store = stores.get(name);
  if (store === undefined) {
    store = new MapStore();
    const zarray = {
      zarr_format: 2,
      shape: [3],
      chunks: [3],
      dtype: "<i4",
      compressor: null,
      fill_value: 0,
      order: "C",
      filters: null,
    };
    store.values.set(".zgroup", new TextEncoder().encode('{"zarr_format": 2}'));
    store.values.set("a/.zarray", new TextEncoder().encode(JSON.stringify(zarray)));
    store.values.set("a/0", new Uint8Array(new Int32Array([7, 8, 9]).buffer));
    stores.set(name, store);
  }
  return store;
}

export const storeDriver: StoreDriver = {
  packageName: "map-store",
  schemes: ["map"],
  kvstoreDrivers: ["map"],
  openUrl: (url) => named(url.slice("map://".length)),
  openKvStore: (spec) => named(String(spec.name)),
};
