import { describe, expect, it } from "vitest";
import { array, create, MemoryStore, slice } from "@z/core";

const range = (n: number): Int32Array => Int32Array.from({ length: n }, (_, i) => i);

describe("digest and hexdigest, as zarr-python's", () => {
  it("hash the stored chunks in chunk order, then .zarray and .zattrs", async () => {
    // zarr.array(np.arange(100, dtype='<i4'), chunks=10, compressor=None); z.attrs['a'] = 1
    const z = await array(range(100), { store: new MemoryStore(), chunks: [10], compressor: null });
    await z.attrs.set("a", 1);
    expect(await z.hexdigest()).toBe("1146ceb2abd66c8e6224474b21ea13648b3641ac");
    expect(await z.hexdigest("sha256")).toBe("63053fd71c5b8773bf3f7ac46c87d5c72219d405d6d8beb28de36730ad443446");
  });

  it("change when data changes", async () => {
    const z = await array(range(10), { chunks: [5], compressor: null });
    const before = await z.hexdigest();
    await z.set([3], 99);
    expect(await z.hexdigest()).not.toBe(before);
  });
});

describe("views, as zarr-python's", () => {
  it("see the stored bytes through another dtype, without touching .zarray", async () => {
    const store = new MemoryStore();
    const z = await array(range(100), { store, chunks: [10], compressor: null });
    const stored = await store.get(".zarray");
    const v = await z.view({ dtype: "<u4" });
    expect(v.isView).toBe(true);
    expect(Array.from((await v.get([slice(0, 3)])).data as Uint32Array)).toEqual([0, 1, 2]);
    await v.set([0], 0xffffffff);
    expect(Array.from((await z.get([slice(0, 1)])).data as Int32Array)).toEqual([-1]);
    expect(await store.get(".zarray")).toEqual(stored);
  });

  it("refuse to change their metadata (zarr-python: operation not permitted for views)", async () => {
    const v = await (await array(range(10), { chunks: [5], compressor: null })).view({ shape: [5] });
    await expect(v.resize([5])).rejects.toMatchObject({ code: "ZARR_READ_ONLY" });
    expect(Array.from((await v.get()).data as Int32Array)).toEqual([0, 1, 2, 3, 4]);
  });

  it("can be read-only", async () => {
    const v = await (await create({ shape: [4], compressor: null })).view({ readOnly: true });
    await expect(v.set(undefined, 1)).rejects.toMatchObject({ code: "ZARR_READ_ONLY" });
  });
});
