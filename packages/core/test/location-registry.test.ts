// openLocation and the store registry of @z/meta: a driver registered for a URL scheme opens that
// scheme's locations (in @z/core and @z/core/node alike), and a store package's driver registered
// gives its openers to every openLocation. Each test removes what it registered.
import { afterEach, describe, expect, it } from "vitest";
import { registerStoreDriver, type Store, type StoreDriver } from "@z/meta";
import { MemoryFile, ZipStore, zipStoreDriver } from "@z/store-zip";
import { create, LocationError, MemoryStore, openArray, openLocation, parseLocation } from "../src/index.js";
import { openLocation as openNodeLocation } from "../src/node.js";

const removers: (() => void)[] = [];
afterEach(() => {
  for (const remove of removers.splice(0)) remove();
});

/** A third party's store: `mem://name` is the MemoryStore called `name`. */
function memDriver(): { driver: StoreDriver; stores: Map<string, MemoryStore>; opened: string[] } {
  const stores = new Map<string, MemoryStore>();
  const opened: string[] = [];
  const driver: StoreDriver = {
    packageName: "mem-store",
    schemes: ["mem"],
    openUrl(url, { writable }) {
      opened.push(`${url} ${writable ? "rw" : "r"}`);
      const name = url.slice("mem://".length);
      if (!stores.has(name)) stores.set(name, new MemoryStore());
      return stores.get(name)!;
    },
  };
  removers.push(registerStoreDriver(driver));
  return { driver, stores, opened };
}

describe("openLocation with registered store drivers", () => {
  it("opens a registered scheme, with TensorStore's zarr2: part naming the node", async () => {
    const { stores, opened } = memDriver();
    expect(parseLocation("mem://a|zarr2:g/x")).toEqual({ kind: "url", scheme: "mem", url: "mem://a", node: "g/x" });
    const { store, path, location } = await openLocation("MEM://a|zarr2:g/x", { writable: true });
    expect([location.kind, path]).toEqual(["url", "g/x"]);
    await create({ store: store as MemoryStore, path, shape: [3], chunks: [2], dtype: "<i2", fillValue: 4 });
    const node = await openNodeLocation("mem://a|zarr2:g/x");
    expect(node.store).toBe(stores.get("a"));
    const array = await openArray(node.store, { path: node.path, mode: "r" });
    expect(Array.from((await array.get()).data as Int16Array)).toEqual([4, 4, 4]);
    expect(opened).toEqual(["MEM://a rw", "mem://a r"]);
  });

  it("refuses a scheme nobody registered, and zip files inside a registered one", async () => {
    expect(() => parseLocation("mem://a")).toThrow(/unsupported URL scheme/);
    memDriver();
    expect(() => parseLocation("mem://a|zip:x.zip")).toThrow(LocationError);
  });

  it("takes the openers not passed from the drivers registered", async () => {
    await expect(openLocation("x.zip|zarr2:a")).rejects.toMatchObject({ packageName: "@z/store-fs" });
    const file = new MemoryFile();
    removers.push(registerStoreDriver({ packageName: "my-files", locations: { openFile: () => file } }));
    await expect(openLocation("x.zip|zarr2:a")).rejects.toMatchObject({ packageName: "@z/store-zip" });
    removers.push(registerStoreDriver(zipStoreDriver));
    const written = await openLocation("x.zip|zarr2:a", { writable: true });
    await create({ store: written.store as ZipStore, path: written.path, shape: [2], chunks: [2], dtype: "|u1" });
    await written.close();
    const read = await openLocation("x.zip|zarr2:a");
    expect(read.store).toBeInstanceOf(ZipStore);
    expect((await openArray(read.store, { path: read.path, mode: "r" })).shape).toEqual([2]);
  });

  it("gives the store a registered driver opens its own close()", async () => {
    let closed = 0;
    const store: Store & { close(): Promise<void> } = { get: async () => undefined, close: async () => void closed++ };
    removers.push(registerStoreDriver({ packageName: "x", schemes: ["closing"], openUrl: () => store }));
    const opened = await openLocation("closing://here");
    await opened.close();
    expect(closed).toBe(1);
  });
});
