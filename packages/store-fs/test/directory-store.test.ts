import { mkdir, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { StoreError } from "@z/meta";
import { DirectoryStore, TempStore } from "@z/store-fs";
import { openRangeFiles } from "../src/file-read.js";
import { fileTree, text, utf8 } from "./helpers.js";

const temps: TempStore[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((store) => store.close()));
});
/** A DirectoryStore on a fresh temporary directory. */
function fresh(): DirectoryStore {
  const temp = new TempStore();
  temps.push(temp);
  return new DirectoryStore(temp.root);
}

describe("DirectoryStore", () => {
  it("maps keys to files under the root, / to sub-directories", async () => {
    const store = fresh();
    await store.set("foo/bar/.zarray", utf8("{}"));
    await store.set("foo/bar/0.0", utf8("chunk"));
    expect(store.filePath("foo/bar/0.0")).toBe(join(store.root, "foo", "bar", "0.0"));
    expect(await fileTree(store.root)).toEqual(["foo/", "foo/bar/", "foo/bar/.zarray", "foo/bar/0.0"]);
  });

  it("reads files it did not write", async () => {
    const store = fresh();
    await mkdir(join(store.root, "g"));
    await writeFile(join(store.root, "g", ".zgroup"), '{"zarr_format": 2}');
    expect(text(await store.get("g/.zgroup"))).toBe('{"zarr_format": 2}');
    expect(await store.list()).toEqual(["g/.zgroup"]);
  });

  it("finds no value at a directory, or below a file", async () => {
    const store = fresh();
    await store.set("a/b", utf8("x"));
    expect(await store.get("a")).toBeUndefined();
    expect(await store.getRange("a", { offset: 0 })).toBeUndefined();
    expect(await store.get("a/b/c")).toBeUndefined();
    expect(await store.getRange("a/b/c", { suffixLength: 1 })).toBeUndefined();
  });

  it("returns plain Uint8Arrays over memory of their own, not Buffers", async () => {
    const store = fresh();
    await store.set("k", utf8("small"));
    for (const value of [await store.get("k"), await store.getRange("k", { offset: 1, length: 2 })]) {
      expect(value?.constructor).toBe(Uint8Array);
      expect(value?.byteOffset).toBe(0);
      expect(value?.buffer.byteLength).toBe(value?.byteLength);
    }
  });

  it("refuses byte ranges that are not non-negative integers", async () => {
    const store = fresh();
    await store.set("k", utf8("0123456789"));
    for (const range of [{ offset: -1 }, { offset: 1.5 }, { offset: 0, length: -2 }, { suffixLength: Number.NaN }]) {
      await expect(store.getRange("k", range)).rejects.toThrow(StoreError);
    }
  });

  it("leaves emptied directories in place on delete, as zarr-python does", async () => {
    const store = fresh();
    await store.set("a/b/0.0", utf8("x"));
    await store.delete("a/b/0.0");
    expect(await fileTree(store.root)).toEqual(["a/", "a/b/"]);
    expect(await store.list()).toEqual([]);
    expect(await store.listDir("a/")).toEqual({ keys: [], prefixes: ["b"] });
  });

  it("does nothing when asked to delete a directory (rmdir does that)", async () => {
    const store = fresh();
    await store.set("a/b", utf8("x"));
    await store.delete("a");
    expect(text(await store.get("a/b"))).toBe("x");
  });

  it("removes a subtree with rmdir, and the root itself with rmdir()", async () => {
    const store = fresh();
    for (const key of ["g/.zgroup", "g/arr/.zarray", "g/arr/0.0", "g/arr/0.1", "g/other/.zarray", "g/arrx"])
      await store.set(key, utf8(key));
    await store.rmdir("g/arr");
    expect((await store.list()).sort()).toEqual(["g/.zgroup", "g/arrx", "g/other/.zarray"]);
    await store.rmdir("g/other/");
    await store.rmdir("g/missing");
    await store.rmdir("g/arrx"); // a file, not a directory: left alone, as in zarr-python
    expect((await store.list()).sort()).toEqual(["g/.zgroup", "g/arrx"]);
    await store.rmdir();
    expect(await readdir(join(store.root, ".."))).not.toContain(store.root.split(/[\\/]/).pop());
    expect(await store.list()).toEqual([]);
    await store.set("again", utf8("the root comes back on the next write"));
    expect(await store.list()).toEqual(["again"]);
  });

  it("lists by plain string prefix, walking only the directory the prefix lies in", async () => {
    const store = fresh();
    for (const key of ["arr/0.0", "arr/0.1", "arr/1.0", "arr/10.0", "arrow/.zgroup"]) await store.set(key, utf8(key));
    expect((await store.list("arr/1")).sort()).toEqual(["arr/1.0", "arr/10.0"]);
    expect((await store.list("arr")).sort()).toEqual(["arr/0.0", "arr/0.1", "arr/1.0", "arr/10.0", "arrow/.zgroup"]);
    expect(await store.list("arr/0.0/")).toEqual([]);
  });

  it("follows symbolic links to files; lists linked directories as prefixes but does not walk them (like os.walk)", async () => {
    const store = fresh();
    await store.set("real/k", utf8("v"));
    await symlink(join(store.root, "real", "k"), join(store.root, "file-link"));
    await symlink(join(store.root, "real"), join(store.root, "dir-link"));
    expect(text(await store.get("file-link"))).toBe("v");
    expect(text(await store.get("dir-link/k"))).toBe("v");
    expect((await store.list()).sort()).toEqual(["file-link", "real/k"]);
    expect(await store.listDir("")).toEqual({ keys: ["file-link"], prefixes: ["dir-link", "real"] });
  });

  it("refuses keys that would escape the root, naming the key, and touches nothing", async () => {
    const temp = new TempStore();
    temps.push(temp);
    const store = new DirectoryStore(join(temp.root, "store"));
    for (const key of [
      "../outside",
      "a/../../outside",
      "/etc/passwd",
      "a\\..\\..\\outside",
      "a//b",
      "a/",
      "",
      "..",
      "a/./b",
      "a\0b",
    ]) {
      const err = await store.set(key, utf8("x")).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StoreError);
      expect((err as StoreError).key).toBe(key);
      expect((err as StoreError).message).toMatch(/^refusing key /);
    }
    await expect(store.rmdir("..")).rejects.toThrow(StoreError);
    await expect(store.list("../")).rejects.toThrow(StoreError);
    expect(await fileTree(temp.root)).toEqual([]);
  });

  it("wraps I/O failures in a StoreError with the key and the cause", async () => {
    const temp = new TempStore();
    temps.push(temp);
    const eio = Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
    const store = new DirectoryStore(temp.root, { fs: { readFile: async () => Promise.reject(eio) } });
    const err = await store.get("a/0.0").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect(err).toMatchObject({ code: "ZARR_STORE", key: "a/0.0", cause: eio });
    expect((err as Error).message).toBe(`cannot read "a/0.0" (${join(temp.root, "a", "0.0")}): EIO: i/o error, read`);
  });

  it("wraps failures of range reads in a StoreError with the key and the cause", async () => {
    const temp = new TempStore();
    temps.push(temp);
    const eio = Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
    const store = new DirectoryStore(temp.root, { fs: { readRange: async () => Promise.reject(eio) } });
    const err = await store.getRange("a/0.0", { offset: 4, length: 16 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "ZARR_STORE", key: "a/0.0", cause: eio });
  });

  it("reads whole files and ranges of any size; directories are not values", async () => {
    const store = fresh();
    const big = new Uint8Array(3 << 20).map((_, i) => (i * 31) & 255);
    await store.set("a/big", big);
    await store.set("a/small", big.subarray(0, 8192));
    await store.set("a/empty", new Uint8Array(0));
    expect(Buffer.compare((await store.get("a/big"))!, big)).toBe(0);
    expect(Buffer.compare((await store.get("a/small"))!, big.subarray(0, 8192))).toBe(0);
    expect(await store.get("a/empty")).toEqual(new Uint8Array(0));
    expect(
      Buffer.compare(
        (await store.getRange("a/big", { offset: 1_000_001, length: 700_000 }))!,
        big.subarray(1_000_001, 1_700_001),
      ),
    ).toBe(0);
    expect(
      Buffer.compare((await store.getRange("a/small", { offset: 8000, length: 4096 }))!, big.subarray(8000, 8192)),
    ).toBe(0);
    expect(await store.getRange("a/small", { offset: 9000, length: 10 })).toEqual(new Uint8Array(0));
    expect(await store.get("a")).toBeUndefined();
    expect(await store.getRange("a", { offset: 0, length: 10 })).toBeUndefined();
    expect(await store.getRange("a/missing", { offset: 0, length: 10 })).toBeUndefined();
  });

  it("reads synchronously into the caller's buffer when the value fits, else into a new array", async () => {
    const store = fresh();
    const big = new Uint8Array(100_000).map((_, i) => (i * 7) & 255);
    await store.set("a/big", big);
    await store.set("a/small", big.subarray(0, 300));
    await store.set("a/empty", new Uint8Array(0));
    const buffer = new Uint8Array(1000).fill(9);
    const small = store.getSyncInto("a/small", buffer)!;
    expect(small.buffer).toBe(buffer.buffer);
    expect([small.byteOffset, small.length, buffer[300]]).toEqual([0, 300, 9]);
    expect(Buffer.compare(small, big.subarray(0, 300))).toBe(0);
    const whole = store.getSyncInto("a/big", buffer)!;
    expect(whole.buffer).not.toBe(buffer.buffer);
    expect(whole.length).toBe(big.length);
    expect(Buffer.compare(whole, big)).toBe(0);
    expect(store.getSyncInto("a/empty", buffer)).toEqual(new Uint8Array(0));
    expect(store.getSyncInto("a/missing", buffer)).toBeUndefined();
    expect(store.getSyncInto("a", buffer)).toBeUndefined();
    expect(store.getSync("a/small")).toEqual(big.subarray(0, 300));
    expect(() => store.getSyncInto("../escape", buffer)).toThrow(StoreError);
    // Values just under, at and over the buffer's size and the sizes it grows to end where they end.
    for (const n of [999, 1000, 1001, 65_535, 65_536, 65_537, 99_999]) {
      await store.set("a/sized", big.subarray(0, n));
      const value = store.getSyncInto("a/sized", buffer)!;
      expect(value.buffer === buffer.buffer, `${n}`).toBe(n < 1000); // a value that fills it must show its end in a larger one
      expect(Buffer.compare(value, big.subarray(0, n)), `${n}`).toBe(0);
    }
  });

  it("reads ranges synchronously with the same results as getRange, for every kind of range", async () => {
    const store = fresh();
    const data = new Uint8Array(20_000).map((_, i) => (i * 13) & 255);
    await store.set("a/k", data);
    await store.set("a/empty", new Uint8Array(0));
    const ranges = [
      { offset: 0, length: 16 },
      { offset: 19_990, length: 100 },
      { offset: 25_000, length: 10 },
      { offset: 5000 },
      { offset: 30_000 },
      { suffixLength: 7 },
      { suffixLength: 50_000 },
      { offset: 0, length: 0 },
    ];
    for (const key of ["a/k", "a/empty", "a/missing", "a"]) {
      for (const range of ranges) {
        const sync = store.getRangeSync(key, range);
        expect(sync, `${key} ${JSON.stringify(range)}`).toEqual(await store.getRange(key, range));
      }
    }
    expect(store.getRangeSync("a/k", { offset: 100, length: 3 })).toEqual(data.subarray(100, 103));
    expect(() => store.getRangeSync("a/k", { offset: -1, length: 3 })).toThrow(StoreError);
    expect(() => store.getRangeSync("../k", { offset: 0, length: 3 })).toThrow(StoreError);
    // Into a buffer: the same bytes, in the buffer when a range of known length fits.
    for (const buffer of [new Uint8Array(64), new Uint8Array(50_000)]) {
      for (const key of ["a/k", "a/empty", "a/missing", "a"]) {
        for (const range of ranges) {
          const into = store.getRangeSyncInto(key, range, buffer);
          expect(into, `${key} ${JSON.stringify(range)} into ${buffer.length}`).toEqual(
            await store.getRange(key, range),
          );
          // A range's length, where it gives one, decides (the file is not asked its size first).
          const asked = "length" in range && range.length !== undefined ? range.length : into?.length;
          if (into !== undefined)
            expect(into.buffer === buffer.buffer, `${key} ${JSON.stringify(range)} into ${buffer.length}`).toBe(
              asked! <= buffer.length,
            );
        }
      }
    }
    expect(() => store.getRangeSyncInto("../k", { offset: 0, length: 3 }, new Uint8Array(8))).toThrow(StoreError);
  });

  it("reads a value into parts, one after another, and says whether it filled them exactly", async () => {
    const store = fresh();
    const data = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 7) % 251);
    await store.set("a/k", data);
    await store.set("a/empty", new Uint8Array(0));
    const cut = (sizes: number[]) => sizes.map((n) => new Uint8Array(n));
    const joined = (parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
    // Exactly: in any cut, even more parts than one readv takes (1,024), and parts of nothing.
    for (const sizes of [[10_000], [1, 9_998, 1], [0, 4_000, 0, 6_000], Array.from({ length: 2_500 }, () => 4)]) {
      const parts = cut(sizes);
      expect(await store.getIntoParts("a/k", parts)).toBe(true);
      expect(joined(parts)).toEqual(data);
    }
    expect(await store.getIntoParts("a/empty", [])).toBe(true);
    // Shorter or longer than the parts: false, with what there was.
    const more = cut([6_000, 6_000]);
    expect(await store.getIntoParts("a/k", more)).toBe(false);
    expect(joined(more).subarray(0, 10_000)).toEqual(data);
    const fewer = cut([3_000, 3_000]);
    expect(await store.getIntoParts("a/k", fewer)).toBe(false);
    expect(joined(fewer)).toEqual(data.subarray(0, 6_000));
    expect(await store.getIntoParts("a/empty", cut([1]))).toBe(false);
    // No value: a missing file, a directory, below a file.
    expect(await store.getIntoParts("a/missing", cut([4]))).toBeUndefined();
    expect(await store.getIntoParts("a", cut([4]))).toBeUndefined();
    expect(await store.getIntoParts("a/k/x", cut([4]))).toBeUndefined();
    await expect(store.getIntoParts("../k", cut([4]))).rejects.toThrow(StoreError);
    await expect(store.getIntoParts("a/k", cut([4]), { signal: AbortSignal.abort() })).rejects.toThrow();
  });

  it("shares one open file between range reads that follow each other, and closes it when they stop", async () => {
    const store = fresh();
    const data = new Uint8Array(10_000).map((_, i) => i & 255);
    await store.set("a/0.0", data);
    const header = await store.getRange("a/0.0", { offset: 0, length: 16 });
    expect(openRangeFiles()).toBe(1); // still open for the read that follows
    const body = await store.getRange("a/0.0", { offset: 5000, length: 100 });
    expect([header, body]).toEqual([data.slice(0, 16), data.slice(5000, 5100)]);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(openRangeFiles()).toBe(0);
  });

  it("reads what was written last, also while range reads keep the old file open", async () => {
    const store = fresh();
    await store.set("k", new Uint8Array(64));
    for (let round = 1; round < 10; round++) {
      const value = new Uint8Array(64).fill(round);
      // Reads one after another keep the file open across the write.
      let stop = false;
      const reading = (async () => {
        while (!stop) await store.getRange("k", { offset: 0, length: 64 });
      })();
      await store.set("k", value);
      const got = await store.getRange("k", { offset: 0, length: 64 });
      stop = true;
      await reading;
      expect(got, `round ${round}`).toEqual(value);
      await store.delete("k");
      expect(await store.getRange("k", { offset: 0, length: 64 }), `round ${round}`).toBeUndefined();
    }
    await store.set("d/x", utf8("one"));
    expect(text(await store.getRange("d/x", { offset: 0, length: 3 }))).toBe("one");
    await store.rename("d", "e");
    expect(await store.getRange("d/x", { offset: 0, length: 3 })).toBeUndefined();
    expect(text(await store.getRange("e/x", { offset: 0, length: 3 }))).toBe("one");
  });

  it("stops when its signal is aborted", async () => {
    const store = fresh();
    await store.set("k", utf8("v"));
    const controller = new AbortController();
    controller.abort();
    await expect(store.get("k", { signal: controller.signal })).rejects.toThrow(/abort/i);
    await expect(store.set("k", utf8("w"), { signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(text(await store.get("k"))).toBe("v");
  });

  it("refuses a root that is a file", async () => {
    const store = fresh();
    await store.set("file", utf8("x"));
    expect(() => new DirectoryStore(join(store.root, "file"))).toThrow(/exists and is not a directory/);
  });
});
