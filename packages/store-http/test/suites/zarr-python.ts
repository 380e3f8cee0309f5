import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpStore } from "@z/store-http";
import { openSession, type Session } from "../../../../scripts/test-server/client.js";
import type { TransportUnderTest } from "./transport.js";

// test/fixtures/group.zarr was written by zarr-python 2.13's DirectoryStore
// (test/python/generate.py): served as static files by the shared test server, HttpStore reads it
// key by key, in Node and in Chromium.

const json = (bytes: Uint8Array | undefined) => JSON.parse(new TextDecoder().decode(bytes));

export function zarrPythonSuite({ name }: TransportUnderTest): void {
  let session: Session;
  let store: HttpStore;
  /** The file as the server has it on disk: a plain GET, no Range, no HttpStore. */
  const onDisk = async (key: string) =>
    new Uint8Array(await (await fetch(`${session.url}group.zarr/${key}`)).arrayBuffer());
  beforeAll(async () => {
    session = await openSession({ files: "packages/store-http/test/fixtures" });
    store = new HttpStore(`${session.url}group.zarr`, { retryDelay: 1 });
  });
  afterAll(() => session.end());

  describe(`reading a group zarr-python wrote, over HTTP with ${name}`, () => {
    it("reads metadata and attributes", async () => {
      expect(json(await store.get(".zgroup"))).toEqual({ zarr_format: 2 });
      expect(json(await store.get(".zattrs"))).toEqual({ title: "served over http" });
      expect(json(await store.get("foo/bar/.zarray"))).toMatchObject({
        shape: [4, 6],
        chunks: [2, 3],
        dtype: "<i4",
        dimension_separator: "/",
        compressor: null,
      });
      expect(json(await store.get("baz/.zarray"))).toMatchObject({ compressor: { id: "zlib", level: 1 } });
    });

    it("reads every chunk byte for byte, and a chunk never written is missing", async () => {
      for (const key of ["foo/bar/0/0", "foo/bar/0/1", "foo/bar/1/0", "foo/bar/1/1", "baz/0", "baz/1"]) {
        expect(await store.get(key), key).toEqual(await onDisk(key));
      }
      // chunk (1, 1) of arange(24).reshape(4, 6): rows 2-3, columns 3-5
      const chunk = (await store.get("foo/bar/1/1"))!;
      expect(Array.from(new Int32Array(chunk.buffer, chunk.byteOffset, 6))).toEqual([15, 16, 17, 21, 22, 23]);
      expect(await store.get("baz/2")).toBeUndefined();
      expect(await store.getRange("baz/2", { offset: 0, length: 4 })).toBeUndefined();
    });

    it("reads parts of chunks with Range requests", async () => {
      const whole = await onDisk("foo/bar/0/1");
      expect(await store.getRange("foo/bar/0/1", { offset: 4, length: 8 })).toEqual(whole.slice(4, 12));
      expect(await store.getRange("foo/bar/0/1", { suffixLength: 4 })).toEqual(whole.slice(-4));
      expect(await store.getRange("foo/bar/0/1", { offset: 20 })).toEqual(whole.slice(20));
      const { requests } = await session.log();
      const ranges = requests
        .filter((r) => r.path === "/group.zarr/foo/bar/0/1" && r.headers.range !== undefined)
        .map((r) => `${r.status} ${r.headers.range} ${r.bytes}`);
      expect(ranges).toEqual(["206 bytes=4-11 8", "206 bytes=-4 4", `206 bytes=20- ${whole.length - 20}`]);
    });

    it("is read-only unless asked: set and delete throw without a request", async () => {
      const before = (await session.log()).requests.length;
      await expect(store.set(".zattrs", new Uint8Array(1))).rejects.toMatchObject({
        code: "ZARR_STORE",
        key: ".zattrs",
        message: expect.stringContaining("read-only"),
      });
      await expect(store.delete(".zattrs")).rejects.toMatchObject({
        code: "ZARR_STORE",
        message: expect.stringContaining("read-only"),
      });
      expect((await session.log()).requests.length).toBe(before);
      expect(store.writable).toBe(false);
      expect("list" in store).toBe(false);
      expect("listDir" in store).toBe(false);
    });
  });
}
