import { describe, expect, it } from "vitest";
import { array, create, slice } from "@z/core";

describe("reading into a caller's buffer", () => {
  it("fills out, including the fill value where chunks are missing", async () => {
    const z = await create({ shape: [6], chunks: [2], dtype: "<f4", fillValue: -1, compressor: null });
    await z.set([slice(0, 2)], 5);
    const out = new Float32Array(6).fill(99);
    const r = await z.get(undefined, { out });
    expect(r.data).toBe(out);
    expect(Array.from(out)).toEqual([5, 5, -1, -1, -1, -1]);
  });

  it("refuses a buffer of the wrong type or size", async () => {
    const z = await create({ shape: [4], chunks: [2], dtype: "<f4", compressor: null });
    await expect(z.get(undefined, { out: new Float64Array(4) })).rejects.toMatchObject({ code: "ZARR_VALUE" });
    await expect(z.get(undefined, { out: new Float32Array(3) })).rejects.toMatchObject({ code: "ZARR_VALUE" });
  });
});

describe("iteration, as zarr-python's islice", () => {
  it("yields the rows of the first dimension, block by block", async () => {
    // zarr.array(np.arange(20, dtype='<i2').reshape(10, 2), chunks=(3, 2)).islice(2, 8)
    const z = await array(
      { data: Int16Array.from({ length: 20 }, (_, i) => i), shape: [10, 2] },
      { chunks: [3, 2], compressor: null },
    );
    const rows: number[][] = [];
    for await (const row of z.islice(2, 8)) rows.push(Array.from(row.data as Int16Array));
    expect(rows).toEqual([
      [4, 5],
      [6, 7],
      [8, 9],
      [10, 11],
      [12, 13],
      [14, 15],
    ]);
  });

  it("iterates a 1-d array element by element", async () => {
    const z = await array(new Float64Array([0, 1, 2, 3, 4]), { chunks: [2], compressor: null });
    const values: number[] = [];
    for await (const v of z) values.push((v.data as Float64Array)[0]!);
    expect(values).toEqual([0, 1, 2, 3, 4]);
    const fromOne: number[] = [];
    for await (const v of z.islice(1)) fromOne.push((v.data as Float64Array)[0]!);
    expect(fromOne).toEqual([1, 2, 3, 4]);
  });
});
