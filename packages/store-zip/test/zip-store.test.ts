import { describe, expect, it } from "vitest";
import { MemoryFile, ZipStore, bytesSource, type WritableByteSource } from "@z/store-zip";
import { CountingSource, base64, fixture, manifest, sameBytes, text, utf8 } from "./helpers.js";

/** A MemoryFile that counts writes. */
class CountingFile extends MemoryFile {
  writes = 0;
  override async write(offset: number, data: Uint8Array): Promise<void> {
    this.writes++;
    return super.write(offset, data);
  }
}

describe("writing", () => {
  it("an empty archive is the 22-byte end record, and opens again", async () => {
    const file = new MemoryFile(utf8("old contents, emptied by mode w"));
    const store = await ZipStore.open(file, { mode: "w" });
    await store.close();
    expect(file.bytes()).toEqual(Uint8Array.from([0x50, 0x4b, 5, 6, ...new Array(18).fill(0)]));
    expect(await (await ZipStore.open(file)).list()).toEqual([]);
  });

  it("mode a on an empty source starts a new archive; the default mode follows the source", async () => {
    const file = new MemoryFile();
    const store = await ZipStore.open(file);
    expect(store.mode).toBe("a");
    await store.set("k", utf8("v"));
    await store.close();
    const reopened = await ZipStore.open(file.bytes());
    expect(reopened.mode).toBe("r");
    expect(text(await reopened.get("k"))).toBe("v");
  });

  it("reads see writes before any flush; flush writes the directory only when something changed", async () => {
    const file = new CountingFile();
    const store = await ZipStore.open(file, { mode: "w" });
    await store.set("a", utf8("1"));
    expect(text(await store.get("a"))).toBe("1");
    expect(text(await store.getRange("a", { offset: 0 }))).toBe("1");
    await store.flush();
    const writes = file.writes;
    await store.flush();
    await store.close();
    expect(file.writes).toBe(writes);
  });

  it("writing a key again replaces its entry: one name in the directory, the old bytes left unused", async () => {
    const file = new MemoryFile();
    const store = await ZipStore.open(file, { mode: "w" });
    await store.set("k", new Uint8Array(1000).fill(1));
    await store.close();
    const before = await file.size();
    const again = await ZipStore.open(file);
    await again.set("k", new Uint8Array(1000).fill(2));
    await again.close();
    expect(await file.size()).toBeGreaterThan(before + 1000);
    const reopened = await ZipStore.open(file);
    expect(await reopened.list()).toEqual(["k"]);
    expect((await reopened.get("k"))?.every((b) => b === 2)).toBe(true);
  });

  it("records the modification time from `now`, at zip's two-second resolution", async () => {
    const store = await ZipStore.open(new MemoryFile(), { mode: "w", now: () => new Date(2024, 1, 29, 13, 37, 43) });
    await store.set("k", utf8("v"));
    expect(store.info("k")).toMatchObject({
      key: "k",
      method: "stored",
      size: 1,
      compressedSize: 1,
      offset: 0,
      modified: new Date(2024, 1, 29, 13, 37, 42),
    });
    expect(store.info("missing")).toBeUndefined();
  });

  it("deflate compresses; level 0 still writes deflate streams", async () => {
    for (const level of [0, 9]) {
      const store = await ZipStore.open(new MemoryFile(), { mode: "w", compression: "deflate", level });
      await store.set("k", new Uint8Array(10_000));
      expect(store.info("k")?.method).toBe("deflate");
      expect(store.info("k")!.compressedSize < 10_000).toBe(level === 9);
      expect(await store.get("k")).toEqual(new Uint8Array(10_000));
    }
  });

  it("concurrent sets, deletes and flushes leave a consistent archive", async () => {
    const file = new MemoryFile();
    const store = await ZipStore.open(file, { mode: "w" });
    const work: Promise<void>[] = [];
    // Writes take effect in call order, so the expected contents follow from replaying the calls.
    const expected = new Map<string, string>();
    for (let i = 0; i < 50; i++) {
      work.push(store.set(`k/${i % 10}`, utf8(`value ${i}`)));
      expected.set(`k/${i % 10}`, `value ${i}`);
      if (i % 7 === 0) work.push(store.flush());
      if (i % 11 === 0) {
        work.push(store.delete(`k/${(i + 5) % 10}`));
        expected.delete(`k/${(i + 5) % 10}`);
      }
    }
    await Promise.all(work);
    await store.close();
    const reopened = await ZipStore.open(file.bytes());
    expect((await reopened.list()).sort()).toEqual([...expected.keys()].sort());
    for (const [key, value] of expected) expect(text(await reopened.get(key))).toBe(value);
  });

  it("a closed store refuses everything; closing again is fine", async () => {
    const store = await ZipStore.open(new MemoryFile(), { mode: "w" });
    await store.set("k", utf8("v"));
    await store.close();
    await store.close();
    expect(store.closed).toBe(true);
    for (const action of [
      () => store.get("k"),
      () => store.set("k", utf8("v")),
      () => store.delete("k"),
      () => store.list(),
      () => store.flush(),
      () => store.listDir(""),
    ]) {
      await expect(action()).rejects.toMatchObject({
        code: "ZARR_STORE",
        message: expect.stringContaining("is closed"),
      });
    }
  });

  it("refuses bad options and sources", async () => {
    await expect(ZipStore.open(new MemoryFile(), { level: 10 })).rejects.toMatchObject({
      code: "ZARR_STORE",
      message: expect.stringContaining("deflate level 10"),
    });
    await expect(ZipStore.open(new MemoryFile(), { mode: "x" as "w" })).rejects.toMatchObject({ code: "ZARR_STORE" });
    await expect(
      ZipStore.open(bytesSource(new Uint8Array(0)), { mode: "w", name: "remote.zip" }),
    ).rejects.toMatchObject({
      message: 'cannot open remote.zip in mode "w": the byte source is read-only (it has no write and truncate)',
    });
    await expect(ZipStore.open(new Uint8Array(0))).rejects.toMatchObject({
      message: "cannot open zip archive: 0 bytes is too short to be a zip archive",
    });
  });

  it("write failures are StoreErrors with the cause, and the store stays usable", async () => {
    const file = new MemoryFile();
    const store = await ZipStore.open(file, { mode: "w" });
    await store.set("ok", utf8("fine"));
    const cause = new Error("disk full");
    const failing: WritableByteSource = file;
    const original = failing.write.bind(file);
    failing.write = () => Promise.reject(cause);
    await expect(store.set("k", utf8("v"))).rejects.toMatchObject({
      code: "ZARR_STORE",
      key: "k",
      cause,
      message: expect.stringContaining("disk full"),
    });
    failing.write = original;
    expect(await store.get("k")).toBeUndefined();
    await store.close();
    expect(text(await (await ZipStore.open(file.bytes())).get("ok"))).toBe("fine");
  });

  it("honours an aborted signal", async () => {
    const store = await ZipStore.open(new MemoryFile(), { mode: "w" });
    await store.set("k", utf8("v"));
    const signal = AbortSignal.abort();
    await expect(store.get("k", { signal })).rejects.toMatchObject({ name: "AbortError" });
    await expect(store.set("j", utf8("v"), { signal })).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("entry order", () => {
  it("reads a central directory listing entries in another order than they lie in the file", async () => {
    const file = new MemoryFile();
    const writer = await ZipStore.open(file, { mode: "w" });
    for (const key of ["0.0", ".zarray", "a/b", "a/.zgroup"]) await writer.set(key, utf8(`value of ${key}`));
    await writer.close();
    const bytes = file.bytes();
    const view = new DataView(bytes.buffer);
    const end = bytes.length - 22;
    const [size, offset] = [view.getUint32(end + 12, true), view.getUint32(end + 16, true)];
    // Split the central directory into its records and put them back reversed.
    const records: Uint8Array[] = [];
    for (let at = offset; at < offset + size; ) {
      const length = 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
      records.push(bytes.slice(at, at + length));
      at += length;
    }
    let at = offset;
    for (const record of records.reverse()) {
      bytes.set(record, at);
      at += record.length;
    }
    const store = await ZipStore.open(bytes);
    expect(await store.list()).toEqual(["a/.zgroup", "a/b", ".zarray", "0.0"]);
    for (const key of ["0.0", ".zarray", "a/b", "a/.zgroup"])
      expect(text(await store.get(key))).toBe(`value of ${key}`);
    // Rewriting it puts the directory back in file order.
    const copy = new MemoryFile(bytes);
    const rewriter = await ZipStore.open(copy);
    await rewriter.set("new", utf8("n"));
    await rewriter.close();
    expect(await (await ZipStore.open(copy)).list()).toEqual(["0.0", ".zarray", "a/b", "a/.zgroup", "new"]);
  });
});

describe("random access", () => {
  it("opening reads the end and the central directory, a get reads one entry, a range only its bytes", async () => {
    const file = new MemoryFile();
    const writer = await ZipStore.open(file, { mode: "w" });
    for (let i = 0; i < 200; i++) await writer.set(`chunks/${i}`, new Uint8Array(10_000).fill(i));
    await writer.close();
    const archiveSize = await file.size();
    expect(archiveSize).toBeGreaterThan(2_000_000);

    const source = new CountingSource(bytesSource(file.bytes()));
    const store = await ZipStore.open(source);
    // The last 64 KiB (the longest comment) hold the whole central directory here: one read.
    expect(source.reads).toHaveLength(1);
    expect(source.bytesRead).toBeLessThan(70_000);

    source.reads.length = 0;
    expect((await store.get("chunks/123"))?.every((b) => b === 123)).toBe(true);
    expect(source.reads).toHaveLength(1);
    expect(source.bytesRead).toBeLessThan(10_000 + 400);

    source.reads.length = 0;
    expect(await store.getRange("chunks/7", { offset: 5000, length: 3 })).toEqual(Uint8Array.from([7, 7, 7]));
    expect(source.reads.at(-1)?.length).toBe(3);
    source.reads.length = 0;
    // The local header is known now: one read of exactly the range.
    expect(await store.getRange("chunks/7", { suffixLength: 2 })).toEqual(Uint8Array.from([7, 7]));
    expect(source.reads).toEqual([{ offset: expect.any(Number), length: 2 }]);
    // Empty ranges of existing keys read nothing.
    source.reads.length = 0;
    expect(await store.getRange("chunks/7", { offset: 20_000 })).toEqual(new Uint8Array(0));
    expect(source.reads).toEqual([]);
  });
});

describe("compact(): reclaiming the space of overwritten and deleted entries", () => {
  /** The bytes an entry written by ZipStore takes: local header, name, data. */
  const record = (key: string, size: number) => 30 + key.length + size;

  it("moves the live entries over the unused bytes and cuts the file; nothing to do the second time", async () => {
    const file = new CountingFile();
    const store = await ZipStore.open(file, { mode: "w" });
    await store.set("k", new Uint8Array(1000).fill(1));
    await store.set("gone", new Uint8Array(500).fill(9));
    await store.set("other", utf8("other value"));
    await store.set("k", new Uint8Array(1000).fill(2));
    await store.delete("gone");
    await store.close();
    const before = await file.size();

    const again = await ZipStore.open(file);
    expect(await again.compact()).toBe(record("k", 1000) + record("gone", 500));
    expect(await file.size()).toBe(before - record("k", 1000) - record("gone", 500));
    // Reads right away, and after reopening the bytes.
    expect((await again.get("k"))?.every((b) => b === 2)).toBe(true);
    const writes = file.writes;
    expect(await again.compact()).toBe(0);
    expect(file.writes).toBe(writes);
    await again.close();
    const reopened = await ZipStore.open(file.bytes());
    expect(await reopened.list()).toEqual(["other", "k"]);
    expect(text(await reopened.get("other"))).toBe("other value");
    expect((await reopened.get("k"))?.every((b) => b === 2)).toBe(true);
    expect(reopened.info("other")?.offset).toBe(0);
    expect(reopened.info("k")?.offset).toBe(record("other", 11));
  });

  it("moves an entry larger than the 1 MiB copy piece over a gap shorter than itself", async () => {
    const file = new MemoryFile();
    const store = await ZipStore.open(file, { mode: "w" });
    const big = Uint8Array.from({ length: 3 * 2 ** 20 + 17 }, (_, i) => (i * 7 + (i >> 12)) % 256);
    await store.set("dead", new Uint8Array(100_000));
    await store.set("big", big);
    expect(sameBytes(await store.get("big"), big)).toBe(true); // its data offset is known now, and must move too
    await store.delete("dead");
    expect(await store.compact()).toBe(record("dead", 100_000));
    expect(sameBytes(await store.get("big"), big)).toBe(true);
    expect(await store.getRange("big", { offset: 2 ** 20, length: 5 })).toEqual(big.slice(2 ** 20, 2 ** 20 + 5));
    await store.close();
    expect(sameBytes(await (await ZipStore.open(file.bytes())).get("big"), big)).toBe(true);
    expect(await file.size()).toBe(record("big", big.length) + 46 + 3 + 22);
  });

  it("keeps what zipfile wrote and ZipStore does not write itself: data descriptors, directories, foreign names, prefixes, the comment", async () => {
    const odd = new MemoryFile(fixture("odd"));
    const store = await ZipStore.open(odd);
    await store.delete("z/1"); // the first entry: every other one moves
    const reclaimed = await store.compact();
    expect(reclaimed).toBeGreaterThan(30);
    await store.close();
    const reopened = await ZipStore.open(odd.bytes());
    for (const key of Object.keys(manifest.odd!.entries).filter(
      (k) => !k.endsWith("/") && !k.startsWith("../") && k !== "z/1",
    )) {
      expect(await reopened.get(key), key).toEqual(base64(manifest.odd!.entries[key]!.data));
    }
    expect((await reopened.listDir("")).prefixes).toEqual(["a", "empty-dir", "été"]);
    expect(new TextDecoder().decode(odd.bytes().subarray(-18))).toBe("an archive comment");
    expect(odd.bytes().length).toBe(fixture("odd").length - reclaimed - (46 + 3));

    const prefixed = new MemoryFile(fixture("prefixed"));
    const again = await ZipStore.open(prefixed);
    await again.set("x/0", utf8("replaced"));
    expect(await again.compact()).toBeGreaterThan(0);
    await again.close();
    expect(new TextDecoder().decode(prefixed.bytes().subarray(0, 10))).toBe("#!/bin/sh\n");
    const read = await ZipStore.open(prefixed.bytes());
    expect(text(await read.get("x/0"))).toBe("replaced");
    expect(text(await read.get(".zgroup"))).toBe('{"zarr_format": 2}');
  });

  it("is refused read-only and after close", async () => {
    const readOnly = await ZipStore.open(fixture("duplicates"));
    await expect(readOnly.compact()).rejects.toMatchObject({
      code: "ZARR_STORE",
      message: 'cannot compact zip archive: it is open read-only (mode "r")',
    });
    const store = await ZipStore.open(new MemoryFile(), { mode: "w" });
    await store.close();
    await expect(store.compact()).rejects.toMatchObject({
      code: "ZARR_STORE",
      message: expect.stringContaining("is closed"),
    });
  });

  it("an archive zarr-python wrote with a duplicate name: the older entry's space is reclaimed", async () => {
    const file = new MemoryFile(fixture("duplicates"));
    const store = await ZipStore.open(file);
    expect(await store.compact()).toBe(record("k", "first".length));
    await store.close();
    const reopened = await ZipStore.open(file.bytes());
    expect(await reopened.list()).toEqual(["other", "k"]);
    expect(text(await reopened.get("k"))).toBe("second");
  });
});
