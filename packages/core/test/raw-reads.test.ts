/*
 * Arrays stored without a compressor or filters: chunks of 256 KiB or more that a read takes whole
 * go from their files straight into the result (DirectoryStore.getIntoParts, readv on Node's thread
 * pool). Everything else about such a read is as for any array.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ChunkError, create, openArray, slice, type ZarrArray } from "@z/core";
import { DirectoryStore, TempStore } from "@z/store-fs";
import { needTool } from "../../../scripts/test-child/tools.js";

const stores: TempStore[] = [];
afterAll(() => Promise.all(stores.map((s) => s.close())));

/** A store counting the chunks read straight into results, and the stretches of each. */
function store(): TempStore & { intoParts: number; stretches: number[] } {
  const s = Object.assign(new TempStore(), { intoParts: 0, stretches: [] as number[] });
  const read = s.getIntoParts.bind(s);
  s.getIntoParts = (key, parts, options) => {
    s.intoParts++;
    s.stretches.push(parts.length);
    return read(key, parts, options);
  };
  stores.push(s);
  return s;
}

const ramp = (n: number) => Float32Array.from({ length: n }, (_, i) => i);

/** The same read from the same data with no raw path to take (a zlib copy of a float32 array). */
async function expected(z: ZarrArray, selection: Parameters<ZarrArray["get"]>[0]) {
  const copy = await create({
    store: new TempStore(),
    shape: z.shape,
    chunks: z.chunks,
    dtype: "<f4",
    fillValue: z.fillValue as number,
    compressor: { id: "zlib", level: 1 },
    order: z.order,
  });
  stores.push(copy.store as TempStore);
  await copy.set(null, await z.get(null, { pool: false }), { pool: false });
  return copy.get(selection, { pool: false });
}

describe("reads of arrays stored raw", () => {
  it("read whole chunks straight into the result, and the rest as any array", async () => {
    const s = store();
    // 300 x 700 float32: chunks of 256 x 512 (512 KiB), edge chunks cut short.
    const z = await create({
      store: s,
      shape: [300, 700],
      chunks: [256, 512],
      dtype: "<f4",
      compressor: null,
      fillValue: -1,
    });
    await z.set(null, { data: ramp(300 * 700), shape: [300, 700] });
    await z.set([slice(256, 300), slice(512, 700)], -1); // an all-fill chunk still stored
    await s.delete("0.1"); // a missing chunk reads as the fill value
    for (const selection of [
      null,
      [slice(0, 256), slice(0, 512)],
      [slice(0, 280), slice(0, 600)],
      [slice(0, 256), slice(0, 700)],
      [100, slice(null)],
    ] as const) {
      s.intoParts = 0;
      s.stretches = [];
      const got = await z.get(selection as never);
      const [raw, stretches] = [s.intoParts, [...s.stretches]];
      const want = await expected(z, selection as never);
      expect(got.shape).toEqual(want.shape);
      expect(got.data).toBeInstanceOf(Float32Array);
      expect(
        Buffer.compare(
          new Uint8Array(got.data.buffer, got.data.byteOffset, got.data.byteLength),
          new Uint8Array(want.data.buffer, want.data.byteOffset, want.data.byteLength),
        ),
        JSON.stringify(selection),
      ).toBe(0);
      // A chunk's 256 rows are each a stretch of a wider result, and one stretch of a result as wide.
      expect(
        stretches.every((n) => n === (got.shape[1] === 512 ? 1 : 256)),
        `${JSON.stringify(selection)} ${stretches}`,
      ).toBe(true);
      // Only chunks the selection takes whole go the raw way: none of a single row.
      expect(raw > 0, JSON.stringify(selection)).toBe(selection === null || typeof selection[0] !== "number");
    }
  });

  const python = spawnSync("/usr/bin/python3", ["-c", "import zarr"]).status === 0;

  it("give zarr-python's values for arrays zarr-python wrote", async () => {
    needTool("zarr-python", python);
    const dir = store().root;
    // Edge chunks cut short, a missing chunk (the fill value), a chunk of the fill value, 3-D.
    const script = `
import sys, numpy as np, zarr
d = sys.argv[1]
a = zarr.open_array(d + "/a", mode="w", shape=(300, 700), chunks=(256, 512), dtype="<f4", compressor=None, fill_value=-1)
a[...] = np.arange(300 * 700, dtype="<f4").reshape(300, 700)
a[256:, 512:] = -1
del a.store["0.1"]
b = zarr.open_array(d + "/b", mode="w", shape=(8, 128, 300), chunks=(4, 128, 256), dtype="<i2", compressor=None)
b[...] = (np.arange(8 * 128 * 300) % 30000).astype("<i2").reshape(8, 128, 300)
for name in "ab":
    open(d + "/" + name + ".bin", "wb").write(zarr.open_array(d + "/" + name, mode="r")[...].tobytes())
`;
    const run = spawnSync("/usr/bin/python3", ["-c", script, dir], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    for (const name of ["a", "b"]) {
      const s = Object.assign(new DirectoryStore(join(dir, name)), { intoParts: 0 });
      const read = s.getIntoParts.bind(s);
      s.getIntoParts = (key, parts, options) => (s.intoParts++, read(key, parts, options));
      const got = await (await openArray(s, { mode: "r" })).get(null);
      expect(s.intoParts, name).toBeGreaterThan(0);
      expect(
        Buffer.compare(
          new Uint8Array(got.data.buffer, got.data.byteOffset, got.data.byteLength),
          readFileSync(join(dir, `${name}.bin`)),
        ),
        name,
      ).toBe(0);
    }
  });

  it("read a chunk as wide as the result in one stretch, and 3-D chunks row by row", async () => {
    const s = store();
    const z = await create({ store: s, shape: [4, 128, 256], chunks: [2, 128, 256], dtype: "<f4", compressor: null });
    await z.set(null, { data: ramp(4 * 128 * 256), shape: [4, 128, 256] });
    const got = await z.get(null);
    expect(s.stretches).toEqual([1, 1]);
    expect(Array.from(got.data as Float32Array).every((v, i) => v === i)).toBe(true);
    const part = await z.get([slice(0, 2), slice(null), slice(null)]);
    const rows = await z.get([slice(0, 2), slice(null), slice(0, 128)]); // no chunk taken whole
    expect((rows.data as Float32Array)[128]).toBe(256);
    expect(s.stretches).toEqual([1, 1, 1]);
    expect((part.data as Float32Array)[2 * 128 * 256 - 1]).toBe(2 * 128 * 256 - 1);
  });

  it("say what is wrong with a stored chunk of the wrong length, naming its key", async () => {
    const s = store();
    const z = await create({ store: s, shape: [512, 512], chunks: [256, 512], dtype: "<f4", compressor: null });
    await z.set(null, 1);
    await writeFile(join(s.root, "1.0"), new Uint8Array(256 * 512 * 4 + 1));
    const error = await z.get(null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkError);
    expect((error as ChunkError).key).toBe("1.0");
    await writeFile(join(s.root, "1.0"), new Uint8Array(100));
    await expect(z.get(null)).rejects.toThrow(/1\.0/);
  });

  it("leave big-endian and F-order arrays, and small chunks, to the usual way", async () => {
    for (const [dtype, order, chunks] of [
      [">f4", "C", [256, 512]],
      ["<f4", "F", [256, 512]],
      ["<f4", "C", [64, 512]],
    ] as const) {
      const s = store();
      const z = await create({ store: s, shape: [512, 512], chunks: [...chunks], dtype, order, compressor: null });
      await z.set(null, { data: ramp(512 * 512), shape: [512, 512] });
      const got = await (await openArray(s, { mode: "r" })).get(null);
      expect(s.intoParts).toBe(0);
      expect(Array.from(got.data as Float32Array).every((v, i) => v === i)).toBe(true);
    }
  });
});
