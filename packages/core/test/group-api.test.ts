import { describe, expect, it } from "vitest";
import { type Group, group, MemoryStore, ZarrArray } from "@z/core";

/** The hierarchy of zarr-python's documentation example, built the same way. */
async function example(): Promise<Group> {
  const g = await group({ store: new MemoryStore() });
  const bar = await g.createGroup("bar");
  await bar.createDataset("baz", { shape: [100, 100], dtype: "i8", compressor: null });
  const quux = await bar.createGroup("quux");
  await quux.zeros("baz", { shape: [100], chunks: 10, compressor: null });
  await g.createGroup("foo");
  await g.createDataset("arr", { shape: [3], compressor: null });
  return g;
}

describe("the Group API, as zarr-python's", () => {
  it("draws tree() exactly as zarr-python", async () => {
    const g = await example();
    expect(await g.tree()).toBe(
      "/\n ├── arr (3,) float64\n ├── bar\n │   ├── baz (100, 100) int64\n │   └── quux\n │       └── baz (100,) float64\n └── foo",
    );
    expect(await ((await g.getItem("bar")) as Group).tree()).toBe(
      "bar\n ├── baz (100, 100) int64\n └── quux\n     └── baz (100,) float64",
    );
  });

  it("visits members depth first in name order", async () => {
    const g = await example();
    const paths: string[] = [];
    await g.visit((p) => void paths.push(p));
    expect(paths).toEqual(["arr", "bar", "bar/baz", "bar/quux", "bar/quux/baz", "foo"]);
    const kinds: [string, string][] = [];
    await g.visititems((p, node) => void kinds.push([p, node instanceof ZarrArray ? "Array" : "Group"]));
    expect(kinds[1]).toEqual(["bar", "Group"]);
    expect(await g.visit((p) => (p.endsWith("quux") ? p : undefined))).toBe("bar/quux");
  });

  it("lists keys, arrays recursively, and members", async () => {
    const g = await example();
    expect(await g.arrayKeys()).toEqual(["arr"]);
    expect(await g.arrayKeys({ recurse: true })).toEqual(["arr", "baz", "baz"]);
    expect(await g.keys()).toEqual(["arr", "bar", "foo"]);
    expect(await g.length()).toBe(3);
    expect([await g.contains("bar/quux"), await g.contains("bar/quux/baz"), await g.contains("nope")]).toEqual([
      true,
      true,
      false,
    ]);
    expect((await g.groups()).map(([n]) => n)).toEqual(["bar", "foo"]);
  });

  it("requireDataset checks shape and dtype as zarr-python", async () => {
    const g = await example();
    expect((await g.requireDataset("arr", { shape: [3], dtype: "f4" })).dtype).toMatchObject({
      kind: "f",
      itemsize: 8,
    });
    await expect(g.requireDataset("arr", { shape: [3], dtype: "f4", exact: true })).rejects.toMatchObject({
      code: "ZARR_VALUE",
    });
    await expect(g.requireDataset("arr", { shape: [4] })).rejects.toMatchObject({ code: "ZARR_VALUE" });
    // numpy deems int64 -> float64 safe, so zarr-python accepts it; complex -> float it refuses
    expect((await g.requireDataset("arr", { shape: [3], dtype: "i8" })).shape).toEqual([3]);
    await expect(g.requireDataset("arr", { shape: [3], dtype: "c16" })).rejects.toMatchObject({ code: "ZARR_VALUE" });
    expect((await g.requireDataset("new", { shape: [2], compressor: null })).shape).toEqual([2]);
  });

  it("moves and deletes members, keys and all", async () => {
    const g = await example();
    await g.move("foo", "x/y/foo");
    expect((await g.store.list!()).sort()).toEqual([
      ".zgroup",
      "arr/.zarray",
      "bar/.zgroup",
      "bar/baz/.zarray",
      "bar/quux/.zgroup",
      "bar/quux/baz/.zarray",
      "x/.zgroup",
      "x/y/.zgroup",
      "x/y/foo/.zgroup",
    ]);
    await expect(g.move("arr", "bar")).rejects.toMatchObject({ code: "ZARR_EXISTS" });
    await g.delItem("x");
    expect((await g.store.list!()).filter((k) => k.startsWith("x/"))).toEqual([]);
  });

  it("reports info like zarr-python", async () => {
    const g = await example();
    expect(await g.info()).toBe(
      "Name        : /\nType        : Group\nRead-only   : False\nStore type  : MemoryStore\n" +
        "No. members : 3\nNo. arrays  : 1\nNo. groups  : 2\nArrays      : arr\nGroups      : bar, foo\n",
    );
  });

  it("creates groups in bulk and member arrays with shorthands", async () => {
    const g = await group();
    const [a, b] = await g.createGroups("a", "b/c");
    expect([a!.name, b!.name]).toEqual(["/a", "/b/c"]);
    expect((await g.requireGroups("a", "d")).map((x) => x.basename)).toEqual(["a", "d"]);
    const ones = await g.ones("o", { shape: [2], compressor: null, dtype: "u1" });
    expect(Array.from((await ones.get()).data as Uint8Array)).toEqual([1, 1]);
    const copy = await g.fullLike("f", ones, { fillValue: 7 });
    expect([copy.shape, copy.fillValue]).toEqual([[2], 7]);
    await g.setItem("s", new Float32Array([1.5, 2.5]), { compressor: null });
    expect(Array.from((await ((await g.getItem("s")) as ZarrArray).get()).data as Float32Array)).toEqual([1.5, 2.5]);
  });
});
