import { afterEach, describe, expect, it } from "vitest";
import { DirectoryStore, NestedDirectoryStore, TempStore } from "@z/store-fs";
import { fileTree, utf8 } from "./helpers.js";

// The file trees below are what zarr-python 2.13 made (os.walk of the store directory) with:
//
//   s = zarr.DirectoryStore("array.zarr")
//   a = zarr.create(shape=(4, 6), chunks=(2, 3), dtype="<i4", store=s, dimension_separator="/", compressor=None)
//   a[...] = np.arange(24, dtype="<i4").reshape(4, 6)
//
//   s = zarr.DirectoryStore("group.zarr")
//   g = zarr.group(store=s); g.attrs["title"] = "t"
//   foo = g.create_group("foo")
//   foo.create_dataset("bar", shape=(4, 4), chunks=(2, 2), dtype="<u1", dimension_separator="/", compressor=None)[...] = 7
//   g.create_dataset("baz", shape=(3,), chunks=(2,), dtype="<f8", compressor=None)[...] = 1.5
//
//   s = zarr.NestedDirectoryStore("nested.zarr")
//   zarr.create(shape=(4, 4), chunks=(2, 2), dtype="<i2", store=s, compressor=None)[...] = 3
//
// Writing the same keys through our stores must give the same files and directories.

const zarrPython = {
  array: [".zarray", "0/", "0/0", "0/1", "1/", "1/0", "1/1"],
  group: [
    ".zattrs",
    ".zgroup",
    "baz/",
    "baz/.zarray",
    "baz/0",
    "baz/1",
    "foo/",
    "foo/.zgroup",
    "foo/bar/",
    "foo/bar/.zarray",
    "foo/bar/0/",
    "foo/bar/0/0",
    "foo/bar/0/1",
    "foo/bar/1/",
    "foo/bar/1/0",
    "foo/bar/1/1",
  ],
  nested: [".zarray", "0/", "0/0", "0/1", "1/", "1/0", "1/1"],
};

/** The keys zarr-python wrote, in the order it wrote them: the files of the tree. */
const keysOf = (tree: string[]): string[] => tree.filter((path) => !path.endsWith("/"));

const temps: TempStore[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((store) => store.close()));
});
function tempStore(): TempStore {
  const store = new TempStore();
  temps.push(store);
  return store;
}

describe("the directory layout matches zarr-python's DirectoryStore", () => {
  it("for an array with dimension separator /", async () => {
    const store = tempStore();
    for (const key of keysOf(zarrPython.array)) await store.set(key, utf8(key));
    expect(await fileTree(store.root)).toEqual(zarrPython.array);
  });

  it("for a group holding a group with a nested array and a flat array", async () => {
    const store = tempStore();
    for (const key of keysOf(zarrPython.group)) await store.set(key, utf8(key));
    expect(await fileTree(store.root)).toEqual(zarrPython.group);
  });

  it("and lists it back as zarr-python lists it", async () => {
    const store = tempStore();
    for (const key of keysOf(zarrPython.group)) await store.set(key, utf8(key));
    expect((await store.list()).sort()).toEqual(keysOf(zarrPython.group));
    // zarr-python: store.listdir("") == ['.zattrs', '.zgroup', 'baz', 'foo']
    expect(await store.listDir("")).toEqual({ keys: [".zattrs", ".zgroup"], prefixes: ["baz", "foo"] });
    // zarr-python: store.listdir("foo/bar") == ['.zarray', '0', '1']
    expect(await store.listDir("foo/bar/")).toEqual({ keys: [".zarray"], prefixes: ["0", "1"] });
  });
});

describe("NestedDirectoryStore, as in zarr-python 2.13", () => {
  it("asks arrays for dimension separator / and stores their nested chunk keys as nested files", async () => {
    const temp = tempStore();
    const store = new NestedDirectoryStore(temp.root);
    expect(store.dimensionSeparator).toBe("/");
    for (const key of keysOf(zarrPython.nested)) await store.set(key, utf8(key));
    expect(await fileTree(store.root)).toEqual(zarrPython.nested);
  });

  it("does not rewrite keys: an array that names separator . keeps flat chunk files", async () => {
    const temp = tempStore();
    const store = new NestedDirectoryStore(temp.root);
    await store.set(".zarray", utf8('{"dimension_separator": "."}'));
    await store.set("0.0", utf8("chunk"));
    expect(await fileTree(store.root)).toEqual([".zarray", "0.0"]);
  });

  it("refuses any dimension separator but /", () => {
    expect(() => new NestedDirectoryStore(".", { dimensionSeparator: "." as "/" })).toThrow(/only supports "\/"/);
  });

  it("a plain DirectoryStore suggests no separator unless given one", () => {
    expect(new DirectoryStore(".").dimensionSeparator).toBeUndefined();
    expect(new DirectoryStore(".", { dimensionSeparator: "/" }).dimensionSeparator).toBe("/");
  });
});
