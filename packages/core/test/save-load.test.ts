import { describe, expect, it } from "vitest";
import { load, MemoryStore, save, type NdArray } from "@z/core";

describe("save and load", () => {
  it("save writes one array at the root and load reads it back whole", async () => {
    const store = new MemoryStore();
    await save(store, { data: new Int32Array([1, 2, 3, 4, 5, 6]), shape: [2, 3] }, { compressor: null });
    const back = (await load(store)) as NdArray;
    expect([back.shape, Array.from(back.data as Int32Array)]).toEqual([
      [2, 3],
      [1, 2, 3, 4, 5, 6],
    ]);
  });

  it("save writes named arrays as a group and load returns them by name", async () => {
    const store = new MemoryStore();
    await save(
      store,
      { x: new Float64Array([0.5]), y: { data: new Uint8Array([1, 2]), shape: [2] } },
      { compressor: null },
    );
    const back = (await load(store)) as Record<string, NdArray>;
    expect(Object.keys(back).sort()).toEqual(["x", "y"]);
    expect(Array.from(back.y!.data as Uint8Array)).toEqual([1, 2]);
  });
});
