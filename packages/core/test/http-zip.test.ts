import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Group, open, openArray, openConsolidated, openLocation, type ZarrArray } from "@z/core";
import { HttpByteSource, httpLocations } from "@z/store-http";
import { ZipStore, zipLocations } from "@z/store-zip";
import { openSession, type Session } from "../../../scripts/test-server/client.js";
import {
  bigArray,
  expected,
  expectedBytes,
  FIXTURES,
  littleEndianBytes,
  plainValues,
  readSelection,
  sha256,
  smallArrays,
} from "./http-fixtures.js";

// hierarchy.zip, written by zarr-python 2.13's zarr.ZipStore (test/python/http_fixtures.py): the
// hierarchy of http-hierarchy.test.ts plus "big", 640x640 uint8 in 100 uncompressed 4 KiB chunks.
// Read over HTTP range requests from the shared test server, in Node and in Chromium; the server
// counts the bytes it sent, to show that a read fetches only the end of the archive (its central
// directory) and the entries it needs.

let session: Session;
let zipUrl: string;
beforeAll(async () => {
  session = await openSession({ files: FIXTURES });
  zipUrl = `${session.url}hierarchy.zip`;
});
afterAll(() => session.end());

const logLength = async () => (await session.log()).requests.length;
/** The requests for the zip since request `since`, and the bytes sent for them. */
async function served(since: number): Promise<{ bytes: number; requests: string[] }> {
  const log = (await session.log()).requests.slice(since).filter((r) => r.path === "/hierarchy.zip");
  return { bytes: log.reduce((sum, r) => sum + r.bytes, 0), requests: log.map((r) => `${r.method} ${r.status}`) };
}

describe("a zip zarr.ZipStore wrote, over HTTP range requests", () => {
  it("openLocation opens big inside it by URL; one chunk's selection fetches a small part of the archive", async () => {
    const since = await logLength();
    const opened = await openLocation(`${zipUrl}|zarr2:big`, { ...httpLocations(), ...zipLocations });
    expect(opened.store).toBeInstanceOf(ZipStore);
    expect(opened.location).toEqual({ kind: "zip", file: zipUrl, remote: true, node: "big" });
    const z = await openArray(opened.store, { path: opened.path, mode: "r" });
    expect([z.shape, z.chunks, z.compressor]).toEqual([[640, 640], [64, 64], null]);

    // Rows 130-189, every 5th column of 330-379: all in chunk (2, 5).
    const spec = bigArray.selections[0]!;
    const result = await readSelection(z, spec);
    expect(result.shape).toEqual(spec.shape);
    expect(plainValues(result)).toEqual(spec.values);

    const { bytes, requests } = await served(since);
    // HEAD for the size; one read of the archive's last 65,633 bytes (its end records and central
    // directory of 178 entries; zipfile looks as far back for them); big/.zarray's local header
    // and data; chunk (2, 5)'s 4,096 bytes with its local header. Nothing else of the 446 kB.
    expect(requests.filter((r) => r !== "GET 206")).toEqual(["HEAD 200"]);
    expect(bytes).toBeLessThan(65_633 + 1_024 + 4_096 + 512);
    expect(bytes / expected.zip.size).toBeLessThan(0.2);
    console.info(
      `one chunk of big read from hierarchy.zip over HTTP: ${requests.length} requests, ${bytes} of ${expected.zip.size} bytes (${((100 * bytes) / expected.zip.size).toFixed(1)}%)`,
    );
    await opened.close();
  });

  it("reads big whole, as zarr-python did, fetching each chunk once", async () => {
    const store = await ZipStore.open(new HttpByteSource(zipUrl));
    const z = await openArray(store, { path: "big", mode: "r" });
    const since = await logLength();
    const whole = await z.get();
    expect(await sha256(littleEndianBytes(whole))).toBe(bigArray.sha256);
    expect(plainValues(await readSelection(z, bigArray.selections[1]!))).toEqual(bigArray.selections[1]!.values);
    const { bytes, requests } = await served(since);
    // One request per chunk (100, then the 3 the coordinates touch again), each its 4,096 bytes
    // with the local header: about the archive's size once, no more.
    expect(requests).toEqual(Array(103).fill("GET 206"));
    expect(bytes).toBeGreaterThanOrEqual(103 * 4_096);
    expect(bytes).toBeLessThan(103 * (4_096 + 512));
  });

  it("lists the hierarchy as zarr-python did, and reads every array of it from the zip", async () => {
    const store = await ZipStore.open(new HttpByteSource(zipUrl));
    expect((await store.list()).length).toBe(expected.zip.keys);
    const root = (await open(store, { mode: "r" })) as Group;
    expect(await root.tree()).toBe(expected.zip.tree);
    for (const entry of smallArrays) {
      const z = (await root.getItem(entry.path)) as ZarrArray;
      expect(littleEndianBytes(await z.get()), entry.path).toEqual(expectedBytes(entry));
      for (const spec of entry.selections) {
        expect(
          plainValues(await readSelection(z, spec)),
          `${entry.path} ${JSON.stringify(spec.sel ?? spec.where)}`,
        ).toEqual(spec.values);
      }
    }
  });

  it("opens it through the .zmetadata that zarr.copy_store put in it", async () => {
    const store = await ZipStore.open(new HttpByteSource(zipUrl));
    // Consolidated before "big" was added, so the document lists the rest of the hierarchy only.
    const root = (await openConsolidated(store, { mode: "r" })) as Group;
    expect(await root.tree()).toBe(expected.tree);
    const zstd = (await root.getItem("zstd")) as ZarrArray;
    expect(littleEndianBytes(await zstd.get())).toEqual(
      expectedBytes(smallArrays.find((entry) => entry.path === "zstd")!),
    );
  });
});
