// What is not a dataset, or not decodable, fails with a typed error naming the variable, the key
// and the attribute, as xarray fails (KeyError, ValueError) on the same stores.
import { create, group, MemoryStore, NodeNotFoundError } from "@z/core";
import { describe, expect, it } from "vitest";
import { CFError, DatasetError, LabelError, openDataset, slice } from "../src/index.js";

async function store(arrays: Record<string, { shape: number[]; dtype?: string; attrs: Record<string, unknown> }>) {
  const s = new MemoryStore();
  await group({ store: s });
  for (const [name, spec] of Object.entries(arrays)) {
    const a = await create({ store: s, path: name, shape: spec.shape, dtype: spec.dtype ?? "<i4", fillValue: null });
    await a.attrs.put(spec.attrs as never);
  }
  return s;
}

describe("stores that are not datasets", () => {
  it("an array without _ARRAY_DIMENSIONS (xarray: KeyError)", async () => {
    const s = await store({ a: { shape: [3], attrs: { units: "m" } } });
    const error = await openDataset(s).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatasetError);
    expect(error).toMatchObject({ code: "ZARR_DATASET", variable: "a", key: "a/.zattrs" });
    expect((error as Error).message).toMatch(/_ARRAY_DIMENSIONS/);
  });

  it("_ARRAY_DIMENSIONS with the wrong number of names", async () => {
    const s = await store({ a: { shape: [3, 4], attrs: { _ARRAY_DIMENSIONS: ["x"] } } });
    await expect(openDataset(s)).rejects.toThrow(/must be a list of 2 dimension names, got \["x"\]/);
  });

  it("one dimension with two lengths (xarray: ValueError)", async () => {
    const s = await store({
      a: { shape: [3], attrs: { _ARRAY_DIMENSIONS: ["x"] } },
      b: { shape: [4], attrs: { _ARRAY_DIMENSIONS: ["x"] } },
    });
    await expect(openDataset(s)).rejects.toThrow(/conflicting lengths for dimension "x" \(4 in b != 3\)/);
  });

  it("consolidated: true without .zmetadata", async () => {
    const s = await store({ a: { shape: [3], attrs: { _ARRAY_DIMENSIONS: ["x"] } } });
    await expect(openDataset(s, { consolidated: true })).rejects.toBeInstanceOf(NodeNotFoundError);
    expect((await openDataset(s)).dataVars).toEqual(["a"]);
  });
});

describe("CF attributes that do not decode", () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["time units with no date", { units: "days since the start" }, "units", /unable to decode time units/],
    [
      "an unknown calendar",
      { units: "days since 2000-01-01", calendar: "martian" },
      "units",
      /unknown calendar "martian"/,
    ],
    ["months in a real calendar", { units: "months since 2000-01-01", calendar: "noleap" }, "units", /360_day/],
    ["a scale_factor that is text", { scale_factor: "0.1" }, "scale_factor", /must be a number/],
    ["a scale_factor of two numbers", { scale_factor: [1, 2] }, "scale_factor", /list of one number/],
  ];
  for (const [what, attrs, attribute, message] of cases) {
    it(what, async () => {
      const s = await store({ t: { shape: [2], attrs: { _ARRAY_DIMENSIONS: ["t"], ...attrs } } });
      const error = await openDataset(s).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CFError);
      expect(error).toMatchObject({ code: "ZARR_CF", variable: "t", attribute });
      expect((error as Error).message).toMatch(message);
      // Undecoded, the same store opens.
      expect((await openDataset(s, { decodeCF: false })).get("t").dtype).toBe("int32");
    });
  }

  it("bytes that are not text in their _Encoding", async () => {
    const s = new MemoryStore();
    await group({ store: s });
    const a = await create({ store: s, path: "s", shape: [2], dtype: "|S2", fillValue: null });
    await a.set(null, { data: new Uint8Array([0x61, 0x62, 0xff, 0xfe]), shape: [2] } as never);
    await a.attrs.put({ _ARRAY_DIMENSIONS: ["n"], _Encoding: "utf-8" });
    const ds = await openDataset(s);
    await expect(ds.get("s").values()).rejects.toMatchObject({ code: "ZARR_CF", attribute: "_Encoding" });
    expect((await ds.get("s").rawValues()).data).toEqual(["ab", "\u00ff\u00fe"]);
  });
});

describe("selections that do not apply", () => {
  async function dataset() {
    const s = new MemoryStore();
    await group({ store: s });
    const x = await create({ store: s, path: "x", shape: [4], dtype: "<f8", fillValue: null });
    await x.set(null, { data: Float64Array.of(0, 10, 5, 20), shape: [4] });
    await x.attrs.put({ _ARRAY_DIMENSIONS: ["x"] });
    const v = await create({ store: s, path: "v", shape: [4, 3], dtype: "<f8", fillValue: null });
    await v.attrs.put({ _ARRAY_DIMENSIONS: ["x", "y"] });
    return openDataset(s);
  }

  it("isel of a dimension that is not there, or past its end", async () => {
    const ds = await dataset();
    expect(() => ds.isel({ z: 0 })).toThrow(DatasetError);
    expect(() => ds.isel({ x: 4 })).toThrow(expect.objectContaining({ code: "ZARR_BOUNDS" }));
    expect(() => ds.isel({ x: -5 })).toThrow(/index -5 is out of bounds for dimension x of length 4/);
    expect(() => ds.isel({ x: slice(0, 4, 0) })).toThrow(/step cannot be zero/);
    expect(() => ds.get("v").isel({ y: 0 }).isel({ y: 0 })).toThrow(/no dimension "y"/);
  });

  it("sel of a label that is not there, on a dimension without a coordinate, or unsorted", async () => {
    const ds = await dataset();
    await expect(ds.sel({ x: 7 })).rejects.toBeInstanceOf(LabelError);
    await expect(ds.sel({ x: 7 })).rejects.toThrow(/no label "7"/);
    await expect(ds.sel({ y: 0 })).rejects.toThrow(/y has no coordinate of its name/);
    await expect(ds.sel({ x: 6 }, { method: "nearest" })).rejects.toThrow(/needs a sorted coordinate/);
    await expect(ds.sel({ x: slice(0, 10) })).rejects.toThrow(/needs a sorted coordinate/);
    expect((await ds.sel({ x: 5 })).sizes).toEqual({ y: 3 });
  });
});
