import { describe, expect, it } from "vitest";
import { array, slice } from "@z/core";

/** zarr.array(np.arange(48, dtype='<i4').reshape(6, 8), chunks=(4, 3), compressor=None) */
const example = () =>
  array({ data: Int32Array.from({ length: 48 }, (_, i) => i), shape: [6, 8] }, { chunks: [4, 3], compressor: null });
const values = (nd: { data: unknown }): number[] => Array.from(nd.data as Int32Array);

describe("fancy selections on arrays (expected values from zarr-python and numpy)", () => {
  it("oindex: z.oindex[[4, 0, 4], [1, 7]]", async () => {
    const r = await (await example()).oindex.get([
      [4, 0, 4],
      [1, 7],
    ]);
    expect([r.shape, values(r)]).toEqual([
      [3, 2],
      [33, 39, 1, 7, 33, 39],
    ]);
  });

  it("vindex with coordinates: z.vindex[[0, 5, 2], [7, 0, 3]]", async () => {
    expect(
      values(
        await (await example()).vindex.get([
          [0, 5, 2],
          [7, 0, 3],
        ]),
      ),
    ).toEqual([7, 40, 19]);
  });

  it("vindex with a mask: elements where it is true, in C order", async () => {
    const mask = new Uint8Array(48);
    for (const i of [1 * 8 + 2, 5 * 8 + 7, 0]) mask[i] = 1;
    const r = await (await example()).vindex.get({ data: mask, shape: [6, 8], dtype: { kind: "b" } });
    expect(values(r)).toEqual([0, 10, 47]);
  });

  it("get dispatches as numpy: a[[5, 1]] and a[::-2, 1]", async () => {
    const z = await example();
    expect(values(await z.get([[5, 1]]))).toEqual(
      [...Array(8).keys()].map((j) => 40 + j).concat([...Array(8).keys()].map((j) => 8 + j)),
    );
    expect(values(await z.get([slice(null, null, -2), 1]))).toEqual([41, 25, 9]);
  });

  it("writes through oindex and vindex; repeated points keep the last value", async () => {
    const z = await example();
    await z.oindex.set([[0, 5], slice(null, 2)], -1);
    await z.vindex.set(
      [
        [1, 1, 3],
        [2, 2, 4],
      ],
      { data: new Int32Array([7, 8, 9]), shape: [3] },
    );
    const all = values(await z.get());
    expect(all.slice(0, 8)).toEqual([-1, -1, 2, 3, 4, 5, 6, 7]);
    expect(all.slice(8, 16)).toEqual([8, 9, 8, 11, 12, 13, 14, 15]);
    expect(all[3 * 8 + 4]).toBe(9);
    expect(all.slice(40, 48)).toEqual([-1, -1, 42, 43, 44, 45, 46, 47]);
  });

  it("block selections read whole chunks", async () => {
    const r = await (await example()).blocks.get([1, 2]);
    expect([r.shape, values(r)]).toEqual([
      [2, 2],
      [38, 39, 46, 47],
    ]);
  });

  it("refuses bad index arrays before writing anything", async () => {
    const z = await example();
    const before = values(await z.get());
    await expect(z.oindex.set([[0, 6]], 1)).rejects.toMatchObject({ code: "ZARR_BOUNDS" });
    await expect(
      z.vindex.set(
        [
          [0, 1],
          [0, 1, 2],
        ],
        1,
      ),
    ).rejects.toMatchObject({ code: "ZARR_SELECTION" });
    await expect(
      z.vindex.set(
        [
          [0, 1],
          [0, 1],
        ],
        { data: new Int32Array(3), shape: [3] },
      ),
    ).rejects.toMatchObject({ code: "ZARR_VALUE" });
    expect(values(await z.get())).toEqual(before);
  });
});
