import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ChunkError,
  type Group,
  NodeNotFoundError,
  open,
  openArray,
  openConsolidated,
  openLocation,
  type ZarrArray,
} from "@z/core";
import { CodecError } from "@z/codecs";
import type { ZarrError } from "@z/meta";
import { HttpByteSource, HttpStore, HttpStoreError, httpLocations } from "@z/store-http";
import { ZipStore, zipLocations } from "@z/store-zip";
import {
  openSession,
  sessionPool,
  toBase64,
  type FaultAction,
  type Session,
} from "../../../scripts/test-server/client.js";
import { expectedBytes, FIXTURES, smallArrays } from "./http-fixtures.js";

// What goes wrong when reading zarr-python's hierarchy (test/python/http_fixtures.py) over HTTP,
// in Node and in Chromium alike: each failure is a ZarrError subclass with a code and the store
// key it is about, never a bare TypeError and never wrong values.

const pool = sessionPool();
afterEach(() => pool.endAll());

/** The fixtures as they are, to copy chunks from. */
let clean: Session;
beforeAll(async () => {
  clean = await openSession({ files: FIXTURES });
});
afterAll(() => clean.end());

/**
 * Fast retries, so failures that are retried (truncated bodies) give up quickly. No short
 * per-attempt timeout: an attempt that took longer on a loaded machine would be retried, and the
 * faults, aimed at the requests after opening, would hit others.
 */
const http = { retries: 1, retryDelay: 1 };

const rejection = (promise: Promise<unknown>): Promise<ZarrError> =>
  promise.then(
    () => expect.unreachable("it succeeded"),
    (err: unknown) => err as ZarrError,
  );

/** The stored bytes of `key` in hierarchy.zarr, as the server has them. */
const stored = async (key: string) =>
  new Uint8Array(await (await fetch(`${clean.url}hierarchy.zarr/${key}`)).arrayBuffer());

/** The array at `path`, opened by URL through .zmetadata, on `session`. */
async function openThrough(session: Session, path: string): Promise<ZarrArray> {
  const { store } = await openLocation(`${session.url}hierarchy.zarr`, { ...httpLocations(http) });
  const root = (await openConsolidated(store, { mode: "r" })) as Group;
  return (await root.getItem(path)) as ZarrArray;
}

/**
 * A session that answers the `count` requests after opening `path` with `action`: how many
 * requests opening takes is counted on a clean session first, so the faults hit chunk reads only.
 */
async function failingChunks(
  path: string,
  action: FaultAction,
  count = 20,
): Promise<{ session: Session; opening: number }> {
  const probe = await pool.open({ files: FIXTURES });
  await openThrough(probe, path);
  const opening = (await probe.log()).requests.length;
  const after = Array.from({ length: count }, (_, n) => opening + 1 + n);
  return { session: await pool.open({ files: FIXTURES, faults: [{ requests: after, action }] }), opening };
}

describe("a missing node", () => {
  it("a 404 for .zarray (and .zgroup) is NodeNotFoundError naming the path", async () => {
    const store = new HttpStore(`${clean.url}hierarchy.zarr`, http);
    const err = await rejection(openArray(store, { path: "sub/missing", mode: "r" }));
    expect(err).toBeInstanceOf(NodeNotFoundError);
    expect(err).toMatchObject({ code: "ZARR_NOT_FOUND", path: "sub/missing", key: "sub/missing/.zarray" });
    const asked = (await clean.log()).requests.filter((r) => r.path.startsWith("/hierarchy.zarr/sub/missing/"));
    expect(asked.map((r) => `${r.status} ${r.path}`)).toContain("404 /hierarchy.zarr/sub/missing/.zarray");
  });

  it("by URL: a node path that is not there, and a whole hierarchy that is not there", async () => {
    const inside = await openLocation(`${clean.url}hierarchy.zarr|zarr2:sub/nothing`, { ...httpLocations(http) });
    const err = await rejection(open(inside.store, { path: inside.path, mode: "r" }));
    expect(err).toBeInstanceOf(NodeNotFoundError);
    expect(err).toMatchObject({ code: "ZARR_NOT_FOUND", path: "sub/nothing" });

    const nowhere = await openLocation(`${clean.url}no-such.zarr`, { ...httpLocations(http) });
    expect(await rejection(open(nowhere.store, { mode: "r" }))).toBeInstanceOf(NodeNotFoundError);
    // No .zmetadata is "not found" (zarr-python: KeyError), as any missing node is.
    const consolidated = await rejection(openConsolidated(nowhere.store, { mode: "r" }));
    expect(consolidated).toBeInstanceOf(NodeNotFoundError);
    expect(consolidated).toMatchObject({ code: "ZARR_NOT_FOUND", key: ".zmetadata", kind: "consolidated metadata" });
  });

  it("a zip that is not there is an HttpStoreError naming its URL", async () => {
    const err = await rejection(openLocation(`${clean.url}no-such.zip`, { ...httpLocations(http), ...zipLocations }));
    expect(err).toBeInstanceOf(HttpStoreError);
    expect(err).toMatchObject({ code: "ZARR_STORE", status: 404, url: `${clean.url}no-such.zip` });
  });
});

describe("a chunk zarr-python wrote, cut short on the server", () => {
  // The codec refuses what it cannot decode (CodecError, with its id); without a compressor the
  // chunk's size is checked (ChunkError). Both name the chunk's key.
  const cases = [
    { path: "lz4", key: "1.1", block: [1, 1], codec: "blosc lz4", error: CodecError, codecId: "blosc" },
    { path: "zstd", key: "1.1.1", block: [1, 1, 1], codec: "zstd", error: CodecError, codecId: "zstd" },
    { path: "sub/zlib", key: "1/1", block: [1, 1], codec: "zlib", error: CodecError, codecId: "zlib" },
    {
      path: "big_endian_i4",
      key: "1.1",
      block: [1, 1],
      codec: "blosc zstd bitshuffle",
      error: CodecError,
      codecId: "blosc",
    },
    { path: "sub/big_endian_f8", key: "1", block: [1], codec: "no compressor", error: ChunkError, codecId: undefined },
  ];
  const cuts = [
    { name: "half of it", keep: (n: number) => Math.floor(n / 2) },
    { name: "all but its last byte", keep: (n: number) => n - 1 },
    { name: "nothing (an empty file)", keep: () => 0 },
  ];
  for (const { path, key, block, codec, error, codecId } of cases) {
    for (const { name, keep } of cuts) {
      it(`${path} (${codec}), ${key} holding ${name}: ${error.name} naming the key`, async () => {
        const whole = await stored(`${path}/${key}`);
        const session = await pool.open({
          files: FIXTURES,
          values: { [`/hierarchy.zarr/${path}/${key}`]: toBase64(whole.slice(0, keep(whole.length))) },
        });
        const z = await openThrough(session, path);
        const err = await rejection(z.blocks.get(block));
        expect(err).toBeInstanceOf(error);
        expect(err).toMatchObject({ code: error === CodecError ? "ZARR_CODEC" : "ZARR_CHUNK", key: `${path}/${key}` });
        if (codecId !== undefined) expect(err).toMatchObject({ codecId });
        expect(err.message).toContain(`${path}/${key}`);
      });
    }
  }
});

describe("a chunk's response cut short, or replaced by an HTML page", () => {
  it("a body shorter than its Content-Length, every time: HttpStoreError naming the key", async () => {
    const { session } = await failingChunks("lz4", { truncate: { bytes: 10, then: "close" } });
    const z = await openThrough(session, "lz4");
    const err = await rejection(z.blocks.get([0, 1]));
    expect(err).toBeInstanceOf(HttpStoreError);
    expect(err).toMatchObject({ code: "ZARR_STORE", key: "lz4/0.1", method: "GET" });
    expect(err.message).toMatch(/failed after 2 attempts/);
  });

  it("cut short once, then whole: the retry reads the right values", async () => {
    const { session: once, opening } = await failingChunks("zstd", { truncate: { bytes: 10, then: "close" } }, 1);
    const z = await openThrough(once, "zstd");
    // Block (0, 0, 0) is [0:4, 0:4, 0:5] of zarr-python's (7, 9, 11) int32 array.
    const bytes = expectedBytes(smallArrays.find((entry) => entry.path === "zstd")!);
    const all = new Int32Array(bytes.slice().buffer);
    const block = Array.from(
      { length: 4 * 4 * 5 },
      (_, n) => all[Math.floor(n / 20) * 99 + (Math.floor(n / 5) % 4) * 11 + (n % 5)],
    );
    expect(Array.from((await z.blocks.get([0, 0, 0])).data as Int32Array)).toEqual(block);
    expect((await once.log()).requests.slice(opening).map((r) => r.path)).toEqual([
      "/hierarchy.zarr/zstd/0.0.0",
      "/hierarchy.zarr/zstd/0.0.0",
    ]);
  });

  const page = "<!doctype html><html><head><title>Not Found</title></head><body><h1>Not Found</h1></body></html>";
  const html: FaultAction = {
    respond: { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: page },
  };

  it("an HTML page with status 200 for a chunk: HttpStoreError naming the key, no values", async () => {
    const { session } = await failingChunks("lz4", html);
    const z = await openThrough(session, "lz4");
    const err = await rejection(z.get());
    expect(err).toBeInstanceOf(HttpStoreError);
    expect(err).toMatchObject({ code: "ZARR_STORE", status: 200, key: expect.stringMatching(/^lz4\/\d\.\d$/) });
    expect(err.message).toContain("HTML page");
  });

  it("with rejectHtml: false the page reaches the codec, which refuses it: CodecError naming the key", async () => {
    const { session } = await failingChunks("sub/zlib", html);
    const { store } = await openLocation(`${session.url}hierarchy.zarr`, {
      ...httpLocations({ ...http, rejectHtml: false }),
    });
    const root = (await openConsolidated(store, { mode: "r" })) as Group;
    const z = (await root.getItem("sub/zlib")) as ZarrArray;
    const err = await rejection(z.blocks.get([2, 0]));
    expect(err).toBeInstanceOf(CodecError);
    expect(err).toMatchObject({ code: "ZARR_CODEC", codecId: "zlib", key: "sub/zlib/2/0" });
  });

  it("an HTML page for the zip itself: HttpStoreError from opening it", async () => {
    const session = await pool.open({ files: FIXTURES, faults: [{ action: html }] });
    const err = await rejection(ZipStore.open(new HttpByteSource(`${session.url}hierarchy.zip`, http)));
    expect(err).toBeInstanceOf(HttpStoreError);
    expect(err.message).toContain("HTML page");
  });
});
