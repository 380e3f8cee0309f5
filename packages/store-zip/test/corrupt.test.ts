import { describe, expect, it } from "vitest";
import { MemoryFile, ZipStore, bytesSource, type ByteSource } from "@z/store-zip";
import { text, utf8 } from "./helpers.js";

/** A small archive: "a" stored, "b" deflated, each a little over 1 KiB. */
async function archive(): Promise<Uint8Array> {
  const file = new MemoryFile();
  const stored = await ZipStore.open(file, { mode: "w" });
  await stored.set("a", utf8("hello world ".repeat(100)));
  await stored.close();
  const deflated = await ZipStore.open(file, { compression: "deflate" });
  await deflated.set("b", utf8("compress me ".repeat(100)));
  await deflated.close();
  return file.bytes();
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The offset of the record with `signature` whose name (at `nameAt` from its start) is `name`. */
function find(bytes: Uint8Array, signature: number, nameAt: number, name: string): number {
  for (let at = 0; at + nameAt <= bytes.length; at++) {
    if (
      view(bytes).getUint32(at, true) === signature &&
      new TextDecoder().decode(bytes.subarray(at + nameAt, at + nameAt + name.length)) === name
    )
      return at;
  }
  throw new Error(`no record for ${name}`);
}
const central = (bytes: Uint8Array, name: string) => find(bytes, 0x02014b50, 46, name);
const local = (bytes: Uint8Array, name: string) => find(bytes, 0x04034b50, 30, name);
const endRecord = (bytes: Uint8Array) => bytes.length - 22;

async function openError(bytes: Uint8Array): Promise<Error & { code?: string; key?: string }> {
  return ZipStore.open(bytes).then(
    () => expect.unreachable("opened a corrupt archive"),
    (err: Error) => err,
  );
}

describe("corrupt archives are StoreErrors saying what is wrong", () => {
  it("the archive is fine to start with", async () => {
    const store = await ZipStore.open(await archive());
    expect(await store.list()).toEqual(["a", "b"]);
    expect(store.info("b")?.method).toBe("deflate");
  });

  it("not a zip: too short, or no end record", async () => {
    expect(await openError(utf8("PK"))).toMatchObject({
      code: "ZARR_STORE",
      message: expect.stringContaining("too short"),
    });
    expect((await openError(new Uint8Array(5000).fill(7))).message).toContain("not a zip archive");
    const bytes = await archive();
    bytes[endRecord(bytes)] = 0x51; // "QK\5\6"
    expect((await openError(bytes)).message).toContain("not a zip archive");
  });

  it("a bad central directory signature", async () => {
    const bytes = await archive();
    bytes[central(bytes, "b") + 1] = 0;
    const err = await openError(bytes);
    expect(err.message).toMatch(
      /central directory entry #1 \(offset \d+\) has a bad signature 0x02010050 \(expected 0x02014b50\): the central directory is corrupt$/,
    );
  });

  it("a truncated central directory: the end record claims more or less than is there", async () => {
    const longer = await archive();
    view(longer).setUint32(endRecord(longer) + 12, view(longer).getUint32(endRecord(longer) + 12, true) + 5000, true);
    expect((await openError(longer)).message).toMatch(
      /truncated or corrupt: the end record puts a \d+-byte central directory at offset \d+/,
    );
    // The last 20 bytes of the directory cut out, the end record unchanged.
    const full = await archive();
    const cut = new Uint8Array([...full.subarray(0, endRecord(full) - 20), ...full.subarray(endRecord(full))]);
    expect((await openError(cut)).message).toMatch(/truncated or corrupt/);
    // The last record's name length running past the end of the directory.
    const long = await archive();
    view(long).setUint16(central(long, "b") + 28, 200, true);
    expect((await openError(long)).message).toMatch(
      /^cannot open zip archive: central directory entry #1 \(offset \d+\) runs past the end of the central directory: the central directory is truncated$/,
    );
  });

  it("an entry count that disagrees with the central directory", async () => {
    const bytes = await archive();
    view(bytes).setUint16(endRecord(bytes) + 10, 1, true);
    expect((await openError(bytes)).message).toContain(
      "its end record counts 1 entries, but the central directory holds 2",
    );
  });
});

describe("claims that would take unbounded memory fail first, with a typed error", () => {
  it("an end record counting more entries than its central directory can hold", async () => {
    const bytes = await archive();
    view(bytes).setUint16(endRecord(bytes) + 10, 65535, true);
    expect(await openError(bytes)).toMatchObject({
      code: "ZARR_STORE",
      message:
        "cannot open zip archive: corrupt: its end record counts 65535 entries, which take at least 3014610 bytes, but says the central directory is 94 bytes",
    });
  });

  it("a zip64 end record claiming 2^40 entries, or a central directory of 2^45 bytes in a small file", async () => {
    const file = new MemoryFile();
    const store = await ZipStore.open(file, { mode: "w", forceZip64: true });
    await store.set("a", utf8("hello"));
    await store.close();
    const zip64End = (bytes: Uint8Array) => find(bytes, 0x06064b50, 0, "");
    const many = file.bytes();
    view(many).setBigUint64(zip64End(many) + 32, 2n ** 40n, true);
    expect((await openError(many)).message).toMatch(
      /^cannot open zip archive: corrupt: its end record counts 1099511627776 entries, which take at least \d+ bytes, but says the central directory is \d+ bytes$/,
    );
    const huge = file.bytes();
    view(huge).setBigUint64(zip64End(huge) + 40, 2n ** 45n, true);
    expect(await openError(huge)).toMatchObject({
      code: "ZARR_STORE",
      message: expect.stringMatching(
        /truncated or corrupt: the end record puts a 35184372088832-byte central directory at offset \d+/,
      ),
    });
  });

  it("a deflated entry claiming more bytes than deflate can produce from its data: refused before reading or inflating", async () => {
    const bytes = await archive();
    const compressed = view(bytes).getUint32(central(bytes, "b") + 20, true);
    // 4 GiB from a few dozen bytes: a zip bomb's claim, or a corrupt size field.
    view(bytes).setUint32(central(bytes, "b") + 24, 0xfffffff0, true);
    view(bytes).setUint32(local(bytes, "b") + 22, 0xfffffff0, true);
    const reads: number[] = [];
    const inner = bytesSource(bytes);
    const store = await ZipStore.open({
      size: () => inner.size(),
      read: (offset, length) => (reads.push(length), inner.read(offset, length)),
    });
    reads.length = 0;
    const message = `corrupt zip entry "b": sizes disagree (the central directory says 4294967280 bytes inflated from ${compressed} compressed, more than deflate can produce (at most ${compressed * 1032 + 1024}))`;
    await expect(store.get("b")).rejects.toMatchObject({ code: "ZARR_STORE", key: "b", message });
    await expect(store.getRange("b", { offset: 0, length: 10 })).rejects.toMatchObject({ key: "b", message });
    expect(reads).toEqual([]);
    expect(text(await store.get("a"))).toBe("hello world ".repeat(100));
  });

  it("a stored entry claiming a size its data does not have: refused before reading", async () => {
    const bytes = await archive();
    view(bytes).setUint32(central(bytes, "a") + 24, 0xfffffff0, true);
    const store = await ZipStore.open(bytes);
    await expect(store.get("a")).rejects.toMatchObject({
      key: "a",
      message: 'corrupt zip entry "a": sizes disagree (a stored entry of 4294967280 bytes holds 1200 bytes)',
    });
  });

  it("a bad local header signature, naming the key", async () => {
    const bytes = await archive();
    bytes[local(bytes, "b")] = 0;
    const store = await ZipStore.open(bytes);
    await expect(store.get("b")).rejects.toMatchObject({
      code: "ZARR_STORE",
      key: "b",
      message: expect.stringMatching(/^corrupt zip entry "b": bad local header signature 0x04034b00 at offset \d+/),
    });
    expect(await store.get("a")).toBeDefined();
  });

  it("a central directory offset pointing at another entry", async () => {
    const bytes = await archive();
    view(bytes).setUint32(central(bytes, "b") + 42, 0, true);
    const store = await ZipStore.open(bytes);
    await expect(store.get("b")).rejects.toMatchObject({
      key: "b",
      message: expect.stringContaining('its local header names "a"'),
    });
  });

  it("CRC mismatches on read, for stored and deflated data", async () => {
    const bytes = await archive();
    const flip = local(bytes, "a") + 31 + 50;
    bytes[flip] = bytes[flip]! ^ 1;
    const store = await ZipStore.open(bytes);
    await expect(store.get("a")).rejects.toMatchObject({
      code: "ZARR_STORE",
      key: "a",
      message: expect.stringMatching(
        /^corrupt zip entry "a": CRC-32 mismatch \(the central directory says 0x[0-9a-f]{8}, the data has 0x[0-9a-f]{8}\)$/,
      ),
    });
    const other = await archive();
    view(other).setUint32(central(other, "b") + 16, 12345, true);
    await expect((await ZipStore.open(other)).get("b")).rejects.toMatchObject({
      key: "b",
      message: expect.stringContaining("CRC-32 mismatch"),
    });
  });

  it("sizes that disagree: central directory against local header, stored sizes, inflated size", async () => {
    const local64 = await archive();
    view(local64).setUint32(local(local64, "a") + 22, 999, true);
    await expect((await ZipStore.open(local64)).get("a")).rejects.toMatchObject({
      key: "a",
      message: expect.stringContaining(
        "sizes disagree (the central directory says 1200 bytes compressed, 1200 uncompressed; the local header says 1200 and 999)",
      ),
    });

    const stored = await archive();
    view(stored).setUint32(central(stored, "a") + 24, 1000, true);
    view(stored).setUint32(local(stored, "a") + 22, 1000, true);
    const storedStore = await ZipStore.open(stored);
    await expect(storedStore.get("a")).rejects.toMatchObject({
      key: "a",
      message: expect.stringContaining("sizes disagree (a stored entry of 1000 bytes holds 1200 bytes)"),
    });
    await expect(storedStore.getRange("a", { offset: 0, length: 4 })).rejects.toMatchObject({
      key: "a",
      message: expect.stringContaining("sizes disagree"),
    });

    const inflated = await archive();
    view(inflated).setUint32(central(inflated, "b") + 24, 1000, true);
    view(inflated).setUint32(local(inflated, "b") + 22, 1000, true);
    await expect((await ZipStore.open(inflated)).get("b")).rejects.toMatchObject({
      key: "b",
      message: expect.stringContaining(
        "sizes disagree (the central directory says 1000 bytes, the data inflates to more)",
      ),
    });
  });

  it("deflate data that is not deflate", async () => {
    const bytes = await archive();
    const at = local(bytes, "b") + 31;
    bytes.fill(0xff, at, at + 8);
    await expect((await ZipStore.open(bytes)).get("b")).rejects.toMatchObject({
      key: "b",
      message: expect.stringMatching(/^corrupt zip entry "b": (invalid deflate data|CRC-32 mismatch|sizes disagree)/),
    });
  });

  it("entry data running past the end of the archive", async () => {
    const bytes = await archive();
    const size = bytes.length;
    view(bytes).setUint32(central(bytes, "b") + 20, size, true);
    view(bytes).setUint32(local(bytes, "b") + 18, size, true);
    await expect((await ZipStore.open(bytes)).get("b")).rejects.toMatchObject({
      key: "b",
      message: expect.stringMatching(/run past the end of the \d+-byte archive \(truncated\?\)/),
    });
  });

  it("compression methods and features it cannot read", async () => {
    const bzip = await archive();
    view(bzip).setUint16(central(bzip, "b") + 10, 12, true);
    await expect((await ZipStore.open(bzip)).get("b")).rejects.toMatchObject({
      key: "b",
      message: 'cannot read zip entry "b": unsupported compression bzip2 (only stored and deflate are)',
    });
    const encrypted = await archive();
    view(encrypted).setUint16(central(encrypted, "a") + 8, 1, true);
    await expect((await ZipStore.open(encrypted)).get("a")).rejects.toMatchObject({
      key: "a",
      message: 'cannot read zip entry "a": it is encrypted',
    });
    const disks = await archive();
    view(disks).setUint16(endRecord(disks) + 4, 1, true);
    expect((await openError(disks)).message).toContain("spanning several disks");
  });

  it("a byte source that returns fewer bytes than asked for", async () => {
    const bytes = await archive();
    const inner = bytesSource(bytes);
    let short = false;
    const source: ByteSource = {
      size: () => inner.size(),
      read: async (offset, length) => (await inner.read(offset, length)).subarray(0, short ? length - 1 : length),
    };
    const store = await ZipStore.open(source);
    short = true;
    await expect(store.get("a")).rejects.toMatchObject({
      code: "ZARR_STORE",
      key: "a",
      message: expect.stringMatching(/asked the byte source for \d+ bytes at offset 0, got \d+ bytes/),
    });
  });

  it("a byte source that fails: the error is the cause", async () => {
    const cause = new Error("disk on fire");
    const source: ByteSource = { size: async () => 1000, read: async () => Promise.reject(cause) };
    const err = await ZipStore.open(source).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "ZARR_STORE", cause, message: expect.stringContaining("disk on fire") });
  });
});
