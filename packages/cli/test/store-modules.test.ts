// A third party's store in the zarr command: a module ZARR_STORES names (loadStoreModules, as bin.ts
// calls it) exports a store driver; its URL scheme then works as a STORE argument, and its kvstore
// driver in a TensorStore spec. The module is plain JavaScript importing nothing of z's.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { storeDriverForScheme } from "@z/meta";
import { loadStoreModules } from "../src/store-drivers.js";
import { run, tempDir } from "./helpers.js";

const MODULE = `
const stores = new Map();
class MapStore {
  values = new Map();
  async get(key) { return this.values.get(key)?.slice(); }
  async set(key, value) { this.values.set(key, value.slice()); }
  async delete(key) { this.values.delete(key); }
  async list(prefix = "") { return [...this.values.keys()].filter((k) => k.startsWith(prefix)); }
}
const named = (name) => stores.get(name) ?? stores.set(name, new MapStore()).get(name);
export const storeDriver = {
  packageName: "map-store",
  schemes: ["map"],
  kvstoreDrivers: ["map"],
  openUrl: (url) => named(url.slice("map://".length)),
  openKvStore: (spec) => named(spec.name),
};
`;

describe("ZARR_STORES: stores of other packages in the zarr command", () => {
  it("opens a registered scheme as STORE and a registered kvstore driver in a spec", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "map-store.mjs"), MODULE);
    await loadStoreModules("./map-store.mjs", dir);
    expect(storeDriverForScheme("map")?.packageName).toBe("map-store");

    const created = await run([
      "create",
      "map://m",
      "--path",
      "a",
      "--shape",
      "3",
      "--dtype",
      "<i4",
      "--fill-value",
      "7",
    ]);
    expect(created.code, created.err).toBe(0);
    const got = await run(["get", "map://m|zarr2:a"]);
    expect([got.code, got.out.trim()]).toEqual([0, "array([7, 7, 7], dtype=int32)"]);
    const spec = JSON.stringify({ driver: "zarr2", kvstore: { driver: "map", name: "m" }, path: "a" });
    const info = await run(["info", spec]);
    expect(info.code, info.err).toBe(0);
    expect(info.out).toMatch(/Shape\s*:\s*\(3,\)/);
  });

  it("names a module that does not load", async () => {
    await expect(loadStoreModules("./missing.mjs", await tempDir())).rejects.toThrow(
      /ZARR_STORES: cannot load \.\/missing\.mjs/,
    );
  });
});
