import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodecRegistry, registerCodec, type CodecFactory } from "@z/codecs";
import { blosc } from "@z/codecs-wasm";
import { create, LRUStoreCache, MemoryStore, openArray, slice, type ChunkPool, type PoolBatch } from "@z/core";
import { WorkerPool } from "@z/core/node";
import type { Store, StoreOptions } from "@z/meta";
import { DirectoryStore, TempStore } from "@z/store-fs";

// Two threads, and no minimum: every read and write of two or more chunks goes to the pool.
const pool = new WorkerPool({ size: 2, minBytes: 0 });
const stores: TempStore[] = [];
beforeAll(() => pool.warm());
afterAll(async () => {
  await pool.close();
  await Promise.all(stores.map((s) => s.close()));
});

function tempStore(): TempStore {
  const store = new TempStore();
  stores.push(store);
  return store;
}

const ramp = (n: number, scale = 1): Float64Array =>
  Float64Array.from({ length: n }, (_, i) => Math.sin(i * 0.01) * scale + i);

describe("a worker pool decodes and encodes chunks on other threads", () => {
  it("reads a directory store in the threads: the same values as this thread", async () => {
    const store = tempStore();
    const z = await create({
      store,
      shape: [300, 170],
      chunks: [64, 50],
      dtype: ">f8",
      compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1 },
      order: "F",
      fillValue: Number.NaN,
    });
    await z.set([slice(0, 250), slice(0, 170)], { data: ramp(250 * 170), shape: [250, 170] }, { pool: false });
    expect(pool.storeSpec(store)).toEqual({
      kind: "directory",
      root: store.root,
      fsync: false,
      module: expect.stringMatching(/thread-driver\.(ts|js)$/),
    });

    const alone = await z.get(undefined, { pool: false });
    const run = pool.run.bind(pool);
    let batches = 0;
    pool.run = (batch, transfer) => (batches++, run(batch, transfer));
    const pooled = await z.get(undefined, { pool });
    pool.run = run;
    expect(batches).toBeGreaterThan(0);
    // The result is the caller's own memory, never shared with a thread: dropped, it is freed.
    expect(pooled.data.buffer).toBeInstanceOf(ArrayBuffer);
    expect(Array.from(pooled.data as Float64Array)).toEqual(Array.from(alone.data as Float64Array));
    // Rows 250.. are in chunks never written: NaN, the fill value, also from the threads.
    expect(Number.isNaN((pooled.data as Float64Array)[299 * 170])).toBe(true);

    const window = [slice(10, 290, 3), slice(169, 0, -7)];
    expect(Array.from((await z.get(window, { pool })).data as Float64Array)).toEqual(
      Array.from((await z.get(window, { pool: false })).data as Float64Array),
    );
    const rows = new Int32Array([299, 3, 3, 128, 0]);
    const o1 = await z.getOrthogonalSelection([rows, slice(null)], { pool });
    const o2 = await z.getOrthogonalSelection([rows, slice(null)], { pool: false });
    expect(Array.from(o1.data as Float64Array)).toEqual(Array.from(o2.data as Float64Array));
    const points = [new Int32Array([5, 299, 64, 65]), new Int32Array([169, 0, 49, 50])];
    const v1 = await z.getCoordinateSelection(points, { pool });
    expect(Array.from(v1.data as Float64Array)).toEqual(
      Array.from((await z.getCoordinateSelection(points, { pool: false })).data as Float64Array),
    );
  });

  it("reads chunk files of very different sizes one after another into reused buffers", async () => {
    // Noisy chunks (~100 KiB stored, more than a read buffer starts with) between tiny ones: each thread's read buffer grows,
    // then serves smaller files; every chunk must come back as written.
    const store = tempStore();
    const z = await create({
      store,
      shape: [16, 128, 128],
      chunks: [1, 128, 128],
      dtype: "<u8",
      compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1 },
    });
    let seed = 7;
    const noise = (): bigint => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return BigInt(seed) * BigInt(seed + 1);
    };
    const data = BigUint64Array.from({ length: 16 * 128 * 128 }, (_, i) =>
      Math.floor(i / (128 * 128)) % 3 === 0 ? noise() : BigInt(i % 5),
    );
    await z.set(null, { data, shape: [16, 128, 128] }, { pool: false });
    const sizes = await Promise.all(Array.from({ length: 16 }, async (_, i) => (await store.get(`${i}.0.0`))!.length));
    expect(Math.max(...sizes)).toBeGreaterThan(1 << 16);
    expect(Math.min(...sizes)).toBeLessThan(1 << 12);
    for (let round = 0; round < 2; round++) {
      const got = await z.get(undefined, { pool });
      expect((got.data as BigUint64Array).every((v, i) => v === data[i])).toBe(true);
    }
  });

  it("sends the threads a store only when its threadStore() says how: a DirectoryStore reading and writing as its own", async () => {
    const plain = tempStore();
    expect(pool.storeSpec(plain)).toEqual({
      kind: "directory",
      root: plain.root,
      fsync: false,
      module: expect.stringMatching(/thread-driver\.(ts|js)$/),
    });
    // A subclass that reads otherwise, a file system of the caller's, a store wrapping a directory:
    // a thread opening the directory would not read what they read.
    class Decrypting extends DirectoryStore {
      override async get(key: string, options?: StoreOptions): Promise<Uint8Array | undefined> {
        return super.get(key, options);
      }
    }
    expect(pool.storeSpec(new Decrypting(plain.root))).toBeUndefined();
    expect(pool.storeSpec(new DirectoryStore(plain.root, { fs: {} }))).toBeUndefined();
    expect(pool.storeSpec(new LRUStoreCache(plain, null))).toBeUndefined();
    expect(pool.storeSpec({ get: plain.get.bind(plain), threadStore: () => undefined })).toBeUndefined();

    // Any store may say so (the contract is @z/meta's, not a class): the threads then read the
    // directory themselves, and the caller sends keys only.
    const z = await create({ store: plain, shape: [100], chunks: [10], dtype: "<i4", compressor: null });
    await z.set(null, { data: Int32Array.from({ length: 100 }, (_, i) => i * 3), shape: [100] }, { pool: false });
    const mine: Store = {
      get: (key, options) => plain.get(key, options),
      threadStore: () => ({ kind: "directory", root: plain.root, fsync: true }),
    };
    expect(pool.storeSpec(mine)).toEqual({ kind: "directory", root: plain.root, fsync: true });
    const run = pool.run.bind(pool);
    const sent: PoolBatch[] = [];
    pool.run = (batch, transfer) => (sent.push(batch), run(batch, transfer));
    try {
      const read = await (await openArray(mine, { mode: "r" })).get(undefined, { pool });
      expect(Array.from(read.data as Int32Array)).toEqual(Array.from({ length: 100 }, (_, i) => i * 3));
    } finally {
      pool.run = run;
    }
    expect(sent.length).toBeGreaterThan(0);
    for (const batch of sent) {
      expect(batch.store).toEqual({ kind: "directory", root: plain.root, fsync: true });
      if (batch.op === "read") expect(batch.items.every((item) => item.bytes === undefined)).toBe(true);
    }
  });

  it("reads a store the threads cannot open by handing them the chunk bytes", async () => {
    const store = new MemoryStore();
    expect(pool.storeSpec(store)).toBeUndefined();
    const z = await create({
      store,
      shape: [1000],
      chunks: [64],
      dtype: "<c8",
      compressor: { id: "zstd", level: 3 },
      fillValue: [1, -1],
    });
    await z.set(slice(0, 900), { data: new Float32Array(ramp(1800)), shape: [900] }, { pool: false });
    const pooled = await z.get(undefined, { pool });
    expect(Array.from(pooled.data as Float32Array)).toEqual(
      Array.from((await z.get(undefined, { pool: false })).data as Float32Array),
    );
    expect(Array.from((pooled.data as Float32Array).subarray(1998))).toEqual([1, -1]);
  });

  it("hands the threads bytes a store says nothing else keeps without copying them, and copies the others", async () => {
    const memory = new MemoryStore();
    const z = await create({
      store: memory,
      shape: [2000],
      chunks: [100],
      dtype: "<f8",
      compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1 },
    });
    await z.set(null, { data: ramp(2000), shape: [2000] }, { pool: false });
    for (const freshValues of [true, false]) {
      const handed: Uint8Array[] = [];
      // A store whose values are new copies each time (as an HTTP store's response bodies).
      const store = {
        freshValues,
        get: async (key: string) => {
          const value = (await memory.get(key))?.slice();
          if (value !== undefined && !key.includes(".z")) handed.push(value);
          return value;
        },
      };
      const pooled = await (await openArray(store, { mode: "r" })).get(undefined, { pool });
      expect(Array.from(pooled.data as Float64Array)).toEqual(Array.from(ramp(2000)));
      const detached = handed.filter((v) => v.byteLength === 0).length;
      if (freshValues) expect(detached).toBeGreaterThan(0);
      else expect(detached).toBe(0);
    }
  });

  it("writes through the threads what this thread would write, byte for byte", async () => {
    const [a, b] = [tempStore(), new MemoryStore()];
    const options = {
      shape: [200, 90],
      chunks: [32, 32],
      dtype: "<i2",
      compressor: { id: "zlib", level: 1 },
      fillValue: 7,
    };
    const za = await create({ store: a, ...options });
    const zb = await create({ store: b, ...options });
    const data = Int16Array.from({ length: 150 * 90 }, (_, i) => (i * 37) % 1000);
    await za.set([slice(0, 150)], { data, shape: [150, 90] }, { pool });
    await zb.set([slice(0, 150)], { data, shape: [150, 90] }, { pool: false });
    const keys = (await b.list()).sort();
    expect((await a.list()).sort()).toEqual(keys);
    for (const key of keys) expect(await a.get(key), key).toEqual(await b.get(key));
    // A partial write reads the chunk first; the threads then encode the merged chunk.
    await za.set([slice(5, 40), slice(80, 90)], 3, { pool });
    await zb.set([slice(5, 40), slice(80, 90)], 3, { pool: false });
    for (const key of keys) expect(await a.get(key), key).toEqual(await b.get(key));
  });

  it("deletes chunks that became all fill value when empty chunks are not written", async () => {
    const store = tempStore();
    const z = await create({ store, shape: [128], chunks: [32], dtype: "<u1", compressor: null, fillValue: 0 });
    await z.set(null, 5, { pool });
    expect((await store.list()).filter((k) => k !== ".zarray")).toHaveLength(4);
    const sparse = await openArray(store, { mode: "r+", writeEmptyChunks: false });
    await sparse.set(slice(0, 64), 0, { pool });
    expect((await store.list()).filter((k) => k !== ".zarray").sort()).toEqual(["2", "3"]);
  });

  it("reports a corrupt chunk as this thread would: a typed error naming the key", async () => {
    const store = tempStore();
    const z = await create({
      store,
      shape: [64, 64],
      chunks: [16, 16],
      dtype: "<f4",
      compressor: { id: "blosc", cname: "zstd", clevel: 3, shuffle: 2 },
    });
    await z.set(null, 1.5, { pool: false });
    const chunk = (await store.get("1.2"))!;
    await store.set("1.2", chunk.subarray(0, chunk.length - 9));
    const alone = await z.get(undefined, { pool: false }).catch((e: unknown) => e);
    const pooled = await z.get(undefined, { pool }).catch((e: unknown) => e);
    expect(pooled).toBeInstanceOf(Error);
    expect(pooled).toMatchObject({
      name: (alone as Error).name,
      code: "ZARR_CODEC",
      key: "1.2",
      message: (alone as Error).message,
    });
  });

  it("stops at an aborted signal and rejects with its reason", async () => {
    const store = tempStore();
    const z = await create({ store, shape: [4096], chunks: [16], dtype: "<f8", compressor: { id: "zlib", level: 9 } });
    await z.set(null, { data: ramp(4096), shape: [4096] }, { pool: false });
    const controller = new AbortController();
    const reason = new Error("enough");
    let seen = 0;
    const read = z.get(undefined, { pool, signal: controller.signal, progress: (done) => void (seen = done) });
    setTimeout(() => controller.abort(reason), 0);
    await expect(read).rejects.toBe(reason);
    expect(seen).toBeLessThan(256);
  });

  it("refuses a pool's answer to a read that lacks the decoded chunks, rather than leave the result unfilled", async () => {
    const store = tempStore();
    const z = await create({
      store,
      shape: [64, 64],
      chunks: [16, 16],
      dtype: "<i4",
      compressor: { id: "zlib", level: 1 },
    });
    await z.set(null, 7, { pool: false });
    // A pool written for the old protocol, whose threads wrote into a shared output and said only "ok".
    const old: ChunkPool = { size: 1, minBytes: 0, ready: 1, run: async () => ({ ok: true }), close: async () => {} };
    await expect(z.get(undefined, { pool: old })).rejects.toMatchObject({
      code: "ZARR_POOL",
      message: expect.stringContaining("with no decoded chunks"),
    });
  });

  it("keeps arrays with codecs of their own on this thread", async () => {
    const reversed: CodecFactory = {
      id: "test-reverse",
      create: () => ({
        id: "test-reverse",
        encode: (data) => (data as Uint8Array).slice().reverse(),
        decode: (data) => (data as Uint8Array).slice().reverse(),
        toJSON: () => ({ id: "test-reverse" }),
      }),
    };
    registerCodec("test-reverse", () => reversed);
    const store = tempStore();
    const z = await create({ store, shape: [64], chunks: [8], dtype: "<i4", compressor: { id: "test-reverse" } });
    await z.set(null, { data: Int32Array.from({ length: 64 }, (_, i) => i), shape: [64] }, { pool });
    expect(Array.from((await z.get(undefined, { pool })).data as Int32Array)).toEqual(
      Array.from({ length: 64 }, (_, i) => i),
    );
  });

  it("sends arrays to the pool when the application registered the built-in codec itself", async () => {
    // As an application that registers @z/codecs-wasm's factories under their ids: the same codec.
    const registry = new CodecRegistry([["blosc", () => blosc]]);
    const store = tempStore();
    const options = {
      shape: [64, 64],
      chunks: [8, 8],
      dtype: "<i2",
      compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1 },
    };
    const z = await create({ store, ...options, registry });
    const data = Int16Array.from({ length: 64 * 64 }, (_, i) => i - 2000);
    await z.set(null, { data, shape: [64, 64] }, { pool: false });
    const run = pool.run.bind(pool);
    let batches = 0;
    pool.run = (batch, transfer) => (batches++, run(batch, transfer));
    try {
      expect(Array.from((await z.get(undefined, { pool })).data as Int16Array)).toEqual(Array.from(data));
      expect(batches).toBeGreaterThan(0);
    } finally {
      pool.run = run;
    }
  });
});

describe("Node's @z/core", () => {
  it("has a default pool of worker threads, one fewer than the cores, that lets the process exit", async () => {
    // The built package as Node loads it (the `node` export condition), in a process of its own.
    const { execFileSync } = await import("node:child_process");
    const { availableParallelism } = await import("node:os");
    const code = `
      import { defaultChunkPool, create, MemoryStore } from "@z/core";
      const pool = defaultChunkPool();
      const z = await create({ store: new MemoryStore(), shape: [4096, 1024], chunks: [1024, 1024], dtype: "<f4" });
      await z.set(null, 2.5);
      let batches = 0;
      if (pool) {
        await pool.warm();
        const run = pool.run.bind(pool);
        pool.run = (batch, transfer) => (batches++, run(batch, transfer));
      }
      const all = await z.get();
      console.log(JSON.stringify({ size: pool?.size ?? 0, pooled: batches > 0, value: all.data[4194303] }));
    `;
    const cwd = new URL("..", import.meta.url);
    // Under -e with --input-type and a V8 flag: threads must leave the first out and may not pass the second.
    const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", code], {
      cwd,
      encoding: "utf8",
      timeout: 30_000,
    });
    const cores = availableParallelism();
    expect(JSON.parse(out)).toEqual({ size: cores > 1 ? cores - 1 : 0, pooled: cores > 1, value: 2.5 });
  });
});
