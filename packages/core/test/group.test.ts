import { describe, expect, it } from "vitest";
import { Group, group, MemoryStore, open, openGroup, ZarrArray } from "@z/core";

describe("groups", () => {
  it("create child groups and arrays, and list them sorted", async () => {
    const store = new MemoryStore();
    const root = await group({ store });
    const foo = await root.createGroup("foo");
    await foo.createDataset("bar", { shape: [20, 20], chunks: [10, 10], compressor: null });
    await root.createGroup("a/b");
    await root.createDataset("z", { shape: [1], compressor: null });
    expect(await root.groupKeys()).toEqual(["a", "foo"]);
    expect(await root.arrayKeys()).toEqual(["z"]);
    expect(await foo.arrayKeys()).toEqual(["bar"]);
    expect((await store.list()).sort()).toEqual([
      ".zgroup",
      "a/.zgroup",
      "a/b/.zgroup",
      "foo/.zgroup",
      "foo/bar/.zarray",
      "z/.zarray",
    ]);
  });

  it("getItem returns an array or a group by relative path", async () => {
    const root = await group();
    await root.createDataset("x/y", { shape: [3], compressor: null });
    expect(await root.getItem("x")).toBeInstanceOf(Group);
    const y = await root.getItem("x/y");
    expect(y).toBeInstanceOf(ZarrArray);
    expect((y as ZarrArray).name).toBe("/x/y");
    await expect(root.getItem("nope")).rejects.toMatchObject({ code: "ZARR_NOT_FOUND" });
  });

  it("requireGroup returns the existing group or makes one", async () => {
    const root = await group();
    const a = await root.requireGroup("a");
    await a.attrs.set("n", 1);
    expect(await (await root.requireGroup("a")).attrs.get("n")).toBe(1);
  });

  it("openGroup modes behave as zarr-python's open_group", async () => {
    const store = new MemoryStore();
    await expect(openGroup(store, { mode: "r" })).rejects.toMatchObject({ code: "ZARR_NOT_FOUND", key: ".zgroup" });
    await openGroup(store, { mode: "a" });
    await expect(openGroup(store, { mode: "w-" })).rejects.toMatchObject({ code: "ZARR_EXISTS" });
    const ro = await openGroup(store, { mode: "r" });
    await expect(ro.createGroup("x")).rejects.toMatchObject({ code: "ZARR_READ_ONLY" });
  });

  it("open picks an array or a group", async () => {
    const root = await group();
    await root.createDataset("arr", { shape: [2], compressor: null });
    expect(await open(root.store, { mode: "r", path: "arr" })).toBeInstanceOf(ZarrArray);
    expect(await open(root.store, { mode: "r" })).toBeInstanceOf(Group);
  });
});
