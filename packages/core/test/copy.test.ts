import { describe, expect, it } from "vitest";
import { copy, copyAll, copyStore, type Group, group, MemoryStore, ZarrArray } from "@z/core";

/** The hierarchy of the zarr-python session whose outputs these tests quote. */
async function source(): Promise<Group> {
  const src = await group({ store: new MemoryStore() });
  await src.attrs.set("t", 1);
  const bar = await src.createDataset("foo/bar", { shape: [10], chunks: [4], dtype: "i2", compressor: null });
  await bar.set(undefined, 3);
  await bar.attrs.set("x", "y");
  await src.createDataset("baz", { shape: [3], chunks: [3], dtype: "u1", compressor: null });
  return src;
}

describe("copyStore, as zarr-python's copy_store", () => {
  it("copies every key and logs as zarr-python", async () => {
    const src = await source();
    const dest = new MemoryStore();
    const lines: string[] = [];
    expect(await copyStore(src.store, dest, { log: (l) => lines.push(l) })).toEqual({
      copied: 9,
      skipped: 0,
      bytesCopied: 489,
    });
    expect(lines).toEqual([
      "copy .zattrs",
      "copy .zgroup",
      "copy baz/.zarray",
      "copy foo/.zgroup",
      "copy foo/bar/.zarray",
      "copy foo/bar/.zattrs",
      "copy foo/bar/0",
      "copy foo/bar/1",
      "copy foo/bar/2",
      "all done: 9 copied, 0 skipped, 489 bytes copied",
    ]);
    await expect(copyStore(src.store, dest)).rejects.toMatchObject({ code: "ZARR_COPY", key: ".zattrs" });
    expect(await copyStore(src.store, dest, { ifExists: "skip", excludes: ["baz"] })).toEqual({
      copied: 0,
      skipped: 8,
      bytesCopied: 0,
    });
  });

  it("maps a source path to a destination path", async () => {
    const src = await source();
    const dest = new MemoryStore();
    const lines: string[] = [];
    expect(await copyStore(src.store, dest, { sourcePath: "foo", destPath: "x/y", log: (l) => lines.push(l) })).toEqual(
      { copied: 6, skipped: 0, bytesCopied: 258 },
    );
    expect(lines[0]).toBe("copy foo/.zgroup -> x/y/.zgroup");
    expect(Array.from((await (await ZarrArray.open(dest, "x/y/bar")).get()).data as Int16Array)).toEqual(
      new Array(10).fill(3),
    );
  });

  it("a dry run writes nothing", async () => {
    const dest = new MemoryStore();
    expect(await copyStore((await source()).store, dest, { dryRun: true })).toEqual({
      copied: 9,
      skipped: 0,
      bytesCopied: 0,
    });
    expect(dest.size).toBe(0);
  });
});

describe("copy and copyAll, as zarr-python's", () => {
  it("copies a group with its arrays, data and attributes", async () => {
    const src = await source();
    const dest = await group({ store: new MemoryStore() });
    const lines: string[] = [];
    expect(await copy((await src.getItem("foo")) as Group, dest, { log: (l) => lines.push(l) })).toEqual({
      copied: 2,
      skipped: 0,
      bytesCopied: 20,
    });
    expect(lines).toEqual(["copy /foo", "copy /foo/bar (10,) int16", "all done: 2 copied, 0 skipped, 20 bytes copied"]);
    const bar = (await dest.getItem("foo/bar")) as ZarrArray;
    expect([bar.chunks, await bar.attrs.asObject()]).toEqual([[4], { x: "y" }]);
    expect(Array.from((await bar.get()).data as Int16Array)).toEqual(new Array(10).fill(3));
    expect((await dest.store.list!()).sort()).toEqual([
      ".zgroup",
      "foo/.zattrs",
      "foo/.zgroup",
      "foo/bar/.zarray",
      "foo/bar/.zattrs",
      "foo/bar/0",
      "foo/bar/1",
      "foo/bar/2",
    ]);
  });

  it("skipInitialized skips arrays whose chunks are all stored", async () => {
    const src = await source();
    const dest = await group({ store: new MemoryStore() });
    await copy((await src.getItem("foo")) as Group, dest);
    const lines: string[] = [];
    expect(
      await copy((await src.getItem("foo")) as Group, dest, { ifExists: "skipInitialized", log: (l) => lines.push(l) }),
    ).toEqual({ copied: 1, skipped: 1, bytesCopied: 0 });
    expect(lines).toEqual(["copy /foo", "skip /foo/bar (10,) int16", "all done: 1 copied, 1 skipped, 0 bytes copied"]);
  });

  it("copyAll copies every member; a dry run reports without writing", async () => {
    const src = await source();
    const dest = await group({ store: new MemoryStore() });
    const lines: string[] = [];
    expect(await copyAll(src, dest, { ifExists: "replace", dryRun: true, log: (l) => lines.push(l) })).toEqual({
      copied: 3,
      skipped: 0,
      bytesCopied: 0,
    });
    expect(lines).toEqual([
      "copy /baz (3,) uint8",
      "copy /foo",
      "copy /foo/bar (10,) int16",
      "dry run: 3 copied, 0 skipped",
    ]);
    expect(await dest.keys()).toEqual([]);
    await copyAll(src, dest, { create: { compressor: { id: "zlib", level: 1 }, chunks: [5] } });
    const bar = (await dest.getItem("foo/bar")) as ZarrArray;
    expect([bar.chunks, bar.compressor]).toEqual([[5], { id: "zlib", level: 1 }]);
    await expect(copyAll(src, dest)).rejects.toMatchObject({ code: "ZARR_COPY" });
  });
});
