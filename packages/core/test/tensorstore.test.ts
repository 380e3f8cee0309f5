/**
 * TensorStore's extension dtypes (bfloat16, the float8 formats, int4, int2) against arrays
 * TensorStore 0.1.85 wrote (test/fixtures/tensorstore, made by test/python/tensorstore_fixtures.py):
 * we read its values, and write the same arrays (into $Z_TENSORSTORE_OUT when set, for that
 * script's `verify`, which has TensorStore read them back).
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, openArray, slice } from "@z/core";
import { WorkerPool } from "@z/core/node";
import { DirectoryStore } from "@z/store-fs";

const fixtures = new URL("./fixtures/tensorstore/", import.meta.url).pathname;
const names = readdirSync(fixtures).sort();

interface Expected {
  dtype: string;
  fill_value: number | string;
  shape: number[];
  chunks: number[];
  written_rows: number;
  /** float32 bits for floats, ints for int4/int2 */
  values: number[];
}

const isInt = (name: string): boolean => name === "int4" || name === "int2";
const f32 = (bits: readonly number[]): Float32Array => new Float32Array(Uint32Array.from(bits).buffer);
const sameValues = (got: Float32Array | Int8Array, expected: Expected): string[] => {
  const want = isInt(expected.dtype) ? Int8Array.from(expected.values) : f32(expected.values);
  const bad: string[] = [];
  want.forEach((w, i) => {
    const g = got[i]!;
    if (!(Object.is(g, w) || (Number.isNaN(g) && Number.isNaN(w)))) bad.push(`element ${i}: ${g} instead of ${w}`);
  });
  return bad;
};

// No minimum size: reads and writes of two or more chunks go through the pool's threads too.
const pool = new WorkerPool({ size: 2, minBytes: 0 });
beforeAll(() => pool.warm());
afterAll(() => pool.close());

describe("TensorStore's extension dtypes against TensorStore's own arrays", () => {
  it("has the nine cases", () => {
    expect(names).toEqual(["bfloat16", "float8_e3m4", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "int2", "int4"]);
  });

  for (const name of names) {
    const expected = JSON.parse(readFileSync(join(fixtures, name, "expected.json"), "utf8")) as Expected;

    it(`${name}: reads TensorStore's array, missing chunks as the fill value`, async () => {
      const z = await openArray(new DirectoryStore(join(fixtures, name, "array")), { mode: "r" });
      expect(z.dtype).toMatchObject({ kind: "x", extension: name });
      const all = await z.get();
      expect(all.data).toBeInstanceOf(isInt(name) ? Int8Array : Float32Array);
      expect(sameValues(all.data as Float32Array | Int8Array, expected)).toEqual([]);
      const pooled = await z.get(undefined, { pool });
      expect(sameValues(pooled.data as Float32Array | Int8Array, expected)).toEqual([]);
      const lastRow = await z.get([15]);
      expect(Array.from(lastRow.data as Float32Array).every((v) => Object.is(v, z.fillValue) || (Number.isNaN(v) && Number.isNaN(z.fillValue)))).toBe(true);
    });

    it(`${name}: writes the same array, reading back exactly what TensorStore reads`, async () => {
      const out = process.env.Z_TENSORSTORE_OUT ?? (await mkdtemp(join(tmpdir(), "z-tensorstore-")));
      const dir = join(out, name, "array");
      await rm(dir, { recursive: true, force: true });
      const store = new DirectoryStore(dir);
      const z = await create({
        store,
        shape: expected.shape,
        chunks: expected.chunks,
        dtype: name,
        compressor: { id: "zlib", level: 1 },
        fillValue: expected.fill_value,
        dimensionSeparator: ".",
      });
      const rows = expected.written_rows;
      const all = isInt(name) ? Int8Array.from(expected.values) : f32(expected.values);
      await z.set([slice(0, rows)], { data: all.subarray(0, rows * expected.shape[1]!), shape: [rows, expected.shape[1]!] });
      const again = await (await openArray(store, { mode: "r" })).get();
      expect(sameValues(again.data as Float32Array | Int8Array, expected)).toEqual([]);
      // The pool's threads write the same bytes.
      const pooledStore = new DirectoryStore(join(out, name, "pooled"));
      await rm(join(out, name, "pooled"), { recursive: true, force: true });
      const copy = await create({ store: pooledStore, shape: expected.shape, chunks: expected.chunks, dtype: name, compressor: { id: "zlib", level: 1 }, fillValue: expected.fill_value });
      await copy.set([slice(0, rows)], { data: all.subarray(0, rows * expected.shape[1]!), shape: [rows, expected.shape[1]!] }, { pool });
      for (const key of ["0.0", "1.1", "2.2"]) expect(await pooledStore.get(key)).toEqual(await store.get(key));
      expect(JSON.parse(new TextDecoder().decode(await store.get(".zarray")))).toEqual(
        JSON.parse(readFileSync(join(fixtures, name, "array", ".zarray"), "utf8")),
      );
      if (process.env.Z_TENSORSTORE_OUT === undefined) await rm(out, { recursive: true, force: true });
    });
  }

  it("rounds written values to the format and keeps get and set symmetric", async () => {
    const z = await create({ shape: [6], chunks: [4], dtype: "float8_e4m3fn", fillValue: 0 });
    await z.set(undefined, { data: new Float64Array([0.1, 1, 464, 480, -1e9, NaN]), shape: [6] });
    const got = Array.from((await z.get()).data as Float32Array);
    // 480 and beyond overflow: NaN, as this format has no infinity.
    expect(got.slice(0, 3)).toEqual([0.1015625, 1, 448]);
    expect(got.slice(3).every(Number.isNaN)).toBe(true);
    await z.set(undefined, { data: Float32Array.from(got), shape: [6] });
    const back = Array.from((await z.get()).data as Float32Array);
    expect(back.slice(0, 3)).toEqual(got.slice(0, 3));

    const i4 = await create({ shape: [4], chunks: [4], dtype: "int4", fillValue: -8 });
    await i4.set([slice(0, 2)], { data: new Int8Array([7, 9]), shape: [2] });
    expect(Array.from((await i4.get()).data as Int8Array)).toEqual([7, -7, -8, -8]);
  });
});
