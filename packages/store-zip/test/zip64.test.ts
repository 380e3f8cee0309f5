import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryFile, ZipStore } from "@z/store-zip";
import { SparseFile, fixture, text, utf8 } from "./helpers.js";
import { hasZarrPython, python } from "./node-helpers.js";
import { needTool } from "../../../scripts/test-child/tools.js";

const GiB = 2 ** 30;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "z-zip64-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Where the 4-byte signature `sig` occurs in `bytes`, or -1. */
function indexOfSignature(bytes: Uint8Array, sig: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = bytes.length - 4; at >= 0; at--) if (view.getUint32(at, true) === sig) return at;
  return -1;
}
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;

describe("zip64 written by zipfile", () => {
  it("reads an archive whose sizes, offsets and count are all in zip64 records", async () => {
    // zipfile with its limits lowered to 0 (test/python/generate.py): the 32-bit fields hold
    // 0xFFFFFFFF and the real values are in zip64 extra fields and the zip64 end record.
    const bytes = fixture("zip64-forced");
    expect(indexOfSignature(bytes, ZIP64_END)).toBeGreaterThan(0);
    expect(indexOfSignature(bytes, ZIP64_LOCATOR)).toBeGreaterThan(0);
    const store = await ZipStore.open(bytes);
    expect(await store.list()).toEqual([".zgroup", "a/0.0", "a/0.1", "empty"]);
    expect(text(await store.get("a/0.1"))).toBe("stored chunk");
    expect(await store.get("empty")).toEqual(new Uint8Array(0));
    expect(store.info("a/0.0")).toMatchObject({ method: "deflate", size: 1024 });
    expect(store.info("a/0.0")?.modified).toEqual(new Date(2020, 0, 2, 3, 4, 6));
  });

  it("reads zipfile's archive of 65,537 entries (a zip64 entry count)", async () => {
    needTool("zarr-python", hasZarrPython);
    const path = join(dir, "many-by-python.zip");
    python(
      `import sys, zipfile, json
with zipfile.ZipFile(sys.argv[1], "w") as zf:
    for i in range(65537):
        zf.writestr(f"c/{i}", str(i))
print(json.dumps(True))`,
      path,
    );
    const file = await open(path);
    const bytes = new Uint8Array(await file.readFile());
    await file.close();
    expect(indexOfSignature(bytes.subarray(-200), ZIP64_END)).toBeGreaterThanOrEqual(0);
    const store = await ZipStore.open(bytes);
    expect((await store.list()).length).toBe(65537);
    expect(text(await store.get("c/0"))).toBe("0");
    expect(text(await store.get("c/65536"))).toBe("65536");
  }, 60_000);
});

describe("zip64 written by ZipStore", () => {
  it("with forceZip64, writes zip64 fields and end records that it and zipfile read", async () => {
    const file = new MemoryFile();
    const store = await ZipStore.open(file, { mode: "w", forceZip64: true, compression: "deflate" });
    await store.set(".zgroup", utf8('{"zarr_format": 2}'));
    await store.set("a/0", utf8("zip64 ".repeat(50)));
    await store.close();
    const bytes = file.bytes();
    expect(indexOfSignature(bytes, ZIP64_END)).toBeGreaterThan(0);
    expect(indexOfSignature(bytes, ZIP64_LOCATOR)).toBeGreaterThan(0);
    const again = await ZipStore.open(bytes);
    expect(text(await again.get("a/0"))).toBe("zip64 ".repeat(50));
    if (hasZarrPython) {
      const path = join(dir, "forced.zip");
      await writeFile(path, bytes);
      const seen = python<{ names: string[]; value: string; bad: string | null; extra: number[] }>(
        `import sys, zipfile, json
with zipfile.ZipFile(sys.argv[1]) as zf:
    print(json.dumps({"names": zf.namelist(), "value": zf.read("a/0").decode(), "bad": zf.testzip(),
                      "extra": [len(i.extra) for i in zf.infolist()]}))`,
        path,
      );
      expect(seen).toEqual({ names: [".zgroup", "a/0"], value: "zip64 ".repeat(50), bad: null, extra: [28, 28] });
    }
  });

  it("switches to a zip64 end record past 65,534 entries", async () => {
    const file = new MemoryFile();
    const store = await ZipStore.open(file, { mode: "w" });
    const count = 65537;
    const value = utf8("v");
    for (let i = 0; i < count; i++) await store.set(`c/${i}`, value);
    await store.close();
    const bytes = file.bytes();
    const end = new DataView(bytes.buffer, bytes.length - 22);
    expect(end.getUint16(10, true)).toBe(0xffff);
    expect(indexOfSignature(bytes.subarray(-100), ZIP64_END)).toBeGreaterThanOrEqual(0);
    const again = await ZipStore.open(bytes);
    expect((await again.list()).length).toBe(count);
    expect(text(await again.get("c/65536"))).toBe("v");
    if (hasZarrPython) {
      const path = join(dir, "many-by-z.zip");
      await writeFile(path, bytes);
      const seen = python<[number, string]>(
        `import sys, zipfile, json
with zipfile.ZipFile(sys.argv[1]) as zf:
    print(json.dumps([len(zf.namelist()), zf.read("c/65536").decode()]))`,
        path,
      );
      expect(seen).toEqual([count, "v"]);
    }
  }, 60_000);

  it("writes entries past 4 GiB with zip64 offsets, and reads them back (sparse, in memory)", async () => {
    const file = await sparseArchiveWithBigEntry(5 * GiB);
    const store = await ZipStore.open(file);
    expect(store.info("big")).toMatchObject({ size: 5 * GiB, compressedSize: 5 * GiB, offset: 0 });
    await store.set("small/0", utf8("after five gibibytes"));
    await store.close();

    const again = await ZipStore.open(file, { mode: "r" });
    expect(again.info("small/0")!.offset).toBeGreaterThan(5 * GiB);
    expect(text(await again.get("small/0"))).toBe("after five gibibytes");
    // A range read at an offset past 4 GiB, inside the big stored entry.
    expect(await again.getRange("big", { offset: 5 * GiB - 3 })).toEqual(new Uint8Array(3));
    expect(await again.getRange("big", { suffixLength: 2 })).toEqual(new Uint8Array(2));
  });

  it("zipfile reads the entry ZipStore wrote past 4 GiB (a sparse file)", async () => {
    needTool("zarr-python", hasZarrPython);
    const file = await sparseArchiveWithBigEntry(5 * GiB);
    const store = await ZipStore.open(file);
    await store.set("small/0", utf8("read by zipfile"));
    await store.close();
    const path = join(dir, "sparse.zip");
    await file.saveSparse(path);
    const seen = python<{ big: number; offset: number; value: string }>(
      `import sys, zipfile, json
with zipfile.ZipFile(sys.argv[1]) as zf:
    print(json.dumps({"big": zf.getinfo("big").file_size, "offset": zf.getinfo("small/0").header_offset,
                      "value": zf.read("small/0").decode()}))`,
      path,
    );
    expect(seen.big).toBe(5 * GiB);
    expect(seen.offset).toBeGreaterThan(5 * GiB);
    expect(seen.value).toBe("read by zipfile");
  });
});

/**
 * An archive of one stored entry "big" of `size` zero bytes (CRC left 0: it is never read whole),
 * written by hand with zip64 sizes, in a {@link SparseFile} so the zeros take no memory.
 */
async function sparseArchiveWithBigEntry(
  size: number,
): Promise<SparseFile & { saveSparse(path: string): Promise<void> }> {
  const file = new SparseFile();
  const put = async (offset: number, fields: [number, 2 | 4 | 8][], tail: Uint8Array[] = []) => {
    const length = fields.reduce((sum, [, n]) => sum + n, 0) + tail.reduce((sum, t) => sum + t.length, 0);
    const data = new Uint8Array(length);
    const view = new DataView(data.buffer);
    let at = 0;
    for (const [value, n] of fields) {
      if (n === 2) view.setUint16(at, value, true);
      else if (n === 4) view.setUint32(at, value, true);
      else view.setBigUint64(at, BigInt(value), true);
      at += n;
    }
    for (const t of tail) {
      data.set(t, at);
      at += t.length;
    }
    await file.write(offset, data);
    return offset + length;
  };
  const name = utf8("big");
  const zip64 = (values: number[]): [number, 2 | 4 | 8][] => [
    [1, 2],
    [values.length * 8, 2],
    ...values.map((v): [number, 8] => [v, 8]),
  ];
  const dataStart = await put(
    0,
    [
      [0x04034b50, 4],
      [45, 2],
      [0, 2],
      [0, 2],
      [0, 2],
      [0x21, 2],
      [0, 4],
      [0xffffffff, 4],
      [0xffffffff, 4],
      [3, 2],
      [20, 2],
    ],
    [name, fieldBytes(zip64([size, size]))],
  );
  const centralStart = dataStart + size;
  const centralEnd = await put(
    centralStart,
    [
      [0x02014b50, 4],
      [0x032d, 2],
      [45, 2],
      [0, 2],
      [0, 2],
      [0, 2],
      [0x21, 2],
      [0, 4],
      [0xffffffff, 4],
      [0xffffffff, 4],
      [3, 2],
      [20, 2],
      [0, 2],
      [0, 2],
      [0, 2],
      [0, 4],
      [0, 4],
    ],
    [name, fieldBytes(zip64([size, size]))],
  );
  const locator = await put(centralEnd, [
    [0x06064b50, 4],
    [44, 8],
    [0x032d, 2],
    [45, 2],
    [0, 4],
    [0, 4],
    [1, 8],
    [1, 8],
    [centralEnd - centralStart, 8],
    [centralStart, 8],
  ]);
  const end = await put(locator, [
    [0x07064b50, 4],
    [0, 4],
    [centralEnd, 8],
    [1, 4],
  ]);
  await put(end, [
    [0x06054b50, 4],
    [0, 2],
    [0, 2],
    [1, 2],
    [1, 2],
    [centralEnd - centralStart, 4],
    [0xffffffff, 4],
    [0, 2],
  ]);
  return Object.assign(file, {
    async saveSparse(path: string) {
      // Only the written segments go to disk; the rest of the file is a hole.
      const handle = await open(path, "w");
      const total = await file.size();
      await handle.truncate(total);
      const head = await file.read(0, dataStart);
      await handle.write(head, 0, head.length, 0);
      const tail = await file.read(centralStart, total - centralStart);
      await handle.write(tail, 0, tail.length, centralStart);
      await handle.close();
    },
  });
}

function fieldBytes(fields: [number, 2 | 4 | 8][]): Uint8Array {
  const data = new Uint8Array(fields.reduce((sum, [, n]) => sum + n, 0));
  const view = new DataView(data.buffer);
  let at = 0;
  for (const [value, n] of fields) {
    if (n === 2) view.setUint16(at, value, true);
    else if (n === 4) view.setUint32(at, value, true);
    else view.setBigUint64(at, BigInt(value), true);
    at += n;
  }
  return data;
}
