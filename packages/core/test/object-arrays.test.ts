import { describe, expect, it } from "vitest";
import { create, MemoryStore, ObjectCodecError, openArray, slice, type ObjectNdArray } from "@z/core";

const text = new TextDecoder();
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("object arrays (dtype |O)", () => {
  it("stores strings through vlen-utf8, reading a JS array in C order", async () => {
    const z = await create({ shape: [3, 4], chunks: [2, 3], dtype: "str", compressor: null });
    expect(z.dtype.kind).toBe("O");
    expect(z.filters).toEqual([{ id: "vlen-utf8" }]);
    const words = ["a", "bb", "ccc", "dddd", "é", "ß", "日本", "🙂", "", "x", "y", "z"];
    await z.set(undefined, { data: words, shape: [3, 4] });
    const all = await z.get<unknown[]>();
    expect(all.shape).toEqual([3, 4]);
    expect(all.data).toEqual(words);
    expect(Array.isArray(all.data)).toBe(true);
  });

  it("reads missing chunks as the fill value itself, as zarr-python (0 by default, null, or a string)", async () => {
    const zero = await create({ shape: [4], chunks: [2], dtype: "str" });
    expect(zero.fillValue).toBe(0);
    expect((await zero.get<unknown[]>()).data).toEqual([0, 0, 0, 0]);
    const none = await create({ shape: [4], chunks: [2], dtype: "str", fillValue: null });
    expect((await none.get<unknown[]>()).data).toEqual([null, null, null, null]);
    const dash = await create({ shape: [4], chunks: [2], dtype: "str", fillValue: "-" });
    await dash.set([0], "first");
    expect((await dash.get<unknown[]>()).data).toEqual(["first", "-", "-", "-"]);
    expect(await dash.store.get("1")).toBeUndefined();
  });

  it("writes the unwritten elements of a new chunk as vlen-utf8 writes None or 0: empty strings", async () => {
    const z = await create({ shape: [4], chunks: [2], dtype: "str", compressor: null });
    await z.set([1], "b");
    expect((await z.get<unknown[]>()).data).toEqual(["", "b", 0, 0]);
  });

  it("takes every selection kind, scalars and broadcasting", async () => {
    const z = await create({
      shape: [4, 5],
      chunks: [3, 2],
      dtype: "|O",
      objectCodec: { id: "json2" },
      fillValue: null,
    });
    const grid = Array.from({ length: 20 }, (_, i) => ({ i }));
    await z.set(undefined, { data: grid, shape: [4, 5] });
    const at = (r: number, c: number): unknown => grid[r * 5 + c];

    expect((await z.get<unknown[]>([1, slice(null, null, -2)])).data).toEqual([at(1, 4), at(1, 2), at(1, 0)]);
    const o = await z.oindex.get<unknown[]>([new Int32Array([3, 0, 3]), [true, false, false, false, true]]);
    expect([o.shape, o.data]).toEqual([
      [3, 2],
      [at(3, 0), at(3, 4), at(0, 0), at(0, 4), at(3, 0), at(3, 4)],
    ]);
    const v = await z.vindex.get<unknown[]>([new Int32Array([2, 0]), new Int32Array([1, 4])]);
    expect(v.data).toEqual([at(2, 1), at(0, 4)]);
    const mask = Array.from({ length: 4 }, (_, r) => Array.from({ length: 5 }, (_, c) => r === c));
    expect(await z.getMaskSelection([mask]).then((m) => m.data)).toEqual([0, 1, 2, 3].map((i) => at(i, i)));
    const block = await z.blocks.get<unknown[]>([1, 2]);
    expect([block.shape, block.data]).toEqual([[1, 1], [at(3, 4)]]);

    await z.set([slice(0, 2), slice(1, 3)], "s");
    await z.set([3], ["p", [1, 2], null, true, 2.5]);
    await z.vindex.set([new Int32Array([2]), new Int32Array([0])], { data: [{ nested: [1] }], shape: [1] });
    const all = (await z.get<unknown[]>()).data;
    expect(all.slice(0, 5)).toEqual([at(0, 0), "s", "s", at(0, 3), at(0, 4)]);
    expect(all[10]).toEqual({ nested: [1] });
    expect(all.slice(15)).toEqual(["p", [1, 2], null, true, 2.5]);
  });

  it("holds Uint8Arrays with vlen-bytes and typed arrays with vlen-array", async () => {
    const b = await create({ shape: [3], chunks: [2], dtype: "bytes", fillValue: null });
    await b.set(undefined, { data: [utf8("ab"), new Uint8Array([0, 255]), new Uint8Array(0)], shape: [3] });
    const bytes = (await b.get<unknown[]>()).data as Uint8Array[];
    expect(bytes.map((x) => Array.from(x))).toEqual([[97, 98], [0, 255], []]);
    await b.set([1], utf8("one element"));
    expect(text.decode((await b.get<unknown[]>([1])).data[0] as Uint8Array)).toBe("one element");

    const a = await create({ shape: [2, 2], chunks: [1, 2], dtype: "array:i4", fillValue: null });
    expect(a.filters).toEqual([{ id: "vlen-array", dtype: "<i4" }]);
    await a.set([0], new Int32Array([1, 2, 3]));
    await a.set([1], { data: [new Int32Array([]), new Int32Array([-7])], shape: [2] });
    const rows = (await a.get<unknown[]>()).data;
    expect(rows.map((r) => [(r as Int32Array).constructor.name, Array.from(r as Int32Array)])).toEqual([
      ["Int32Array", [1, 2, 3]],
      ["Int32Array", [1, 2, 3]],
      ["Int32Array", []],
      ["Int32Array", [-7]],
    ]);
  });

  it("reads F-order chunks, resizes and appends", async () => {
    const store = new MemoryStore();
    const z = await create({ store, shape: [2, 3], chunks: [2, 2], dtype: "str", order: "F", fillValue: "" });
    await z.set(undefined, { data: ["a", "b", "c", "d", "e", "f"], shape: [2, 3] });
    expect((await z.get<unknown[]>([null, slice(1, 3)])).data).toEqual(["b", "c", "e", "f"]);
    await z.append({ data: ["g", "h", "i"], shape: [1, 3] });
    expect(z.shape).toEqual([3, 3]);
    expect((await z.get<unknown[]>()).data).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i"]);
    await z.resize([1, 2]);
    const again = await openArray(store, { mode: "r" });
    expect((await again.get<unknown[]>()).data).toEqual(["a", "b"]);
  });

  it("iterates, yielding rows of values", async () => {
    const z = await create({ shape: [3, 2], chunks: [2, 2], dtype: "str" });
    await z.set(undefined, { data: ["a", "b", "c", "d", "e", "f"], shape: [3, 2] });
    const rows: unknown[] = [];
    for await (const row of z.islice<unknown[]>()) rows.push(row.data);
    expect(rows).toEqual([
      ["a", "b"],
      ["c", "d"],
      ["e", "f"],
    ]);
  });

  it("deletes chunks equal to the fill value when writeEmptyChunks is false", async () => {
    const z = await create({ shape: [4], chunks: [2], dtype: "str", fillValue: "-", writeEmptyChunks: false });
    await z.set(undefined, ["-", "-", "x", "-"]);
    expect(await z.nchunksInitialized()).toBe(1);
    expect((await z.get<ObjectNdArray["data"]>()).data).toEqual(["-", "-", "x", "-"]);
  });

  it("checks every value with the object codec before writing any chunk", async () => {
    const store = new MemoryStore();
    const z = await create({ store, shape: [4], chunks: [1], dtype: "str" });
    await expect(z.set(undefined, ["a", "b", 3, "d"])).rejects.toMatchObject({ code: "ZARR_CODEC" });
    expect(await store.list()).toEqual([".zarray"]);
    await expect(z.set(undefined, { data: ["a", "b"], shape: [2] })).rejects.toMatchObject({ code: "ZARR_VALUE" });
    await expect(z.get(undefined, { fields: "a" })).rejects.toMatchObject({ code: "ZARR_FIELD" });
    await expect(z.get(undefined, { out: new Float64Array(4) })).rejects.toMatchObject({ code: "ZARR_ARGUMENT" });
  });

  it("refuses an object array without an object codec, as zarr-python", async () => {
    await expect(create({ shape: [4], dtype: "|O" })).rejects.toBeInstanceOf(ObjectCodecError);
    await expect(create({ shape: [4], dtype: "object", filters: [{ id: "zlib", level: 1 }] })).rejects.toMatchObject({
      code: "ZARR_OBJECT_CODEC",
    });
    await expect(create({ shape: [4], dtype: "|O", objectCodec: { id: "zlib", level: 1 } })).rejects.toMatchObject({
      code: "ZARR_OBJECT_CODEC",
    });
    await expect(create({ shape: [4], dtype: "<i4", objectCodec: { id: "vlen-utf8" } })).rejects.toMatchObject({
      code: "ZARR_OBJECT_CODEC",
    });
    await expect(create({ shape: [4], dtype: "array" })).rejects.toMatchObject({ code: "ZARR_OBJECT_CODEC" });
    const z = await create({
      shape: [4],
      dtype: "|O",
      objectCodec: { id: "msgpack2" },
      filters: [{ id: "zlib", level: 1 }],
    });
    expect(z.filters?.map((f) => f.id)).toEqual(["msgpack2", "zlib"]);
  });

  it("fails naming the chunk when a stored chunk holds the wrong number of values", async () => {
    const store = new MemoryStore();
    const z = await create({ store, shape: [4], chunks: [2], dtype: "str", compressor: null });
    await store.set("0", new Uint8Array([1, 0, 0, 0, 1, 0, 0, 0, 97]));
    await expect(z.get()).rejects.toMatchObject({ key: "0" });
  });
});
