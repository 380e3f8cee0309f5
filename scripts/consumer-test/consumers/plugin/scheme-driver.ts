// The store author's driver: a store over a Map registered for the URL scheme `map:` and the
// TensorStore kvstore driver `map`, as docs/writing-a-store.md shows. Each named store starts with
// one array, `a` (int32, [7, 8, 9]), so a process that only loads this module has data to read.
// A second driver, `keyed`, reads its TensorStore kvstore spec itself (a kvstore spec hook, as
// z's own stores do): `{"driver": "keyed", "store": NAME, "path": ...}` and `keyed://NAME/PATH`,
// its members checked and written back by the hook, its errors the spec's own.
import type { DirectoryListing, KvStoreSpecHook, Store, StoreDriver } from "@z/meta";
import { requireString, SpecError } from "@z/meta/spec";

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

/** A `keyed` kvstore as the hook reads it. */
interface KeyedKvStore {
  readonly driver: "keyed";
  readonly store: string;
  readonly path: string;
}

const keyedKvStoreSpec: KvStoreSpecHook<KeyedKvStore> = {
  drivers: ["keyed"],
  urlSchemes: ["keyed"],
  parse: (m, path) => {
    const store = m.take("store");
    if (store === undefined) throw new SpecError("Expected string, but member is missing", { member: m.at("store") });
    return { driver: "keyed", store: requireString(store, m.at("store")), path };
  },
  parseUrl: (root, member, tools) => {
    const rest = root.slice("keyed://".length);
    const slash = rest.indexOf("/");
    if (!root.startsWith("keyed://") || slash === 0) throw new SpecError(`Invalid keyed URL: ${root}`, { member });
    return {
      driver: "keyed",
      store: slash < 0 ? rest : rest.slice(0, slash),
      path: slash < 0 ? "" : tools.decode(rest.slice(slash + 1), member),
    };
  },
  toJson: (spec) => ({ driver: "keyed", store: spec.store, path: spec.path }),
  describe: (spec) => `keyed://${spec.store}/${spec.path}`,
  openers: () => [],
  open: async (spec) => ({ store: named(spec.store), path: spec.path.replace(/\/+$/, "") }),
};

export const keyedStoreDriver: StoreDriver = {
  packageName: "map-store",
  kvstoreDrivers: ["keyed"],
  kvstoreSpec: () => keyedKvStoreSpec,
};

/** What `ZARR_STORES` registers from this module. */
export const storeDrivers: readonly StoreDriver[] = [storeDriver, keyedStoreDriver];
