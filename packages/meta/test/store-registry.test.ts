// The store registry: store packages declare their schemes, kvstore drivers and thread kinds; the
// openers look them up. Each test removes what it registered.
import { afterEach, describe, expect, it } from "vitest";
import {
  openThreadStore,
  registeredLocationOpener,
  registerStoreDriver,
  type Store,
  type StoreDriver,
  storeDriverForKvStore,
  storeDriverForScheme,
  storeDriverForThread,
  storeDrivers,
  storePackageForKvStore,
  storePackageForOpener,
} from "../src/index.js";

const removers: (() => void)[] = [];
const register = (driver: StoreDriver): StoreDriver => {
  removers.push(registerStoreDriver(driver));
  return driver;
};
afterEach(() => {
  for (const remove of removers.splice(0)) remove();
});

const store: Store = { get: async () => undefined };

describe("the store registry", () => {
  it("finds a driver by URL scheme (any case), kvstore driver name and thread kind", () => {
    const kv = register({
      packageName: "kv-store",
      schemes: ["kv"],
      kvstoreDrivers: ["kv_store"],
      threadKinds: ["directory"],
      openThreadStore: () => store,
    });
    expect(storeDriverForScheme("KV")).toBe(kv);
    expect(storeDriverForKvStore("kv_store")).toBe(kv);
    expect(storeDriverForThread("directory")).toBe(kv);
    expect(openThreadStore({ kind: "directory", root: "/x", fsync: false })).toBe(store);
    expect(storeDriverForScheme("kv_store")).toBeUndefined();
    expect(storeDriverForKvStore("kv")).toBeUndefined();
  });

  it("lets the latest registration of a scheme win, and forgets a driver removed", () => {
    const first = register({ packageName: "a", schemes: ["kv"] });
    const remove = registerStoreDriver({ packageName: "b", schemes: ["kv"] });
    expect(storeDriverForScheme("kv")?.packageName).toBe("b");
    remove();
    expect(storeDriverForScheme("kv")).toBe(first);
    expect(storeDrivers()).toEqual([first]);
  });

  it("registers the same driver once", () => {
    const driver = register({ packageName: "a", schemes: ["kv"] });
    register(driver);
    expect(storeDrivers()).toEqual([driver]);
  });

  it("gives the location openers of the drivers registered", () => {
    const openHttp = (): Store => store;
    expect(registeredLocationOpener("openHttp")).toBeUndefined();
    register({ packageName: "my-http", locations: { openHttp } });
    expect(registeredLocationOpener("openHttp")).toBe(openHttp);
    expect(openThreadStore({ kind: "directory", root: "/x", fsync: false })).toBeUndefined();
  });

  it("names the package of z's that has each opener and kvstore driver", () => {
    expect(storePackageForOpener("openHttp")).toBe("@z/store-http");
    expect(storePackageForOpener("openHttpWithHeaders")).toBe("@z/store-http");
    expect(storePackageForOpener("openFile")).toBe("@z/store-fs");
    expect(storePackageForOpener("openZip")).toBe("@z/store-zip");
    expect(storePackageForOpener("openS3")).toBe("@z/store-s3");
    expect(storePackageForKvStore("file")).toBe("@z/store-fs");
    expect(storePackageForKvStore("gcs")).toBeUndefined();
  });
});
