import { describe, expect, it } from "vitest";
import { create, MemoryStore, slice } from "@z/core";

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe("reading and writing selections", () => {
  it("reads back what was written, with missing chunks as the fill value", async () => {
    const z = await create({ shape: [5, 7], chunks: [2, 3], dtype: "<i4", fillValue: -1, compressor: null });
    await z.set([slice(0, 2), slice(0, 3)], { data: new Int32Array(range(6)), shape: [2, 3] });
    const all = await z.get();
    expect(all.shape).toEqual([5, 7]);
    expect(all.strides).toEqual([7, 1]);
    expect(Array.from(all.data as Int32Array).slice(0, 7)).toEqual([0, 1, 2, -1, -1, -1, -1]);
    expect(Array.from(all.data as Int32Array).slice(7, 14)).toEqual([3, 4, 5, -1, -1, -1, -1]);
  });

  it("drops integer-indexed dimensions and wraps negative indices", async () => {
    const z = await create({ shape: [4, 5], chunks: [3, 2], dtype: "<f8", compressor: null, order: "F" });
    await z.set(undefined, { data: new Float64Array(range(20)), shape: [4, 5] });
    const row = await z.get([-1]);
    expect([row.shape, Array.from(row.data as Float64Array)]).toEqual([[5], [15, 16, 17, 18, 19]]);
    const col = await z.get([slice(null, null, 2), 3]);
    expect(Array.from(col.data as Float64Array)).toEqual([3, 13]);
    const one = await z.get([2, -2]);
    expect([one.shape, Array.from(one.data as Float64Array)]).toEqual([[], [13]]);
  });

  it("broadcasts values to the selection as numpy does", async () => {
    const z = await create({ shape: [3, 4], chunks: [2, 2], dtype: "<u2", compressor: null });
    await z.set(undefined, { data: new Uint16Array([1, 2, 3, 4]), shape: [4] });
    expect(Array.from((await z.get()).data as Uint16Array)).toEqual([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]);
    await z.set([slice(0, 3), 1], 9);
    expect(Array.from((await z.get([null, 1])).data as Uint16Array)).toEqual([9, 9, 9]);
  });

  it("refuses a value of the wrong shape before writing anything", async () => {
    const store = new MemoryStore();
    const z = await create({ store, shape: [4], chunks: [2], dtype: "<f4", compressor: null });
    await expect(z.set(undefined, { data: new Float32Array(3), shape: [3] })).rejects.toMatchObject({
      code: "ZARR_VALUE",
    });
    expect(await store.list()).toEqual([".zarray"]);
  });

  it("refuses selections out of bounds", async () => {
    const z = await create({ shape: [4, 4], chunks: [2, 2], compressor: null });
    await expect(z.get([4])).rejects.toMatchObject({ code: "ZARR_BOUNDS" });
    await expect(z.set([0, -5], 1)).rejects.toMatchObject({ code: "ZARR_BOUNDS" });
    await expect(z.get([0, 0, 0])).rejects.toMatchObject({ code: "ZARR_SELECTION" });
  });

  it("keeps 64-bit integers exact as bigint", async () => {
    const z = await create({
      shape: [3],
      chunks: [2],
      dtype: ">u8",
      compressor: null,
      fillValue: 18446744073709551615n,
    });
    await z.set([0], 2n ** 63n + 1n);
    expect(Array.from((await z.get()).data as BigUint64Array)).toEqual([
      2n ** 63n + 1n,
      2n ** 64n - 1n,
      2n ** 64n - 1n,
    ]);
  });

  it("stores big-endian chunks big-endian", async () => {
    const store = new MemoryStore();
    const z = await create({ store, shape: [2], chunks: [2], dtype: ">i2", compressor: null });
    await z.set(undefined, { data: new Int16Array([1, -2]), shape: [2] });
    expect(Array.from((await store.get("0")) as Uint8Array)).toEqual([0, 1, 0xff, 0xfe]);
  });

  it("reads and writes 0-d arrays under the key 0", async () => {
    const store = new MemoryStore();
    const z = await create({ store, shape: [], dtype: "|b1", compressor: null });
    await z.set(undefined, true);
    expect(Array.from((await store.get("0")) as Uint8Array)).toEqual([1]);
    const v = await z.get();
    expect([v.shape, Array.from(v.data as Uint8Array)]).toEqual([[], [1]]);
  });

  it("pads edge chunks with the fill value, as zarr-python", async () => {
    const store = new MemoryStore();
    const z = await create({ store, shape: [3], chunks: [2], dtype: "|u1", compressor: null, fillValue: 7 });
    await z.set(undefined, { data: new Uint8Array([1, 2, 3]), shape: [3] });
    expect(Array.from((await store.get("1")) as Uint8Array)).toEqual([3, 7]);
  });

  it("with writeEmptyChunks false, chunks equal to the fill value are not stored", async () => {
    // zarr-python: b[:] = nan stores nothing; b[0:3] = 1.0 stores '0'; b[0:3] = nan removes it again
    const store = new MemoryStore();
    const b = await create({
      store,
      shape: [6],
      chunks: [3],
      dtype: "<f8",
      compressor: null,
      fillValue: NaN,
      writeEmptyChunks: false,
    });
    await b.set(undefined, NaN);
    expect(await store.list()).toEqual([".zarray"]);
    await b.set([slice(0, 3)], 1);
    expect((await store.list()).sort()).toEqual([".zarray", "0"]);
    await b.set([slice(0, 3)], NaN);
    expect(await store.list()).toEqual([".zarray"]);
  });

  it("honours an AbortSignal", async () => {
    const z = await create({ shape: [100], chunks: [10], compressor: null });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(z.set(undefined, 1, { signal: controller.signal })).rejects.toThrow("stop");
  });
});

it("reads whole-row blosc chunks (decoded straight into the output) and the rest alike, in C and F order", async () => {
  const compressor = { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1 };
  for (const order of ["C", "F"] as const) {
    for (const dtype of ["<i2", ">f8", "<c8"]) {
      // 23 rows of 6: chunks of 4 whole rows (the last one cut short), and one chunk left unwritten.
      const z = await create({
        shape: [23, 6],
        chunks: [4, 6],
        dtype,
        compressor,
        order,
        fillValue: dtype === "<c8" ? [9, 0] : 9,
      });
      const k = dtype === "<c8" ? 2 : 1;
      const values = Float64Array.from({ length: 23 * 6 * k }, (_, i) => (i % 7) - 3 + i / 4);
      const Ctor = dtype === "<i2" ? Int16Array : dtype === ">f8" ? Float64Array : Float32Array;
      const expected = new Ctor(values.length);
      values.forEach((v, i) => {
        const row = Math.floor(i / (6 * k));
        expected[i] = row >= 8 && row < 12 ? (dtype === "<c8" && i % 2 === 1 ? 0 : 9) : v;
      });
      await z.set([slice(0, 8)], { data: expected.slice(0, 8 * 6 * k), shape: [8, 6] });
      await z.set([slice(12, 23)], { data: expected.slice(12 * 6 * k), shape: [11, 6] });
      const what = `${dtype} ${order}`;
      expect(Array.from((await z.get()).data as Int16Array), what).toEqual(Array.from(expected));
      const rows = await z.get([slice(3, 17)]);
      expect(Array.from(rows.data as Int16Array), what).toEqual(Array.from(expected.slice(3 * 6 * k, 17 * 6 * k)));
      const out = new Ctor(14 * 6 * k).fill(-5);
      await z.get([slice(3, 17)], { out });
      expect(Array.from(out), `${what} into out`).toEqual(Array.from(expected.slice(3 * 6 * k, 17 * 6 * k)));
    }
  }
});

describe("resize and append", () => {
  it("deletes chunks outside the new grid and keeps the rest as zarr-python does", async () => {
    const store = new MemoryStore();
    const z = await create({
      store,
      shape: [25, 30],
      chunks: [10, 10],
      dtype: "<i4",
      fillValue: -1,
      compressor: { id: "zlib", level: 1 },
    });
    await z.set(undefined, { data: new Int32Array(range(750)), shape: [25, 30] });
    await z.resize([12, 18]);
    expect((await store.list()).sort()).toEqual([".zarray", "0.0", "0.1", "1.0", "1.1"]);
    expect(Array.from((await z.get([11])).data as Int32Array)).toEqual(range(18).map((j) => 330 + j));
    await z.resize([25, 30]);
    // zarr-python: z[24, :3] -> [-1 -1 -1], z[11, 15:20] -> [345 ... 349] (kept chunk data reappears)
    expect(Array.from((await z.get([24, slice(0, 3)])).data as Int32Array)).toEqual([-1, -1, -1]);
    expect(Array.from((await z.get([11, slice(15, 20)])).data as Int32Array)).toEqual([345, 346, 347, 348, 349]);
  });

  it("appends along an axis, writing only the chunks it touches", async () => {
    const store = new MemoryStore();
    const a = await create({ store, shape: [4], chunks: [3], dtype: "|u1", compressor: null });
    expect(await a.append({ data: new Uint8Array([1, 2, 3]), shape: [3] })).toEqual([7]);
    expect(Array.from((await a.get()).data as Uint8Array)).toEqual([0, 0, 0, 0, 1, 2, 3]);
    expect((await store.list()).sort()).toEqual([".zarray", "1", "2"]);
    await expect(a.append({ data: new Uint8Array(4), shape: [2, 2] })).rejects.toMatchObject({ code: "ZARR_VALUE" });
  });
});

describe("storage statistics", () => {
  it("counts initialized chunks for both separators (zarr-python undercounts '/')", async () => {
    const z = await create({
      shape: [20, 30],
      chunks: [10, 10],
      dtype: "<i4",
      compressor: null,
      dimensionSeparator: "/",
    });
    await z.set(undefined, 1);
    expect([await z.nchunksInitialized(), z.nchunks]).toEqual([6, 6]);
  });

  it("prints info like zarr-python", async () => {
    const z = await create({
      store: new MemoryStore(),
      shape: [100, 100],
      chunks: [10, 10],
      dtype: "<f8",
      compressor: null,
    });
    await z.set([slice(0, 50)], 1);
    expect(await z.info()).toBe(
      [
        "Type               : ZarrArray",
        "Data type          : float64",
        "Shape              : (100, 100)",
        "Chunk shape        : (10, 10)",
        "Order              : C",
        "Read-only          : False",
        "Compressor         : None",
        "Store type         : MemoryStore",
        "No. bytes          : 80000 (78.1K)",
        "No. bytes stored   : 40223 (39.3K)",
        "Storage ratio      : 2.0",
        "Chunks initialized : 50/100",
        "",
      ].join("\n"),
    );
  });
});
