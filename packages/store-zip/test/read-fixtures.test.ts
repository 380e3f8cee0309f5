import { describe, expect, it } from "vitest";
import { MemoryFile, ZipStore, blobSource } from "@z/store-zip";
import { base64, fixture, manifest, text, utf8 } from "./helpers.js";

// The archives in test/fixtures were written by zarr-python 2.13's ZipStore and Python 3.11's
// zipfile (test/python/generate.py); manifest.json holds what zipfile reads from each.

/** The names zipfile lists that are keys here: not directories, not `../x`-style names. */
const keysOf = (name: string): string[] =>
  Object.keys(manifest[name]!.entries).filter((key) => !key.endsWith("/") && !key.startsWith("../"));

describe("reading archives written by zarr-python and zipfile", () => {
  for (const name of ["zarr-stored", "zarr-deflated", "zip64-forced", "odd", "duplicates", "prefixed"]) {
    it(`reads every key of ${name}.zip as zipfile does`, async () => {
      const store = await ZipStore.open(fixture(name));
      expect([...(await store.list())].sort()).toEqual(keysOf(name).sort());
      for (const key of keysOf(name)) {
        const expected = manifest[name]!.entries[key]!;
        expect(await store.get(key), key).toEqual(base64(expected.data));
        expect(store.info(key)).toMatchObject({
          key,
          crc32: expected.crc,
          method: expected.method === 8 ? "deflate" : "stored",
        });
      }
    });
  }

  it("reads zarr-python's group: metadata, attributes and raw chunks", async () => {
    for (const name of ["zarr-stored", "zarr-deflated"]) {
      const store = await ZipStore.open(fixture(name));
      expect(JSON.parse(text(await store.get(".zgroup"))!)).toEqual({ zarr_format: 2 });
      expect(JSON.parse(text(await store.get(".zattrs"))!)).toEqual({ title: "zip fixture" });
      const zarray = JSON.parse(text(await store.get("foo/bar/.zarray"))!);
      expect(zarray).toMatchObject({
        shape: [4, 6],
        chunks: [2, 3],
        dtype: "<i4",
        dimension_separator: "/",
        compressor: null,
      });
      // chunk (1, 1) of arange(24).reshape(4, 6): rows 2-3, columns 3-5
      const chunk = await store.get("foo/bar/1/1");
      expect(Array.from(new Int32Array(chunk!.buffer, chunk!.byteOffset, 6))).toEqual([15, 16, 17, 21, 22, 23]);
      expect(store.info("foo/bar/1/1")?.method).toBe(name === "zarr-stored" ? "stored" : "deflate");
      expect(await store.listDir("")).toEqual({ keys: [".zattrs", ".zgroup"], prefixes: ["baz", "foo"] });
      expect(await store.listDir("foo/bar")).toEqual({ keys: [".zarray"], prefixes: ["0", "1"] });
    }
  });

  it("reads ranges of stored and deflated entries", async () => {
    const stored = await ZipStore.open(fixture("zarr-stored"));
    const deflated = await ZipStore.open(fixture("zarr-deflated"));
    for (const store of [stored, deflated]) {
      expect(text(await store.getRange(".zattrs", { offset: 6, length: 7 }))).toBe('"title"');
      expect(text(await store.getRange(".zattrs", { suffixLength: 2 }))).toBe("\n}");
      expect(await store.getRange("nope", { offset: 0 })).toBeUndefined();
    }
  });

  it("treats the last of two entries with one name as the value, as zipfile does", async () => {
    const store = await ZipStore.open(fixture("duplicates"));
    expect(text(await store.get("k"))).toBe("second");
    expect(await store.list()).toEqual(["k", "other"]);
  });

  it("lists directory entries as prefixes, not keys, and skips names that are not keys", async () => {
    const store = await ZipStore.open(fixture("odd"));
    expect(await store.listDir("")).toEqual({ keys: ["stored"], prefixes: ["a", "empty-dir", "z", "été"] });
    expect(await store.listDir("a/")).toEqual({ keys: [".zarray"], prefixes: ["b"] });
    expect(await store.listDir("empty-dir/")).toEqual({ keys: [], prefixes: [] });
    expect(text(await store.get("été/日本"))).toBe("unicode");
    await expect(store.get("../evil")).rejects.toMatchObject({ code: "ZARR_STORE", key: "../evil" });
  });

  it("reads an archive with bytes before it, like a self-extractor", async () => {
    const store = await ZipStore.open(fixture("prefixed"));
    expect(text(await store.get("x/0"))).toBe("after the prefix");
    expect(store.info("x/0")?.offset).toBeLessThan(100);
  });

  it("appends to an archive with bytes before it, keeping them and its offsets relative", async () => {
    const original = fixture("prefixed");
    const file = new MemoryFile(original);
    const store = await ZipStore.open(file);
    await store.set("x/1", utf8("appended"));
    await store.close();
    const bytes = file.bytes();
    expect(new TextDecoder().decode(bytes.subarray(0, 10))).toBe("#!/bin/sh\n");
    const again = await ZipStore.open(bytes);
    expect(text(await again.get("x/1"))).toBe("appended");
    expect(text(await again.get("x/0"))).toBe("after the prefix");
    // zipfile reads it too: write-interop.test.ts.
  });

  it("reads from a Blob without reading it whole", async () => {
    const bytes = fixture("zarr-deflated");
    const store = await ZipStore.open(new Blob([bytes.slice().buffer]));
    expect(JSON.parse(text(await store.get(".zattrs"))!)).toEqual({ title: "zip fixture" });
    expect(await ZipStore.open(blobSource(new Blob([bytes.slice().buffer])))).toBeInstanceOf(ZipStore);
  });

  it("opens read-only sources read-only: set and delete throw a read-only StoreError", async () => {
    const store = await ZipStore.open(fixture("zarr-stored"));
    expect(store.writable).toBe(false);
    await expect(store.set("x", utf8("x"))).rejects.toMatchObject({
      code: "ZARR_STORE",
      key: "x",
      message: expect.stringContaining("read-only"),
    });
    await expect(store.delete(".zgroup")).rejects.toMatchObject({
      code: "ZARR_STORE",
      message: expect.stringContaining("read-only"),
    });
    await expect(ZipStore.open(fixture("zarr-stored"), { mode: "a" })).rejects.toMatchObject({
      code: "ZARR_STORE",
      message: expect.stringContaining("read-only"),
    });
    // mode "r" on a writable source: the same
    const ro = await ZipStore.open(new MemoryFile(fixture("zarr-stored")), { mode: "r" });
    await expect(ro.set("x", utf8("x"))).rejects.toMatchObject({ code: "ZARR_STORE" });
    await ro.flush();
  });

  it("appends to zipfile's archives keeping what it does not understand", async () => {
    // Data descriptors, directory entries, a ../ name and the comment survive a rewrite.
    const file = new MemoryFile(fixture("odd"));
    const store = await ZipStore.open(file);
    await store.set("new", utf8("new value"));
    await store.delete("z/1");
    await store.close();
    const again = await ZipStore.open(file.bytes());
    expect(text(await again.get("new"))).toBe("new value");
    expect(await again.get("z/1")).toBeUndefined();
    expect(text(await again.get("a/b/0.0"))).toBe("deep");
    expect((await again.listDir("")).prefixes).toContain("empty-dir");
    const tail = new TextDecoder().decode(file.bytes().subarray(-18));
    expect(tail).toBe("an archive comment");
  });
});
