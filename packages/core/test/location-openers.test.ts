// `openLocation` of `@z/core` (the entry browsers load) opens stores only with the openers it is
// given (`LocationStores`): it imports no store package. Runs in Node and in Chromium, against the
// shared test server's copy of hierarchy.zarr and hierarchy.zip (zarr-python 2.13 wrote both, see
// test/python/http_fixtures.py).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocationError, MemoryStore, openArray, openLocation, type ZarrArray } from "@z/core";
import type { LocationStores } from "@z/meta";
import { HttpStore, httpLocations } from "@z/store-http";
import { ZipStore, zipLocations } from "@z/store-zip";
import { openSession, type Session } from "../../../scripts/test-server/client.js";
import { expectedBytes, FIXTURES, littleEndianBytes, smallArrays } from "./http-fixtures.js";

let session: Session;
beforeAll(async () => {
  session = await openSession({ files: FIXTURES });
});
afterAll(() => session.end());

const rejection = (promise: Promise<unknown>): Promise<LocationError> =>
  promise.then(
    () => expect.unreachable("it opened"),
    (err: unknown) => err as LocationError,
  );

const entry = smallArrays[0]!;

describe("openLocation of @z/core, with the openers it is given", () => {
  it("opens an http(s) URL with httpLocations() of @z/store-http", async () => {
    const { store, path, location } = await openLocation(`${session.url}hierarchy.zarr|zarr2:${entry.path}`, {
      ...httpLocations({ retries: 1 }),
    });
    expect(store).toBeInstanceOf(HttpStore);
    expect(location.kind).toBe("http");
    const z: ZarrArray = await openArray(store, { path, mode: "r" });
    expect(littleEndianBytes(await z.get())).toEqual(expectedBytes(entry));
  });

  it("opens a zip over http(s) with httpLocations() and zipLocations", async () => {
    const opened = await openLocation(`${session.url}hierarchy.zip|zarr2:${entry.path}`, {
      ...httpLocations(),
      ...zipLocations,
    });
    expect(opened.store).toBeInstanceOf(ZipStore);
    const z = await openArray(opened.store, { path: opened.path, mode: "r" });
    expect(littleEndianBytes(await z.get())).toEqual(expectedBytes(entry));
    await opened.close();
  });

  it("without httpLocations(), an http(s) URL is a LocationError naming @z/store-http and what to pass", async () => {
    const url = `${session.url}hierarchy.zarr`;
    const asked = (await session.log()).requests.length;
    const err = await rejection(openLocation(url));
    expect(err).toBeInstanceOf(LocationError);
    expect(err).toMatchObject({ code: "ZARR_LOCATION", packageName: "@z/store-http" });
    expect(err.message).toBe(
      `${url}: http(s) URLs need @z/store-http (npm install @z/store-http): pass { ...httpLocations() } to openLocation, with httpLocations from "@z/store-http"`,
    );
    // Nothing was asked of the server.
    expect((await session.log()).requests.length).toBe(asked);
  });

  it("a zip over http(s) needs zipLocations too", async () => {
    const err = await rejection(openLocation(`${session.url}hierarchy.zip`, { ...httpLocations() }));
    expect(err).toMatchObject({ code: "ZARR_LOCATION", packageName: "@z/store-zip" });
    expect(err.message).toMatch(/zip files over http\(s\) need @z\/store-zip .*\{ \.\.\.zipLocations \}/);
  });

  it("local paths open in Node (@z/core/node) or with fsLocations of @z/store-fs", async () => {
    for (const text of ["data/x.zarr", "file:///data/x.zarr|zarr2:a", "/data/x.zip"]) {
      const err = await rejection(openLocation(text, { ...httpLocations(), ...zipLocations }));
      expect(err).toMatchObject({ code: "ZARR_LOCATION", packageName: "@z/store-fs" });
      expect(err.message).toContain(`openLocation of "@z/core/node"`);
      expect(err.message).toContain("{ ...fsLocations }");
    }
  });

  it("any object of openers will do: a directory path opened as a store of one's own", async () => {
    const stores = new Map<string, MemoryStore>([["data/x.zarr", new MemoryStore()]]);
    const mine: LocationStores = { openDirectory: (path) => stores.get(path)! };
    const { store, path } = await openLocation("data/x.zarr|zarr2:a/b", mine);
    expect(store).toBe(stores.get("data/x.zarr"));
    expect(path).toBe("a/b");
  });
});
