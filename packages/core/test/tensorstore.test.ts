/**
 * TensorStore's extension dtypes (bfloat16, the float8 formats, int4, int2) against arrays
 * TensorStore 0.1.85 wrote (test/fixtures/tensorstore, made by test/python/tensorstore_fixtures.py):
 * we read its values bit for bit (a NaN's sign too), and write the same arrays (into
 * $Z_TENSORSTORE_OUT when set, for that script's `verify`, which has TensorStore read them back).
 */
import { readdirSync, readFileSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, openArray, slice, type ZarrArray } from "@z/core";
import { WorkerPool } from "@z/core/node";
import { encodeExtension, type ExtensionName } from "@z/meta";
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
  /** Floats only: the codes ml_dtypes converts `values` back to (a NaN to the format's NaN of its sign). */
  rewritten?: number[];
}

const isInt = (name: string): boolean => name === "int4" || name === "int2";
/** Float32s of these bits, made without a JS number in between. */
const f32 = (bits: readonly number[]): Float32Array => new Float32Array(Uint32Array.from(bits).buffer);
/** The elements that differ: float32 bits for floats (a NaN's sign and payload count), ints for the ints. */
const sameValues = (got: Float32Array | Int8Array, expected: Expected): string[] => {
  const want = isInt(expected.dtype) ? expected.values : expected.values.map((b) => b >>> 0);
  const have =
    got instanceof Float32Array ? Array.from(new Uint32Array(got.buffer, got.byteOffset, got.length)) : Array.from(got);
  const hex = (v: number): string => (isInt(expected.dtype) ? String(v) : `0x${v.toString(16)}`);
  return want.flatMap((w, i) => (have[i] === w ? [] : [`element ${i}: ${hex(have[i]!)} instead of ${hex(w)}`]));
};
/** The stored codes of an extension array (one byte, or two for bfloat16), read through a view. */
const storedCodes = async (z: ZarrArray, rows: number): Promise<number[]> => {
  const codes = await z.view({ dtype: z.dtype.itemsize === 2 ? "<u2" : "|u1", fillValue: 0 });
  return Array.from((await codes.get([slice(0, rows)])).data as Uint8Array | Uint16Array);
};

// No minimum size: reads and writes of two or more chunks go through the pool's threads too.
const pool = new WorkerPool({ size: 2, minBytes: 0 });
beforeAll(() => pool.warm());
afterAll(() => pool.close());

describe("TensorStore's extension dtypes against TensorStore's own arrays", () => {
  it("has the nine cases", () => {
    expect(names).toEqual([
      "bfloat16",
      "float8_e3m4",
      "float8_e4m3b11fnuz",
      "float8_e4m3fn",
      "float8_e4m3fnuz",
      "float8_e5m2",
      "float8_e5m2fnuz",
      "int2",
      "int4",
    ]);
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
      // Both dimensions backwards: the whole array reversed, element by element (a strided copy).
      const reversed = await z.get([slice(null, null, -1), slice(null, null, -1)]);
      expect(
        sameValues(reversed.data as Float32Array | Int8Array, { ...expected, values: [...expected.values].reverse() }),
      ).toEqual([]);
      // The missing last row reads as TensorStore read it: the stored fill value's bits.
      const lastRow = (await z.get([15])).data as Float32Array | Int8Array;
      expect(sameValues(lastRow, { ...expected, values: expected.values.slice(15 * 16) })).toEqual([]);
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
      await z.set([slice(0, rows)], {
        data: all.subarray(0, rows * expected.shape[1]!),
        shape: [rows, expected.shape[1]!],
      });
      const again = await openArray(store, { mode: "r" });
      if (isInt(name)) expect(sameValues((await again.get()).data as Int8Array, expected)).toEqual([]);
      // The codes ml_dtypes writes for these values: TensorStore's own, but for NaNs the format's NaN of the same sign.
      else expect(await storedCodes(again, rows)).toEqual(expected.rewritten!.slice(0, rows * expected.shape[1]!));
      // The pool's threads write the same bytes.
      const pooledStore = new DirectoryStore(join(out, name, "pooled"));
      await rm(join(out, name, "pooled"), { recursive: true, force: true });
      const copy = await create({
        store: pooledStore,
        shape: expected.shape,
        chunks: expected.chunks,
        dtype: name,
        compressor: { id: "zlib", level: 1 },
        fillValue: expected.fill_value,
      });
      await copy.set(
        [slice(0, rows)],
        { data: all.subarray(0, rows * expected.shape[1]!), shape: [rows, expected.shape[1]!] },
        { pool },
      );
      for (const key of ["0.0", "1.1", "2.2"]) expect(await pooledStore.get(key)).toEqual(await store.get(key));
      expect(JSON.parse(new TextDecoder().decode(await store.get(".zarray")))).toEqual(
        JSON.parse(readFileSync(join(fixtures, name, "array", ".zarray"), "utf8")),
      );
      if (process.env.Z_TENSORSTORE_OUT === undefined) await rm(out, { recursive: true, force: true });
    });

    if (!isInt(name)) {
      it(`${name}: a write into TensorStore's chunks keeps the other elements' codes, a NaN's sign included`, async () => {
        const theirs = await storedCodes(
          await openArray(new DirectoryStore(join(fixtures, name, "array")), { mode: "r" }),
          expected.written_rows,
        );
        const negativeNaN = (i: number): boolean => expected.values[i]! >>> 0 === 0xffc00000;
        expect(theirs.filter((_, i) => negativeNaN(i)).length).toBeGreaterThan(0);
        const signBit = name === "bfloat16" ? 0x8000 : 0x80;
        // One element in each of four chunks: each chunk is read, changed and written again.
        const changed = [4 * 16 + 6, 4 * 16 + 7, 5 * 16 + 6, 5 * 16 + 7];
        const value = Float32Array.of(1, -2, 0.5, 4);
        for (const threads of [false, pool] as const) {
          const dir = await mkdtemp(join(tmpdir(), "z-tensorstore-rmw-"));
          try {
            await cp(join(fixtures, name, "array"), dir, { recursive: true });
            const z = await openArray(new DirectoryStore(dir));
            await z.set([slice(4, 6), slice(6, 8)], { data: value, shape: [2, 2] }, { pool: threads });
            const codes = await storedCodes(z, expected.written_rows);
            // The four chunks written (rows 0-9, columns 0-13) hold what ml_dtypes writes for the values
            // read: TensorStore's codes, a NaN as the format's NaN of its sign. The others are untouched.
            const want = theirs.map((code, i) => (i % 16 < 14 && i < 10 * 16 ? expected.rewritten![i]! : code));
            const written = encodeExtension(name as ExtensionName, value);
            changed.forEach(
              (at, j) => (want[at] = name === "bfloat16" ? written[2 * j]! | (written[2 * j + 1]! << 8) : written[j]!),
            );
            expect(codes).toEqual(want);
            expect(codes.filter((c, i) => negativeNaN(i) && !changed.includes(i) && (c & signBit) === 0)).toEqual([]);
            // Formats whose every NaN comes back as itself (0x7f and 0xff; 0x80): exactly TensorStore's codes.
            const others = (list: number[]): number[] => list.filter((_, i) => !changed.includes(i));
            if (name === "float8_e4m3fn" || name.endsWith("fnuz")) expect(others(codes)).toEqual(others(theirs));
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        }
      });
    }
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
