// A spec's kvstore naming a store driver registered in @z/meta's registry (a third party's): as a
// kvstore object (`{"driver": "kv", ...}`, given to the driver's openKvStore with its members) and
// as a KvStore URL of its scheme (`kv://name|zarr2:path`, opened by its openUrl). Each test removes
// what it registered.
import { afterEach, describe, expect, it } from "vitest";
import { MemoryStore } from "@z/core";
import { registerStoreDriver, type JsonValue, type StoreDriver } from "@z/meta";
import { openSpec, openSpecStore } from "../src/index.js";
import { openSpec as openNodeSpec } from "../src/node.js";

const removers: (() => void)[] = [];
afterEach(() => {
  for (const remove of removers.splice(0)) remove();
});

/** `kv` stores: MemoryStores by name; records what each open was given. */
function kvDriver(): { stores: Map<string, MemoryStore>; given: JsonValue[] } {
  const stores = new Map<string, MemoryStore>();
  const given: JsonValue[] = [];
  const named = (name: string): MemoryStore => {
    if (!stores.has(name)) stores.set(name, new MemoryStore());
    return stores.get(name)!;
  };
  const driver: StoreDriver = {
    packageName: "kv-store",
    schemes: ["kv"],
    kvstoreDrivers: ["kv"],
    openKvStore(members, { writable }) {
      given.push({ ...members, writable });
      return named(String(members.name));
    },
    openUrl(url, { writable }) {
      given.push({ url, writable });
      return named(url.slice("kv://".length));
    },
  };
  removers.push(registerStoreDriver(driver));
  return { stores, given };
}

const create = { create: true, metadata: { shape: [4], chunks: [2], dtype: "<u2", fill_value: 3 } };

describe("a spec's kvstore of a registered driver", () => {
  it("opens a kvstore object with the driver's openKvStore, given its members", async () => {
    const { stores, given } = kvDriver();
    const kvstore = { driver: "kv", name: "a", path: "x/" };
    const created = await openSpec({ driver: "zarr2", kvstore, ...create });
    expect(Array.from((await created.get()).data as Uint16Array)).toEqual([3, 3, 3, 3]);
    expect(await stores.get("a")!.list()).toContain("x/.zarray");
    const read = await openNodeSpec({ driver: "zarr2", kvstore, path: "" }, { readOnly: true });
    expect(read.shape).toEqual([4]);
    expect(given).toEqual([
      { driver: "kv", name: "a", path: "x/", writable: true },
      { driver: "kv", name: "a", path: "x/", writable: false },
    ]);
  });

  it("opens a KvStore URL of the driver's scheme with its openUrl, the node path after |zarr2:", async () => {
    const { stores, given } = kvDriver();
    await openSpec({ driver: "zarr2", kvstore: "kv://b", path: "g/y", ...create });
    expect(await stores.get("b")!.list()).toContain("g/y/.zarray");
    const opened = await openSpecStore("kv://b|zarr2:g/y", { readOnly: true });
    expect(opened.path).toBe("g/y");
    expect((await openSpec("kv://b|zarr2:g/y")).shape).toEqual([4]);
    expect(given[0]).toEqual({ url: "kv://b", writable: true });
  });

  it("refuses a driver nobody registered, as TensorStore does", async () => {
    await expect(openSpec({ driver: "zarr2", kvstore: { driver: "kv" } })).rejects.toThrow(
      /"kv" is not a registered KvStore driver/,
    );
  });
});
