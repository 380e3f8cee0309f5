/**
 * Zarr v3 against zarrita.js 0.7.5, a second JavaScript implementation, both ways, in one process:
 * z reads what zarrita writes (every numeric type zarrita has on Node 20, the codecs it can encode:
 * bytes of either endian, transpose, blosc, zstd; missing chunks as the fill; groups, attributes and
 * dimension names), and zarrita reads what z writes (the same types and strings, z's default chain
 * and gzip, blosc, zstd with a checksum, crc32c, transpose, the chunk key encodings, 0-d arrays,
 * groups, shards as create({ shards }) writes them). Values are compared bit for bit with the values
 * written, not with z's own reading.
 *
 * What zarrita cannot do is left out: it encodes no strings, gzip, zlib or crc32c (so z reads no
 * such array of zarrita's), has no float16 on Node 20 and no complex or extension types, writes no
 * shards (and reads no nested ones: its inner chains know no sharding_indexed), and mis-reads zero-size arrays, hex-encoded fills and fills beyond 2^53 (../shared
 * toolchain notes).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import * as zarrita from "zarrita";
import { create, group, openArray, openGroup, slice } from "@z/core";
import { parseDataTypeV3 } from "@z/meta/v3";
import {
  typedArrayConstructor,
  type ArrayMetadataV3,
  type JsonObject,
  type NamedConfig,
  type TypedArray,
} from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { cStrides } from "../src/fixtures.js";
import { ZarritaFileStore } from "../src/zarrita-store.js";

type Values = TypedArray | string[];

interface Case {
  readonly name: string;
  /** A v3 data type name. */
  readonly dtype: string;
  readonly shape: readonly number[];
  readonly chunks: readonly number[];
  readonly codecs?: readonly NamedConfig[];
  /** As zarr.json holds it: a number, `true`/`false`, "NaN", a string for strings. */
  readonly fill: number | boolean | string;
  /** How many leading rows (of dimension 0) are written; the rest read as the fill. Default all. */
  readonly rows?: number;
  readonly keys?: { readonly encoding: "default" | "v2"; readonly separator: "/" | "." };
  readonly dimensionNames?: readonly string[];
  readonly attributes?: JsonObject;
  /** z writes: `create`'s `shards` (the chunks are then the inner chunks). */
  readonly shards?: readonly number[];
}

const NUMERIC = [
  "bool",
  "int8",
  "int16",
  "int32",
  "int64",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "float32",
  "float64",
];
const FILLS: Record<string, number | boolean | string> = {
  bool: true,
  int8: -3,
  int16: -300,
  int32: -70000,
  int64: -5,
  uint8: 200,
  uint16: 60000,
  uint32: 4000000000,
  uint64: 7,
  float32: "NaN",
  float64: -1.5,
  string: "fill",
};
const LE: NamedConfig = { name: "bytes", configuration: { endian: "little" } };
const BE: NamedConfig = { name: "bytes", configuration: { endian: "big" } };
const blosc = (cname: string, shuffle: string, typesize: number): NamedConfig => ({
  name: "blosc",
  configuration: { cname, clevel: 5, shuffle, typesize, blocksize: 0 },
});
const transpose = (...order: number[]): NamedConfig => ({ name: "transpose", configuration: { order } });
const zstd = (checksum: boolean): NamedConfig => ({ name: "zstd", configuration: { level: 3, checksum } });

/** One case per data type: 7 x 5 in 3 x 2 chunks, the last chunk row unwritten. */
const perType = (prefix: string, dtypes: readonly string[], codecs?: (dtype: string) => NamedConfig[]): Case[] =>
  dtypes.map((dtype) => ({
    name: `${prefix}-${dtype}`,
    dtype,
    shape: [7, 5],
    chunks: [3, 2],
    fill: FILLS[dtype]!,
    rows: 5,
    ...(codecs === undefined ? {} : { codecs: codecs(dtype) }),
  }));

/** zarrita writes, z reads: only codecs zarrita encodes. */
const ZARRITA_WRITES: Case[] = [
  ...perType("types", NUMERIC, (dtype) => [dtype === "bool" || dtype.endsWith("int8") ? { name: "bytes" } : LE]),
  { name: "bytes-big-i4", dtype: "int32", shape: [10], chunks: [4], codecs: [BE], fill: 0 },
  { name: "bytes-big-f8", dtype: "float64", shape: [4, 5], chunks: [3, 3], codecs: [BE], fill: "NaN", rows: 3 },
  { name: "bytes-big-u8", dtype: "uint64", shape: [9], chunks: [4], codecs: [BE], fill: 1 },
  { name: "transpose-2d", dtype: "float32", shape: [6, 5], chunks: [4, 3], codecs: [transpose(1, 0), LE], fill: 0 },
  {
    name: "transpose-3d-big",
    dtype: "uint16",
    shape: [4, 5, 6],
    chunks: [2, 5, 3],
    codecs: [transpose(2, 0, 1), BE],
    fill: 9,
    rows: 3,
  },
  {
    name: "blosc-lz4-shuffle-f4",
    dtype: "float32",
    shape: [50],
    chunks: [16],
    codecs: [LE, blosc("lz4", "shuffle", 4)],
    fill: 0,
  },
  {
    name: "blosc-zstd-bitshuffle-f8",
    dtype: "float64",
    shape: [50],
    chunks: [16],
    codecs: [LE, blosc("zstd", "bitshuffle", 8)],
    fill: 0,
  },
  {
    name: "blosc-lz4-noshuffle-u1",
    dtype: "uint8",
    shape: [40],
    chunks: [16],
    codecs: [{ name: "bytes" }, blosc("lz4", "noshuffle", 1)],
    fill: 0,
  },
  { name: "zstd-i2", dtype: "int16", shape: [8, 8], chunks: [3, 3], codecs: [LE, zstd(false)], fill: -1, rows: 6 },
  {
    name: "transpose-big-zstd",
    dtype: "int32",
    shape: [5, 6],
    chunks: [2, 4],
    codecs: [transpose(1, 0), BE, zstd(false)],
    fill: 0,
  },
  {
    name: "dot-keys-names-attributes",
    dtype: "float32",
    shape: [4, 4],
    chunks: [2, 2],
    codecs: [LE],
    fill: 0,
    keys: { encoding: "default", separator: "." },
    dimensionNames: ["y", "x"],
    attributes: { units: "m", scale: [1, 2.5], nested: { ok: true, none: null } },
  },
];

/** z writes, zarrita reads: zarrita decodes all of these. */
const Z_WRITES: Case[] = [
  // z's default chain: bytes, then zstd level 0 (zarr-python 3's).
  ...perType("types", [...NUMERIC, "string"]),
  {
    name: "gzip-i4",
    dtype: "int32",
    shape: [10, 3],
    chunks: [4, 2],
    codecs: [LE, { name: "gzip", configuration: { level: 5 } }],
    fill: 2,
  },
  {
    name: "gzip-strings",
    dtype: "string",
    shape: [9],
    chunks: [4],
    codecs: [{ name: "vlen-utf8" }, { name: "gzip", configuration: { level: 1 } }],
    fill: "",
    rows: 6,
  },
  {
    name: "blosc-lz4-shuffle-f4",
    dtype: "float32",
    shape: [50],
    chunks: [16],
    codecs: [LE, blosc("lz4", "shuffle", 4)],
    fill: 0,
  },
  {
    name: "blosc-zstd-bitshuffle-f8",
    dtype: "float64",
    shape: [50],
    chunks: [16],
    codecs: [LE, blosc("zstd", "bitshuffle", 8)],
    fill: "NaN",
    rows: 40,
  },
  { name: "zstd-checksum-u2", dtype: "uint16", shape: [30], chunks: [16], codecs: [LE, zstd(true)], fill: 0 },
  { name: "crc32c-i8", dtype: "int64", shape: [10], chunks: [4], codecs: [LE, { name: "crc32c" }], fill: -1, rows: 6 },
  {
    name: "transpose-big-gzip-crc32c",
    dtype: "float64",
    shape: [6, 4],
    chunks: [4, 3],
    codecs: [transpose(1, 0), BE, { name: "gzip", configuration: { level: 6 } }, { name: "crc32c" }],
    fill: 0,
  },
  {
    name: "keys-default-dot",
    dtype: "uint8",
    shape: [4, 4, 4],
    chunks: [2, 2, 2],
    fill: 7,
    rows: 2,
    keys: { encoding: "default", separator: "." },
  },
  {
    name: "keys-v2-dot",
    dtype: "uint8",
    shape: [4, 4, 4],
    chunks: [2, 2, 2],
    fill: 7,
    rows: 2,
    keys: { encoding: "v2", separator: "." },
  },
  {
    name: "keys-v2-slash",
    dtype: "uint8",
    shape: [4, 4, 4],
    chunks: [2, 2, 2],
    fill: 7,
    rows: 2,
    keys: { encoding: "v2", separator: "/" },
  },
  { name: "zero-d", dtype: "float64", shape: [], chunks: [], fill: 0 },
  // Shards (index at the end, bytes + crc32c, as create({ shards }) writes them): partly written,
  // so some are missing and some have missing inner chunks; shards at the edge partly outside.
  {
    name: "shards-default-f4",
    dtype: "float32",
    shape: [20, 18],
    chunks: [4, 6],
    shards: [8, 12],
    fill: "NaN",
    rows: 13,
  },
  {
    name: "shards-blosc-i4",
    dtype: "int32",
    shape: [30, 7],
    chunks: [5, 7],
    shards: [10, 7],
    codecs: [LE, blosc("lz4", "shuffle", 4)],
    fill: -1,
    rows: 22,
  },
  {
    name: "shards-gzip-crc32c-u2",
    dtype: "uint16",
    shape: [9, 10, 11],
    chunks: [2, 5, 3],
    shards: [4, 10, 6],
    codecs: [LE, { name: "gzip", configuration: { level: 1 } }, { name: "crc32c" }],
    fill: 3,
    rows: 5,
  },
  {
    name: "shards-transpose-big-f8",
    dtype: "float64",
    shape: [12, 12],
    chunks: [3, 4],
    shards: [6, 12],
    codecs: [transpose(1, 0), BE],
    fill: 0,
    rows: 7,
  },
  {
    name: "shards-u1",
    dtype: "uint8",
    shape: [100],
    chunks: [10],
    shards: [40],
    codecs: [{ name: "bytes" }],
    fill: 0,
    rows: 1,
  },
  {
    name: "names-attributes",
    dtype: "int16",
    shape: [3, 4],
    chunks: [2, 2],
    fill: 0,
    dimensionNames: ["t", "x"],
    attributes: { title: "été", values: [1, 2, 3], nested: { deep: [null, false] } },
  },
];

const STRINGS = ["", "a", "héllo", "日本語", "😀 emoji", "tab\tand\nnewline", "long ".repeat(20)];

/** The whole array's source values, C order: every bit pattern class a type has (NaN, -0, infinities, extremes). */
function sourceValues(dtype: string, n: number): Values {
  if (dtype === "string") return Array.from({ length: n }, (_, i) => `${STRINGS[i % STRINGS.length]}${i}`);
  const Typed = typedArrayConstructor(parseDataTypeV3(dtype).dtype);
  const out = new Typed(n);
  for (let i = 0; i < n; i++) {
    if (out instanceof Float32Array || out instanceof Float64Array) {
      out[i] = [NaN, -0, Infinity, -Infinity, 3.4e38, 5e-324][i] ?? (i - n / 2) * 1.37;
    } else if (out instanceof BigInt64Array || out instanceof BigUint64Array) {
      // Beyond 2^53 both ways, and the extremes.
      const big = BigInt(i) * 0x1234_5678_9abc_defn - 2n ** 62n;
      out[i] = out instanceof BigInt64Array ? BigInt.asIntN(64, big) : BigInt.asUintN(64, big);
    } else if (dtype === "bool") {
      out[i] = i % 3 === 1 ? 1 : 0;
    } else {
      (out as Int32Array)[i] = i * 2654435761 + (i % 2 === 0 ? -7 : 7);
    }
  }
  return out;
}

/** The fill as a JS value of the type: what a missing chunk's elements are. */
function fillElement(c: Case): number | bigint | string {
  if (c.dtype === "string") return c.fill as string;
  if (c.dtype === "bool") return c.fill ? 1 : 0;
  if (c.dtype.endsWith("int64")) return BigInt(c.fill as number);
  return c.fill === "NaN" ? NaN : (c.fill as number);
}

const count = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);
const rowSize = (c: Case): number => count(c.shape.slice(1));
const rowsWritten = (c: Case): number => (c.shape.length === 0 ? 0 : (c.rows ?? c.shape[0]!));

/** The values written: the source's first `rows` rows. */
function written(c: Case): Values {
  const all = sourceValues(c.dtype, count(c.shape));
  return c.shape.length === 0 ? all : all.slice(0, rowsWritten(c) * rowSize(c));
}

/** What reading the whole array must give: the rows written, then the fill. */
function expected(c: Case): Values {
  const all = sourceValues(c.dtype, count(c.shape));
  if (c.shape.length === 0) return all;
  const fill = fillElement(c);
  const from = rowsWritten(c) * rowSize(c);
  if (Array.isArray(all)) return all.map((v, i) => (i < from ? v : (fill as string)));
  (all as { fill(v: number | bigint, start: number): unknown }).fill(fill as never, from);
  return all;
}

/** Values as comparable items: bits in hex for numbers (a NaN's sign and payload count), strings as they are. */
function items(values: ArrayLike<unknown> | Iterable<unknown>): string[] {
  if (Array.isArray(values)) return values.map((v) => JSON.stringify(v));
  const typed = values as TypedArray;
  const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  const size = typed.BYTES_PER_ELEMENT;
  return Array.from({ length: typed.length }, (_, i) =>
    Array.from(bytes.subarray(i * size, (i + 1) * size), (b) => b.toString(16).padStart(2, "0")).join(""),
  );
}

/** A zarrita chunk's elements in C order (zarrita returns C strides for a whole read, but says so in `stride`). */
function zarritaCOrder(chunk: { data: unknown; shape: number[]; stride: number[] }): string[] {
  const flat = items(chunk.data as ArrayLike<unknown>);
  const c = cStrides(chunk.shape);
  if (chunk.stride.every((s, d) => s === c[d] || chunk.shape[d] === 1)) return flat.slice(0, count(chunk.shape));
  const out: string[] = [];
  for (let k = 0; k < count(chunk.shape); k++) {
    const at = chunk.shape.reduce((acc, _, d) => acc + (Math.floor(k / c[d]!) % chunk.shape[d]!) * chunk.stride[d]!, 0);
    out.push(flat[at]!);
  }
  return out;
}

const work = mkdtempSync(join(tmpdir(), "z-zarrita-v3-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("z reads what zarrita.js 0.7.5 writes", () => {
  const root = join(work, "by-zarrita");
  const zarritaRoot = zarrita.root(new ZarritaFileStore(root));

  for (const c of ZARRITA_WRITES) {
    it(`${c.name}: ${c.dtype} ${JSON.stringify(c.codecs)}`, async () => {
      const arr = await zarrita.create(zarritaRoot.resolve(c.name), {
        shape: [...c.shape],
        chunkShape: [...c.chunks],
        dtype: c.dtype as zarrita.DataType,
        codecs: c.codecs!.map((codec) => ({ ...codec, configuration: codec.configuration ?? {} })),
        // zarrita writes the fill as given (it takes "NaN" as zarr.json has it, a number for int64).
        fillValue: c.fill as never,
        ...(c.keys === undefined ? {} : { chunkSeparator: c.keys.separator }),
        ...(c.dimensionNames === undefined ? {} : { dimensionNames: [...c.dimensionNames] }),
        ...(c.attributes === undefined ? {} : { attributes: c.attributes }),
      });
      const values = written(c);
      const shape = [rowsWritten(c), ...c.shape.slice(1)];
      const data = c.dtype === "bool" ? new zarrita.BoolArray((values as Uint8Array).slice().buffer) : values;
      await zarrita.set(arr, [zarrita.slice(0, shape[0]!), ...c.shape.slice(1).map(() => null)], {
        data: data as never,
        shape,
        stride: cStrides(shape),
      });

      const z = await openArray(new DirectoryStore(join(root, c.name)), { mode: "r" });
      expect(z.zarrFormat).toBe(3);
      expect(z.shape).toEqual(c.shape);
      expect(items((await z.get()).data as TypedArray)).toEqual(items(expected(c)));
      // A selection across chunk edges, stepping back: z's indexing over zarrita's chunks.
      const rows = await z.get([slice(null, null, -2)]);
      const want = items(expected(c));
      const cols = rowSize(c);
      const picked = Array.from({ length: Math.ceil(c.shape[0]! / 2) }, (_, k) => c.shape[0]! - 1 - 2 * k).flatMap(
        (r) => want.slice(r * cols, (r + 1) * cols),
      );
      expect(items(rows.data as TypedArray)).toEqual(picked);
      if (c.attributes !== undefined) expect(await z.attrs.asObject()).toEqual(c.attributes);
      if (c.dimensionNames !== undefined) {
        expect((z.metadata as ArrayMetadataV3).dimensionNames).toEqual(c.dimensionNames);
      }
    });
  }

  it("a group zarrita made, with attributes, a group and an array below it", async () => {
    const top = await zarrita.create(zarritaRoot.resolve("tree"), { attributes: { title: "zarrita's", n: 3 } });
    await zarrita.create(top.resolve("inner"), { attributes: { depth: 2 } });
    const leaf = await zarrita.create(top.resolve("inner/leaf"), {
      shape: [3],
      chunkShape: [2],
      dtype: "int32",
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
      fillValue: 4,
      attributes: { kind: "leaf" },
    });
    await zarrita.set(leaf, [zarrita.slice(0, 2)], { data: Int32Array.of(-1, 1), shape: [2], stride: [1] });

    const store = new DirectoryStore(root);
    const g = await openGroup(store, { path: "tree", mode: "r" });
    expect(g.zarrFormat).toBe(3);
    expect(await g.attrs.asObject()).toEqual({ title: "zarrita's", n: 3 });
    expect(await (await openGroup(store, { path: "tree/inner", mode: "r" })).attrs.asObject()).toEqual({ depth: 2 });
    const a = await openArray(store, { path: "tree/inner/leaf", mode: "r" });
    expect(Array.from((await a.get()).data as Int32Array)).toEqual([-1, 1, 4]);
    expect(await a.attrs.asObject()).toEqual({ kind: "leaf" });
  });
});

describe("zarrita.js 0.7.5 reads what z writes", () => {
  const root = join(work, "by-z");
  const zarritaRoot = zarrita.root(new ZarritaFileStore(root));

  for (const c of Z_WRITES) {
    it(`${c.name}: ${c.dtype} ${c.codecs === undefined ? "(z's default chain)" : JSON.stringify(c.codecs)}`, async () => {
      const store = new DirectoryStore(join(root, c.name));
      const z = await create({
        store,
        zarrFormat: 3,
        shape: c.shape,
        chunks: c.chunks,
        dtype: c.dtype,
        fillValue: c.fill === "NaN" ? NaN : c.fill,
        ...(c.codecs === undefined ? {} : { codecs: c.codecs }),
        ...(c.keys === undefined ? {} : { chunkKeyEncoding: c.keys.encoding, dimensionSeparator: c.keys.separator }),
        ...(c.dimensionNames === undefined ? {} : { dimensionNames: c.dimensionNames }),
        ...(c.attributes === undefined ? {} : { attributes: c.attributes }),
        ...(c.shards === undefined ? {} : { shards: c.shards }),
      });
      const values = written(c);
      if (c.shape.length === 0) await z.set(undefined, { data: values as never, shape: [] });
      else {
        const shape = [rowsWritten(c), ...c.shape.slice(1)];
        await z.set([slice(0, shape[0]!)], { data: values as never, shape });
      }

      const arr = await zarrita.open.v3(zarritaRoot.resolve(c.name), { kind: "array" });
      expect(arr.shape).toEqual(c.shape);
      const got = await zarrita.get(arr);
      // A 0-d array reads as its one element (the only 0-d case is float64).
      const read =
        c.shape.length === 0 ? items(Float64Array.of(got as unknown as number)) : zarritaCOrder(got as never);
      expect(read).toEqual(items(expected(c)));
      if (c.attributes !== undefined) expect(arr.attrs).toEqual(c.attributes);
      if (c.dimensionNames !== undefined) expect(arr.dimensionNames).toEqual(c.dimensionNames);
    });
  }

  it("a group z made, with attributes, a group and an array below it (created in the group's format)", async () => {
    const store = new DirectoryStore(join(root, "tree"));
    const top = await group({ store, zarrFormat: 3 });
    await top.attrs.update({ title: "z's", list: [1, "two", null] });
    const inner = await top.createGroup("inner");
    await inner.attrs.set("depth", 2);
    const leaf = await inner.createDataset("leaf", { shape: [3], chunks: [2], dtype: "string", fillValue: "-" });
    await leaf.set([slice(0, 2)], { data: ["α", "β"], shape: [2] });
    await leaf.attrs.set("kind", "leaf");

    const tree = zarrita.root(new ZarritaFileStore(join(root, "tree")));
    const g = await zarrita.open.v3(tree, { kind: "group" });
    expect(g.attrs).toEqual({ title: "z's", list: [1, "two", null] });
    expect((await zarrita.open.v3(tree.resolve("inner"), { kind: "group" })).attrs).toEqual({ depth: 2 });
    const a = await zarrita.open.v3(tree.resolve("inner/leaf"), { kind: "array" });
    expect(a.attrs).toEqual({ kind: "leaf" });
    expect((await zarrita.get(a)).data).toEqual(["α", "β", "-"]);
  });
});
