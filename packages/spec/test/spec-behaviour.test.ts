/**
 * What a spec's behaviour members do to the array `openSpec` opens: missing chunks read as errors
 * (`fill_missing_data_reads: false`), chunks equal to the fill value stored or not
 * (`store_data_equal_to_fill_value`), metadata assumed (`assume_metadata`,
 * `assume_cached_metadata`) or stored under another key (`metadata_key`), fields as views, the
 * context's cache pool (`recheck_cached_data`) and `data_copy_concurrency`. The same behaviours are
 * checked against TensorStore itself in spec-tensorstore-live.test.ts. The zarr3 driver's specs do the same
 * to v3 arrays, and take zarr3 URLs.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MissingChunkError, ReadOnlyError, slice, ZarrArray } from "@z/core";
import { WorkerPool } from "@z/core/node";
import { SpecContext, type SpecFieldView, specZarray, specZarrJson, type SpecArray } from "@z/spec";
import { openSpec } from "@z/spec/node";
import type { JsonValue, Store } from "@z/meta";
import { openSession, type Session } from "../../../scripts/test-server/client.js";
import { bigArray, FIXTURES, plainValues, readSelection, smallArrays } from "../../core/test/http-fixtures.js";

const memoryOf = (context: SpecContext): Store => context.resource("memory_key_value_store", undefined, "kvstore");
const asArray = (a: SpecArray): ZarrArray => {
  expect(a).toBeInstanceOf(ZarrArray);
  return a as ZarrArray;
};
const spec = (extra: Record<string, JsonValue>): JsonValue => ({
  driver: "zarr2",
  kvstore: { driver: "memory", path: "a/" },
  ...extra,
});
const meta2x2 = { shape: [4, 4], chunks: [2, 2], dtype: "<i4", fill_value: 7, compressor: null };

let dir: string;
const pool = new WorkerPool({ size: 2, minBytes: 0 });
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "z-spec-"));
  await pool.warm();
}, 60_000);
afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});

describe("fill_missing_data_reads: false", () => {
  it("fails a read that touches a missing chunk, naming its key, on every read path", async () => {
    const context = new SpecContext();
    const z = asArray(await openSpec(spec({ create: true, metadata: meta2x2 }), { context }));
    await z.set([slice(0, 2), slice(0, 2)], 1); // chunk 0.0 only
    const strict = asArray(await openSpec(spec({ fill_missing_data_reads: false }), { context }));
    expect(Array.from((await strict.get([slice(0, 2), slice(0, 2)])).data as Int32Array)).toEqual([1, 1, 1, 1]);
    for (const read of [
      () => strict.get(),
      () => strict.get([1, 2]),
      () => strict.get(undefined, { pool }), // the pool's threads report the chunks they found missing
      () =>
        strict.oindex.get([
          [0, 3],
          [0, 3],
        ]),
    ]) {
      const error = await read().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MissingChunkError);
      expect((error as MissingChunkError).key).toMatch(/^a\/[01]\.[01]$/);
      expect((error as MissingChunkError).code).toBe("ZARR_MISSING_CHUNK");
    }
    // The default reads the fill value there.
    const lenient = asArray(await openSpec(spec({}), { context }));
    expect(Array.from((await lenient.get([1, slice(0, 4)])).data as Int32Array)).toEqual([1, 1, 7, 7]);
  });

  it("still writes part of a missing chunk over the fill value", async () => {
    const context = new SpecContext();
    await openSpec(spec({ create: true, metadata: meta2x2 }), { context });
    const strict = asArray(await openSpec(spec({ fill_missing_data_reads: false }), { context }));
    await strict.set([3, 3], 5);
    expect(Array.from((await strict.get([slice(2, 4), slice(2, 4)])).data as Int32Array)).toEqual([7, 7, 7, 5]);
  });

  it("fails reads of chunks stored raw in a directory (read straight into the result)", async () => {
    const path = join(dir, "raw");
    const big = { shape: [512, 512], chunks: [256, 512], dtype: "<u4", compressor: null, fill_value: 0 };
    const file = { driver: "zarr2", kvstore: { driver: "file", path } };
    const z = asArray(await openSpec({ ...file, create: true, metadata: big }));
    await z.set([slice(0, 256)], 3);
    const strict = asArray(await openSpec({ ...file, fill_missing_data_reads: false }, {}));
    expect((await strict.get([slice(0, 256)])).data[0]).toBe(3);
    // A whole chunk is read straight into the result; part of one the ordinary way.
    for (const rows of [slice(256, 512), slice(200, 300)])
      await expect(strict.get([rows])).rejects.toMatchObject({ code: "ZARR_MISSING_CHUNK", key: "1.0" });
  });
});

describe("store_data_equal_to_fill_value", () => {
  const written = async (extra: Record<string, JsonValue>, fill: JsonValue): Promise<string[]> => {
    const context = new SpecContext();
    const z = asArray(
      await openSpec(spec({ create: true, metadata: { ...meta2x2, fill_value: fill }, ...extra }), { context }),
    );
    await z.set([slice(0, 2), slice(0, 2)], (fill as number) ?? 0); // a chunk equal to the fill value
    await z.set([slice(2, 4), slice(2, 4)], 9);
    return (await memoryOf(context).list!("a/")).filter((k) => !k.endsWith(".zarray")).sort();
  };

  it("leaves chunks equal to the fill value unstored by default, stores them when asked", async () => {
    expect(await written({}, 7)).toEqual(["a/1.1"]);
    expect(await written({ store_data_equal_to_fill_value: true }, 7)).toEqual(["a/0.0", "a/1.1"]);
  });

  it("stores zero chunks when there is no fill value (TensorStore reads it as 0, but keeps written zeros)", async () => {
    expect(await written({}, null)).toEqual(["a/0.0", "a/1.1"]);
  });
});

describe("assume_metadata and assume_cached_metadata", () => {
  it("opens without reading or writing .zarray, and refuses to resize", async () => {
    const context = new SpecContext();
    const z = asArray(await openSpec(spec({ assume_metadata: true, metadata: meta2x2 }), { context }));
    expect(await memoryOf(context).list!("")).toEqual([]);
    expect(Array.from((await z.get([0])).data as Int32Array)).toEqual([7, 7, 7, 7]);
    await z.set([0, 0], 1);
    expect(await memoryOf(context).list!("")).toEqual(["a/0.0"]);
    await expect(z.resize([8, 8])).rejects.toBeInstanceOf(ReadOnlyError);
  });

  it("ignores what is stored: the assumed metadata wins (the documented risk)", async () => {
    const context = new SpecContext();
    await openSpec(spec({ create: true, metadata: { ...meta2x2, fill_value: 1 } }), { context });
    const z = asArray(await openSpec(spec({ assume_metadata: true, metadata: meta2x2 }), { context }));
    expect(z.fillValue).toBe(7);
  });

  it("with assume_cached_metadata resizes, writing the metadata", async () => {
    const context = new SpecContext();
    const z = asArray(await openSpec(spec({ assume_cached_metadata: true, metadata: meta2x2 }), { context }));
    await z.resize([6, 4]);
    expect(JSON.parse(new TextDecoder().decode(await memoryOf(context).get("a/.zarray"))).shape).toEqual([6, 4]);
  });
});

describe("metadata_key", () => {
  it("keeps the metadata under another key, there for resizes too", async () => {
    const context = new SpecContext();
    const z = asArray(await openSpec(spec({ create: true, metadata: meta2x2, metadata_key: "zarray" }), { context }));
    expect(await memoryOf(context).list!("")).toEqual(["a/zarray"]);
    await z.resize([2, 2]);
    expect(JSON.parse(new TextDecoder().decode(await memoryOf(context).get("a/zarray"))).shape).toEqual([2, 2]);
    await expect(openSpec(spec({}), { context })).rejects.toMatchObject({ code: "ZARR_NOT_FOUND", key: "a/.zarray" });
    expect((await openSpec(spec({ metadata_key: "zarray" }), { context })).shape).toEqual([2, 2]);
  });
});

describe("fields and bytes as views", () => {
  const rec = {
    shape: [3, 4],
    chunks: [2, 2],
    dtype: [
      ["x", "<u2", [2, 3]],
      ["y", "<f4", [5]],
    ],
    fill_value: "AQACAAMABAAFAAYAAAAgQQAAMEEAAEBBAABQQQAAYEE=",
  };

  it("reads a field's fill value with its subarray dimensions appended", async () => {
    const context = new SpecContext();
    const x = await openSpec(spec({ create: true, metadata: rec, field: "x" }), { context });
    expect(x).not.toBeInstanceOf(ZarrArray); // a SpecFieldView
    expect(x.shape).toEqual([3, 4, 2, 3]);
    const one = await (x as SpecFieldView).get([0, 0]);
    expect(one.shape).toEqual([2, 3]);
    expect(Array.from(one.data as Uint16Array)).toEqual([1, 2, 3, 4, 5, 6]);
    const y = (await openSpec(spec({ field: "y" }), { context })) as SpecFieldView;
    expect(Array.from((await y.get([2, 3, slice(1, 3)])).data as Float32Array)).toEqual([11, 12]);
  });

  it("writes part of a field's subarray, keeping the rest and the other field", async () => {
    const context = new SpecContext();
    const x = (await openSpec(spec({ create: true, metadata: rec, field: "x" }), { context })) as SpecFieldView;
    await x.set([1, 2, 1, slice(null)], { data: Uint16Array.of(40, 50, 60), shape: [3] });
    await x.set([0, 0, 0, 0], 99);
    expect(Array.from((await x.get([1, 2])).data as Uint16Array)).toEqual([1, 2, 3, 40, 50, 60]);
    expect(Array.from((await x.get([0, 0])).data as Uint16Array)).toEqual([99, 2, 3, 4, 5, 6]);
    const y = (await openSpec(spec({ field: "y" }), { context })) as SpecFieldView;
    expect(Array.from((await y.get([1, 2])).data as Float32Array)).toEqual([10, 11, 12, 13, 14]);
  });

  it("gives |S data as characters in an innermost dimension, and any dtype's bytes with open_as_void", async () => {
    const context = new SpecContext();
    const s = (await openSpec(
      spec({ create: true, metadata: { shape: [4], chunks: [3], dtype: "|S3", fill_value: "YWJj" } }),
      { context },
    )) as SpecFieldView;
    expect([s.shape, s.tsDtype]).toEqual([[4, 3], "char"]);
    await s.set([1, 0], 0x7a);
    expect(new TextDecoder().decode((await s.get([slice(0, 2)])).data as Uint8Array)).toBe("abczbc");
    const raw = (await openSpec(spec({ open_as_void: true }), { context })) as SpecFieldView;
    expect([raw.shape, raw.tsDtype]).toEqual([[4, 3], "byte"]);
    expect(Array.from((await raw.get([1])).data as Uint8Array)).toEqual([0x7a, 0x62, 0x63]);
  });
});

describe("cache_pool and recheck_cached_data", () => {
  const cached = (recheck: JsonValue): JsonValue =>
    spec({ cache_pool: "cache_pool", recheck_cached_data: recheck, fill_missing_data_reads: true });

  /** An array whose chunk 0.0 holds 1, then a writer behind the cache's back changes it to 2. */
  async function changedBehind(context: SpecContext, recheck: JsonValue): Promise<ZarrArray> {
    const z = asArray(await openSpec(spec({ create: true, metadata: meta2x2 }), { context }));
    await z.set([slice(0, 2), slice(0, 2)], 1);
    const reader = asArray(await openSpec(cached(recheck), { context }));
    expect((await reader.get([0, 0])).data[0]).toBe(1); // now cached
    await z.set([slice(0, 2), slice(0, 2)], 2); // through a store without the cache
    return reader;
  }

  it("serves cached chunks without rechecking under false, and rechecks under true", async () => {
    const context = new SpecContext({ cache_pool: { total_bytes_limit: 1 << 20 } });
    expect((await (await changedBehind(context, false)).get([0, 0])).data[0]).toBe(1);
    const again = new SpecContext({ cache_pool: { total_bytes_limit: 1 << 20 } });
    expect((await (await changedBehind(again, true)).get([0, 0])).data[0]).toBe(2);
  });

  it('rechecks under "open" what was cached before the array was opened', async () => {
    // The cache's times are the wall clock's milliseconds: a clock that moves only when told, so
    // that "before" is never the same millisecond on a fast machine nor a step back on another.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-01-01T00:00:00Z") });
    try {
      const context = new SpecContext({ cache_pool: { total_bytes_limit: 1 << 20 } });
      const reader = await changedBehind(context, "open");
      expect((await reader.get([0, 0])).data[0]).toBe(1); // cached after it was opened
      vi.setSystemTime(Date.now() + 1);
      const later = asArray(await openSpec(cached("open"), { context }));
      expect((await later.get([0, 0])).data[0]).toBe(2); // cached before this one was opened
    } finally {
      vi.useRealTimers();
    }
  });

  it("caches nothing without a byte limit (TensorStore's default pool)", async () => {
    const context = new SpecContext();
    expect((await (await changedBehind(context, false)).get([0, 0])).data[0]).toBe(2);
  });

  it("shares one pool between the arrays of one context, bounded by total_bytes_limit", async () => {
    const context = new SpecContext({ cache_pool: { total_bytes_limit: 100 } });
    const z = asArray(
      await openSpec(spec({ create: true, metadata: meta2x2, recheck_cached_data: false }), { context }),
    );
    await z.set(undefined, 3);
    const pool = context.resource("cache_pool", undefined, "cache_pool");
    expect(pool.size).toBeGreaterThan(0);
    expect(pool.size).toBeLessThanOrEqual(100);
    const other = asArray(await openSpec(cached(false), { context }));
    expect(Array.from((await other.get([0])).data as Int32Array)).toEqual([3, 3, 3, 3]);
  });
});

describe("data_copy_concurrency", () => {
  it("bounds the chunks in flight", async () => {
    const context = new SpecContext();
    const z = asArray(
      await openSpec(
        spec({ create: true, metadata: { ...meta2x2, chunks: [1, 1] }, data_copy_concurrency: { limit: 2 } }),
        {
          context,
        },
      ),
    );
    const store = z.store;
    let inFlight = 0;
    let most = 0;
    const get = store.get.bind(store);
    store.get = async (key, options) => {
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      try {
        return await get(key, options);
      } finally {
        inFlight--;
      }
    };
    await z.get();
    expect(most).toBe(2);
  });
});

describe("specZarray and URLs", () => {
  it("gives the .zarray TensorStore writes, and opens TensorStore URLs", async () => {
    const text = await specZarray({
      driver: "zarr",
      kvstore: "memory://x/",
      create: true,
      dtype: "float32",
      schema: { domain: { shape: [5] }, fill_value: 0.1 },
    });
    expect(text).toBe(
      '{"chunks":[5],"compressor":{"blocksize":0,"clevel":5,"cname":"lz4","id":"blosc","shuffle":-1},"dimension_separator":".","dtype":"<f4","fill_value":0.10000000149011612,"filters":null,"order":"C","shape":[5],"zarr_format":2}',
    );
    const path = join(dir, "url.zarr");
    await openSpec({ driver: "zarr2", kvstore: { driver: "file", path }, create: true, metadata: meta2x2 });
    expect(await readdir(path)).toEqual([".zarray"]);
    const z = asArray(await openSpec(`file://${path}|zarr2:`));
    expect(z.shape).toEqual([4, 4]);
  });
});

describe("kvstores over HTTP and in zip files", () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession({ files: FIXTURES });
  });
  afterAll(() => session.end());

  const lz4 = smallArrays.find((a) => a.path === "lz4")!;
  const check = async (a: SpecArray, entry: typeof lz4): Promise<void> => {
    const z = asArray(a);
    expect([...z.shape]).toEqual(entry.shape);
    const selection = entry.selections[0]!;
    expect(plainValues(await readSelection(z, selection))).toEqual(selection.values);
  };

  it("reads arrays zarr-python wrote from an http kvstore, given as a spec or a URL", async () => {
    await check(
      await openSpec({
        driver: "zarr2",
        kvstore: { driver: "http", base_url: session.url, path: "hierarchy.zarr/lz4" },
      }),
      lz4,
    );
    await check(await openSpec(`${session.url}hierarchy.zarr|zarr2:lz4`), lz4);
    // Over HTTP, missing chunks are errors too when asked.
    const sparse = smallArrays.find((a) => a.path === "sparse")!;
    const strict = await openSpec({
      driver: "zarr2",
      kvstore: `${session.url}hierarchy.zarr/sparse/`,
      fill_missing_data_reads: false,
    });
    expect(sparse.chunkKeys.length).toBeLessThan(asArray(strict).nchunks);
    await expect(strict.get()).rejects.toBeInstanceOf(MissingChunkError);
  });

  it("reads from a zip kvstore over HTTP and in a local file, read-only as TensorStore's", async () => {
    const big = {
      driver: "zarr2",
      kvstore: { driver: "zip", base: { driver: "http", base_url: session.url, path: "hierarchy.zip" }, path: "big" },
    };
    await check(await openSpec(big), bigArray);
    await check(await openSpec(`${session.url}hierarchy.zip|zip:big/|zarr2:`), bigArray);
    const file = new URL("../../core/test/fixtures/http/hierarchy.zip", import.meta.url).pathname;
    const local = { driver: "zarr2", kvstore: { driver: "zip", base: { driver: "file", path: file }, path: "lz4/" } };
    await check(await openSpec(local), lz4);
    await expect(
      openSpec({ ...local, kvstore: { ...local.kvstore, path: "new/" }, create: true, metadata: meta2x2 }),
    ).rejects.toMatchObject({ code: "ZARR_SPEC", member: "kvstore" });
  });

  it("names what a browser build must be given to open a kvstore", async () => {
    const { openSpec: openInBrowser } = await import("@z/spec");
    await expect(openInBrowser({ driver: "zarr2", kvstore: { driver: "file", path: "/x/" } })).rejects.toThrow(
      /needs openDirectory.*fsLocations from @z\/store-fs/,
    );
  });
});

describe("recheck_cached_metadata", () => {
  it("refuses revalidating metadata before every read, saying why", async () => {
    for (const recheck of [true, 1700000000]) {
      await expect(
        openSpec(spec({ create: true, metadata: meta2x2, recheck_cached_metadata: recheck })),
      ).rejects.toMatchObject({ code: "ZARR_SPEC_UNSUPPORTED", member: "recheck_cached_metadata" });
    }
    const context = new SpecContext();
    await openSpec(spec({ create: true, metadata: meta2x2, recheck_cached_metadata: false }), { context });
    expect((await openSpec(spec({ recheck_cached_metadata: "open" }), { context })).shape).toEqual([4, 4]);
  });
});

describe("zarr3 specs", () => {
  const v3 = (extra: Record<string, JsonValue>): JsonValue => ({
    driver: "zarr3",
    kvstore: { driver: "memory", path: "a/" },
    ...extra,
  });
  const meta3 = {
    shape: [4, 4],
    data_type: "int32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 2] } },
    fill_value: 7,
  };

  it("gives the zarr.json TensorStore writes, and opens zarr3 TensorStore URLs, with a path in the hierarchy", async () => {
    const text = await specZarrJson({
      driver: "zarr3",
      kvstore: "memory://x/",
      create: true,
      dtype: "float32",
      schema: { domain: { shape: [5] }, fill_value: 0.1, codec: { driver: "zarr3", codecs: ["blosc"] } },
    });
    expect(text).toBe(
      '{"chunk_grid":{"configuration":{"chunk_shape":[5]},"name":"regular"},"chunk_key_encoding":{"name":"default"},"codecs":[{"configuration":{"endian":"little"},"name":"bytes"},{"configuration":{"blocksize":0,"clevel":5,"cname":"lz4","shuffle":"shuffle","typesize":4},"name":"blosc"}],"data_type":"float32","fill_value":0.10000000149011612,"node_type":"array","shape":[5],"zarr_format":3}',
    );
    const path = join(dir, "url3.zarr");
    await openSpec({
      driver: "zarr3",
      kvstore: { driver: "file", path: `${path}/` },
      path: "g/x",
      create: true,
      metadata: meta3,
    });
    expect(await readdir(join(path, "g/x"))).toEqual(["zarr.json"]);
    const z = asArray(await openSpec(`file://${path}|zarr3:g/x`));
    expect([z.zarrFormat, z.shape, z.fillValue]).toEqual([3, [4, 4], 7]);
    await expect(openSpec(`file://${path}|zarr3:g/x?a=1`)).rejects.toThrow(/Query string not supported/);
  });

  it("refuses the zarr2 driver's own members", async () => {
    await expect(openSpec(v3({ create: true, metadata: meta3, metadata_key: "m" }))).rejects.toThrow(
      /extra members: "metadata_key"/,
    );
    await expect(openSpec(v3({ create: true, metadata: meta3, key_encoding: "/" }))).rejects.toThrow(
      /extra members: "key_encoding"/,
    );
  });

  it("with assume_metadata opens without reading or writing zarr.json, and refuses to resize", async () => {
    const context = new SpecContext();
    const z = asArray(await openSpec(v3({ assume_metadata: true, metadata: meta3 }), { context }));
    expect(await memoryOf(context).list!("")).toEqual([]);
    expect(Array.from((await z.get([0])).data as Int32Array)).toEqual([7, 7, 7, 7]);
    await z.set([0, 0], 1);
    expect(await memoryOf(context).list!("")).toEqual(["a/c/0/0"]);
    await expect(z.resize([8, 8])).rejects.toBeInstanceOf(ReadOnlyError);
  });

  it("with assume_cached_metadata resizes, writing zarr.json", async () => {
    const context = new SpecContext();
    const z = asArray(await openSpec(v3({ assume_cached_metadata: true, metadata: meta3 }), { context }));
    await z.resize([6, 4]);
    expect(JSON.parse(new TextDecoder().decode(await memoryOf(context).get("a/zarr.json"))).shape).toEqual([6, 4]);
  });

  it("fails reads touching a missing chunk under fill_missing_data_reads: false, and leaves fill chunks unstored", async () => {
    const context = new SpecContext();
    const z = asArray(
      await openSpec(v3({ create: true, metadata: meta3, fill_missing_data_reads: false }), { context }),
    );
    await z.set([slice(0, 2), slice(0, 2)], 1);
    await z.set([slice(2, 4), slice(0, 2)], 7);
    expect((await memoryOf(context).list!("")).sort()).toEqual(["a/c/0/0", "a/zarr.json"]);
    expect(Array.from((await z.get([slice(0, 2), slice(0, 2)])).data as Int32Array)).toEqual([1, 1, 1, 1]);
    await expect(z.get([slice(0, 4), slice(0, 2)])).rejects.toBeInstanceOf(MissingChunkError);
  });
});
