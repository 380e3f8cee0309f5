import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unzlibSync } from "fflate";
import { MemoryFile, ZipStore } from "@z/store-zip";
import { openSession, type Session } from "../../../scripts/test-server/client.js";
import { base64, manifest, rangeSource, text, utf8 } from "./helpers.js";

// Archives served by the shared test server (scripts/test-server/), read with HTTP range
// requests, in Node and in Chromium. zarr-remote.zip was written by zarr-python 2.13's ZipStore
// with zip64 records throughout (test/python/generate.py): about 1 MiB, of which a read of one
// chunk must fetch only the end of the archive and that chunk.

let files: Session;
beforeAll(async () => {
  files = await openSession({ files: "packages/store-zip/test/fixtures" });
});
afterAll(() => files.end());

/** Bytes the server sent for `name` since `since` requests into the log, and the requests. */
async function served(name: string, since = 0): Promise<{ bytes: number; requests: string[] }> {
  const log = (await files.log()).requests.slice(since).filter((r) => r.path === `/${name}`);
  return {
    bytes: log.reduce((sum, r) => sum + r.bytes, 0),
    requests: log.map((r) => `${r.method} ${r.status} ${r.headers.range ?? ""}`.trim()),
  };
}
/** What zarr-python wrote at (i, j) of the array "big". */
const bigValue = (i: number, j: number) => (i + 3 * j) % 251;
const logLength = async () => (await files.log()).requests.length;

describe("a zip zarr-python wrote, over HTTP range requests", () => {
  it("opens it and reads one chunk without downloading the archive", async () => {
    const since = await logLength();
    const store = await ZipStore.open(rangeSource(`${files.url}zarr-remote.zip`), { name: "zarr-remote.zip" });
    const size = manifest["zarr-remote"]!.entries;
    expect(await store.list("big/")).toHaveLength(65);
    expect(Object.keys(size)).toHaveLength(71);

    // chunk (3, 5) of big: rows 384-511, columns 640-767 of (i + 3 j) % 251.
    const chunk = (await store.get("big/3.5"))!;
    expect(chunk).toHaveLength(128 * 128);
    const expected = Uint8Array.from({ length: 128 * 128 }, (_, n) =>
      bigValue(384 + Math.floor(n / 128), 640 + (n % 128)),
    );
    expect(chunk.every((value, n) => value === expected[n])).toBe(true);
    expect(store.info("big/3.5")).toMatchObject({
      method: "stored",
      size: 16384,
      compressedSize: 16384,
      crc32: manifest["zarr-remote"]!.entries["big/3.5"]!.crc,
    });

    const archiveSize = 1_059_070;
    const { bytes, requests } = await served("zarr-remote.zip", since);
    // HEAD for the size, one read of the end records and central directory (the last 64 KiB, the
    // longest comment, as zipfile searches), one read of the chunk with its local header.
    expect(requests).toEqual([
      "HEAD 200",
      `GET 206 bytes=${archiveSize - 65_633}-${archiveSize - 1}`,
      expect.stringMatching(/^GET 206 bytes=\d+-\d+$/),
    ]);
    expect(bytes).toBeLessThan(65_633 + 16_384 + 400);
    expect(bytes / archiveSize).toBeLessThan(0.08);
  });

  it("reads metadata and a zlib-compressed chunk; the zip64 end records are there", async () => {
    const store = await ZipStore.open(rangeSource(`${files.url}zarr-remote.zip`));
    expect(JSON.parse(text(await store.get(".zattrs"))!)).toEqual({ title: "read over http" });
    expect(JSON.parse(text(await store.get("big/.zarray"))!)).toMatchObject({
      shape: [1024, 1024],
      chunks: [128, 128],
      dtype: "|u1",
      compressor: null,
    });
    expect(JSON.parse(text(await store.get("small/.zarray"))!)).toMatchObject({
      shape: [10],
      chunks: [4],
      dtype: "<f8",
      compressor: { id: "zlib", level: 1 },
    });
    const raw = unzlibSync((await store.get("small/1"))!);
    expect(Array.from(new Float64Array(raw.buffer, raw.byteOffset, 4))).toEqual([1, 1.25, 1.5, 1.75]);
    const end = new Uint8Array(
      await (await fetch(`${files.url}zarr-remote.zip`, { headers: { range: "bytes=-98" } })).arrayBuffer(),
    );
    const view = new DataView(end.buffer);
    expect([view.getUint32(0, true), view.getUint32(56, true), view.getUint32(76, true)]).toEqual([
      0x06064b50, 0x07064b50, 0x06054b50,
    ]);
  });

  for (const name of ["zip64-forced", "zarr-deflated", "zarr-stored"]) {
    it(`reads every key of ${name}.zip (stored and deflated entries) as zipfile does`, async () => {
      const store = await ZipStore.open(rangeSource(`${files.url}${name}.zip`));
      const entries = manifest[name]!.entries;
      expect((await store.list()).sort()).toEqual(Object.keys(entries).sort());
      for (const [key, entry] of Object.entries(entries)) {
        expect(await store.get(key), key).toEqual(base64(entry.data));
        expect(store.info(key)?.method).toBe(entry.method === 8 ? "deflate" : "stored");
      }
      expect(new Set(Object.values(entries).map((entry) => entry.method))).toEqual(
        new Set(name === "zip64-forced" ? [0, 8] : [name === "zarr-deflated" ? 8 : 0]),
      );
    });
  }

  it("a range of a stored entry reads only those bytes", async () => {
    const store = await ZipStore.open(rangeSource(`${files.url}zarr-remote.zip`));
    await store.get("big/0.0"); // learns where its data starts
    const since = await logLength();
    expect(await store.getRange("big/0.1", { offset: 1000, length: 8 })).toEqual(
      Uint8Array.from({ length: 8 }, (_, n) => bigValue(Math.floor((1000 + n) / 128), 128 + ((1000 + n) % 128))),
    );
    const { bytes } = await served("zarr-remote.zip", since);
    // The local header (with some slack) the first time, then the 8 bytes.
    expect(bytes).toBeLessThan(600);
  });
});

describe("writing in memory, then reading it back over HTTP", () => {
  it("a ZipStore written to a MemoryFile, PUT to the server, read by range requests", async () => {
    const file = new MemoryFile();
    const writer = await ZipStore.open(file, { mode: "w", compression: "deflate" });
    await writer.set(".zgroup", utf8('{"zarr_format": 2}'));
    await writer.set("a/0", new Uint8Array(50_000).fill(3));
    await writer.set("a/0", new Uint8Array(50_000).fill(4));
    await writer.set("b/0", utf8("stored? no: deflated"));
    expect(await writer.compact()).toBeGreaterThan(0);
    await writer.close();

    const session = await openSession({ writable: true });
    try {
      const put = await fetch(`${session.url}written.zip`, {
        method: "PUT",
        body: file.bytes() as Uint8Array<ArrayBuffer>,
      });
      expect(put.status).toBe(201);
      const store = await ZipStore.open(rangeSource(`${session.url}written.zip`));
      expect(await store.list()).toEqual([".zgroup", "a/0", "b/0"]);
      expect((await store.get("a/0"))?.every((b) => b === 4)).toBe(true);
      expect(text(await store.get("b/0"))).toBe("stored? no: deflated");
      expect(store.info("a/0")).toMatchObject({ method: "deflate", size: 50_000 });
    } finally {
      await session.end();
    }
  });
});
