import { describe, expect, it } from "vitest";
import { create, MemoryStore, slice } from "@z/core";

const hex = (b: Uint8Array | undefined): string => Buffer.from(b ?? []).toString("hex");
const DTYPE = [
  ["x", "<f4"],
  ["n", ">i2", [2]],
  ["t", "|S2"],
];

/** The zarr-python session these tests quote: zarr.zeros(5, chunks=2, dtype=DTYPE, compressor=None). */
async function example(): Promise<{ z: Awaited<ReturnType<typeof create>>; store: MemoryStore }> {
  const store = new MemoryStore();
  const z = await create({ store, shape: [5], chunks: [2], dtype: DTYPE, compressor: null });
  await z.set(undefined, { data: new Float32Array([0, 1, 2, 3, 4]), shape: [5] }, { fields: "x" }); // z['x'] = np.arange(5)
  await z.set([slice(1, 3)], [0x61, 0x62], { fields: "t" }); // set_basic_selection(slice(1, 3), b'ab', fields='t')
  return { z, store };
}

describe("structured fields, as zarr-python's fields=", () => {
  it("write one field and leave the others, byte for byte as zarr-python", async () => {
    const { store } = await example();
    expect(hex(await store.get("0"))).toBe("000000000000000000000000803f000000006162");
  });

  it("read one field with its own dtype; subarray fields add dimensions", async () => {
    const { z } = await example();
    const x = await z.get([slice(0, 4)], { fields: "x" });
    expect([x.shape, Array.from(x.data as Float32Array), x.dtype]).toEqual([
      [4],
      [0, 1, 2, 3],
      { kind: "f", byteOrder: "<", itemsize: 4 },
    ]);
    const n = await z.get([slice(0, 4)], { fields: "n" });
    expect([n.shape, Array.from(n.data as Int16Array)]).toEqual([
      [4, 2],
      [0, 0, 0, 0, 0, 0, 0, 0],
    ]);
    expect(Array.from((await z.get([2], { fields: "x" })).data as Float32Array)).toEqual([2]);
  });

  it("read several fields as a packed struct in the order asked", async () => {
    const { z } = await example();
    const r = await z.get([slice(0, 2)], { fields: ["t", "x"] });
    expect(r.dtype).toMatchObject({ kind: "structured", itemsize: 6 });
    expect(hex(r.data as Uint8Array)).toBe("0000" + "00000000" + "6162" + "0000803f");
  });

  it("write subarray fields (which zarr-python 2.13 refuses) and read them back", async () => {
    const { z } = await example();
    await z.set([slice(1, 3)], { data: new Int16Array([7, 8, 9, 10]), shape: [2, 2] }, { fields: "n" });
    expect(Array.from((await z.get(undefined, { fields: "n" })).data as Int16Array)).toEqual([
      0, 0, 7, 8, 9, 10, 0, 0, 0, 0,
    ]);
    expect(Array.from((await z.get(undefined, { fields: "x" })).data as Float32Array)).toEqual([0, 1, 2, 3, 4]);
  });

  it("refuse unknown fields and fields of plain arrays before touching a chunk", async () => {
    const { z, store } = await example();
    const before = hex(await store.get("0"));
    await expect(z.set([0], 1, { fields: "nope" })).rejects.toMatchObject({ code: "ZARR_FIELD" });
    await expect(z.get([0], { fields: "nope" })).rejects.toMatchObject({ code: "ZARR_FIELD" });
    expect(hex(await store.get("0"))).toBe(before);
    const plain = await create({ shape: [2], compressor: null });
    await expect(plain.get(undefined, { fields: "x" })).rejects.toMatchObject({ code: "ZARR_FIELD" });
  });
});
