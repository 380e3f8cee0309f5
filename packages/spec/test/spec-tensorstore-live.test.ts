/**
 * Specs checked against TensorStore 0.1.85 itself, both ways (python/tensorstore_spec_live.py), zarr2
 * and zarr3 ones: arrays z creates from a spec and writes are opened by TensorStore with the same
 * spec and hold the same values, with the same .zarray (zarr.json) text and the same stored chunk
 * keys (chunks equal to the fill value stored or not, per `store_data_equal_to_fill_value`); arrays
 * TensorStore creates and writes are opened by z with the same spec and read the same; a read
 * touching a missing chunk with `fill_missing_data_reads: false` fails in both. TensorStore comes
 * from the venv apps/bench/python/ensure-tensorstore.sh makes (installing it the first time, from
 * pip's configured index); without it the test fails, naming what to install.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MissingChunkError, slice, ZarrArray, type Slice } from "@z/core";
import type { SpecArray, SpecFieldView } from "@z/spec";
import { openSpec } from "@z/spec/node";
import { typedArrayConstructor, type JsonValue, type TypedArray } from "@z/meta";
import { requireTool } from "../../../scripts/test-child/tools.js";

const root = new URL("../../../", import.meta.url).pathname;
const ensure = spawnSync("bash", [join(root, "apps/bench/python/ensure-tensorstore.sh")], {
  encoding: "utf8",
  timeout: 900_000,
});
const python = ensure.status === 0 ? ensure.stdout.trim().split("\n").pop() : undefined;
const script = new URL("./python/tensorstore_spec_live.py", import.meta.url).pathname;

interface Case {
  name: string;
  spec: Record<string, JsonValue>;
  /** The region written with value(j), over the view's dimensions. */
  write: [number, number][];
  /** A region then written with the fill value. */
  write_fill?: [number, number][];
  strict_read?: boolean;
}

const rec = {
  dtype: [
    ["x", "<u2", [2, 3]],
    ["y", "<f4", [5]],
  ],
  shape: [6, 5],
  chunks: [4, 2],
  fill_value: "AQACAAMABAAFAAYAAAAgQQAAMEEAAEBBAABQQQAAYEE=",
};
const CASES: Case[] = [
  {
    name: "u2-zlib",
    spec: {
      metadata: { dtype: "<u2", shape: [30, 40], chunks: [7, 9], fill_value: 3, compressor: { id: "zlib", level: 1 } },
    },
    write: [
      [0, 20],
      [0, 30],
    ],
  },
  {
    name: "f4-aspect-ratio",
    spec: {
      schema: {
        dtype: "float32",
        domain: { shape: [50, 60, 3] },
        fill_value: 0.5,
        chunk_layout: { chunk: { aspect_ratio: [1, 2, 0], elements: 500 } },
      },
    },
    write: [
      [5, 15],
      [0, 60],
      [0, 3],
    ],
  },
  {
    name: "i8-big-endian-F",
    spec: {
      metadata: { dtype: ">i8", shape: [9, 11], order: "F", compressor: { id: "blosc", cname: "zstd", shuffle: 2 } },
    },
    write: [
      [0, 9],
      [2, 7],
    ],
  },
  {
    name: "field-x",
    spec: { metadata: rec, field: "x" },
    write: [
      [0, 3],
      [1, 5],
      [0, 2],
      [0, 3],
    ],
  },
  {
    name: "field-y",
    spec: { metadata: rec, field: "y" },
    write: [
      [2, 6],
      [0, 5],
      [1, 4],
    ],
  },
  {
    name: "bfloat16-slash",
    spec: {
      metadata: { dtype: "bfloat16", shape: [20, 20], chunks: [6, 6] },
      key_encoding: "/",
      schema: { fill_value: 1.5 },
    },
    write: [
      [0, 12],
      [3, 15],
    ],
  },
  {
    name: "store-fill-chunks",
    spec: {
      metadata: { dtype: "|u1", shape: [8, 8], chunks: [4, 4], fill_value: 0 },
      store_data_equal_to_fill_value: true,
    },
    write: [
      [0, 4],
      [0, 4],
    ],
    write_fill: [
      [4, 8],
      [0, 4],
    ],
  },
  {
    name: "skip-fill-chunks",
    spec: { metadata: { dtype: "|u1", shape: [8, 8], chunks: [4, 4], fill_value: 0 } },
    write: [
      [0, 4],
      [0, 4],
    ],
    write_fill: [
      [4, 8],
      [0, 4],
    ],
  },
  {
    name: "no-fill-value-zeros",
    spec: { metadata: { dtype: "<i4", shape: [8], chunks: [4], fill_value: null } },
    write: [[0, 8]],
    write_fill: [[4, 8]],
  },
  { name: "rank-0", spec: { metadata: { dtype: "<f8", shape: [] } }, write: [] },
  { name: "int4", spec: { metadata: { dtype: "int4", shape: [10], chunks: [4], fill_value: -2 } }, write: [[2, 9]] },
  { name: "complex64", spec: { schema: { dtype: "complex64", domain: { shape: [6] } } }, write: [[1, 5]] },
  {
    name: "bool",
    spec: { schema: { dtype: "bool", domain: { shape: [7, 3] } } },
    write: [
      [0, 7],
      [0, 2],
    ],
  },
  {
    name: "missing-chunks",
    spec: { metadata: { dtype: "<i2", shape: [10, 10], chunks: [5, 5] } },
    write: [
      [0, 5],
      [0, 5],
    ],
    strict_read: true,
  },
  {
    name: "metadata-key",
    spec: { metadata: { dtype: "<u4", shape: [5, 5], chunks: [2, 5] }, metadata_key: "zarray" },
    write: [
      [1, 4],
      [0, 5],
    ],
  },
  // zarr3: the zarr.json TensorStore writes, its default codecs and chunk keys.
  {
    name: "v3-u2-gzip",
    spec: {
      driver: "zarr3",
      metadata: {
        data_type: "uint16",
        shape: [30, 40],
        chunk_grid: { name: "regular", configuration: { chunk_shape: [7, 9] } },
        fill_value: 3,
        codecs: ["gzip"],
      },
    },
    write: [
      [0, 20],
      [0, 30],
    ],
  },
  {
    name: "v3-f4-blosc-aspect-ratio",
    spec: {
      driver: "zarr3",
      schema: {
        dtype: "float32",
        domain: { shape: [50, 60, 3] },
        fill_value: 0.5,
        chunk_layout: { chunk: { aspect_ratio: [1, 2, 0], elements: 500 } },
        codec: { driver: "zarr3", codecs: ["blosc"] },
      },
    },
    write: [
      [5, 15],
      [0, 60],
      [0, 3],
    ],
  },
  {
    name: "v3-i8-big-endian-transpose",
    spec: {
      driver: "zarr3",
      metadata: {
        data_type: "int64",
        shape: [9, 11],
        chunk_grid: { name: "regular", configuration: { chunk_shape: [4, 5] } },
        codecs: [
          { name: "transpose", configuration: { order: "F" } },
          { name: "bytes", configuration: { endian: "big" } },
          { name: "zstd", configuration: { level: 5, checksum: true } },
          "crc32c",
        ],
      },
    },
    write: [
      [0, 9],
      [2, 7],
    ],
  },
  {
    name: "v3-inner-order",
    spec: {
      driver: "zarr3",
      metadata: { data_type: "int32", shape: [10, 12] },
      schema: { chunk_layout: { inner_order: [1, 0], chunk: { shape: [5, 4] } } },
    },
    write: [
      [1, 9],
      [0, 12],
    ],
  },
  {
    name: "v3-bfloat16-v2-keys",
    spec: {
      driver: "zarr3",
      metadata: {
        data_type: "bfloat16",
        shape: [20, 20],
        chunk_grid: { name: "regular", configuration: { chunk_shape: [6, 6] } },
        chunk_key_encoding: { name: "v2" },
        fill_value: "0x3fa0",
      },
    },
    write: [
      [0, 12],
      [3, 15],
    ],
  },
  {
    name: "v3-dot-keys-names-units",
    spec: {
      driver: "zarr3",
      metadata: {
        data_type: "float64",
        shape: [8, 6],
        chunk_key_encoding: { name: "default", configuration: { separator: "." } },
        dimension_names: ["y", null],
        attributes: { title: "t" },
      },
      schema: { dimension_units: ["4nm", [2, "s"]], chunk_layout: { chunk: { shape: [3, 3] } } },
    },
    write: [
      [2, 8],
      [0, 6],
    ],
  },
  {
    name: "v3-store-fill-chunks",
    spec: {
      driver: "zarr3",
      metadata: {
        data_type: "uint8",
        shape: [8, 8],
        chunk_grid: { name: "regular", configuration: { chunk_shape: [4, 4] } },
      },
      store_data_equal_to_fill_value: true,
    },
    write: [
      [0, 4],
      [0, 4],
    ],
    write_fill: [
      [4, 8],
      [0, 4],
    ],
  },
  {
    name: "v3-skip-fill-chunks",
    spec: {
      driver: "zarr3",
      metadata: {
        data_type: "uint8",
        shape: [8, 8],
        chunk_grid: { name: "regular", configuration: { chunk_shape: [4, 4] } },
      },
    },
    write: [
      [0, 4],
      [0, 4],
    ],
    write_fill: [
      [4, 8],
      [0, 4],
    ],
  },
  { name: "v3-rank-0", spec: { driver: "zarr3", metadata: { data_type: "float64", shape: [] } }, write: [] },
  {
    name: "v3-int4",
    spec: { driver: "zarr3", metadata: { data_type: "int4", shape: [10], fill_value: -2 } },
    write: [[2, 9]],
  },
  {
    name: "v3-complex64",
    spec: { driver: "zarr3", metadata: { data_type: "complex64", shape: [6], fill_value: [1.5, -2.5] } },
    write: [[1, 5]],
  },
  {
    name: "v3-bool",
    spec: { driver: "zarr3", schema: { dtype: "bool", domain: { shape: [7, 3] } } },
    write: [
      [0, 7],
      [0, 2],
    ],
  },
  {
    name: "v3-missing-chunks",
    spec: {
      driver: "zarr3",
      metadata: {
        data_type: "int16",
        shape: [10, 10],
        chunk_grid: { name: "regular", configuration: { chunk_shape: [5, 5] } },
      },
    },
    write: [
      [0, 5],
      [0, 5],
    ],
    strict_read: true,
  },
];

/** The j-th value written (python/tensorstore_spec_live.py's `value`). */
function value(dtype: string, j: number): number | boolean | bigint | [number, number] {
  if (dtype === "bool") return j % 3 === 0;
  if (dtype === "int4") return (j % 7) - 3;
  if (/^u?int/.test(dtype)) return dtype.endsWith("64") ? BigInt((j * 7 + 3) % 100) : (j * 7 + 3) % 100;
  if (dtype.startsWith("complex")) return [j * 0.25 - 10, j];
  return j * 0.25 - 10;
}

const isView = (a: SpecArray): a is SpecFieldView => !(a instanceof ZarrArray);
const tsDtype = (a: SpecArray): string =>
  isView(a)
    ? a.tsDtype
    : a.dtype.kind === "x"
      ? a.dtype.extension!
      : a.dtype.kind === "b"
        ? "bool"
        : `${{ i: "int", u: "uint", f: "float", c: "complex" }[a.dtype.kind as "i"]}${8 * a.dtype.itemsize}`;

/** Values of the view's data type for `n` elements from value(0). */
function valuesOf(a: SpecArray, n: number, fill?: number): TypedArray {
  const name = tsDtype(a);
  const Ctor = typedArrayConstructor(a.dtype);
  const complex = name.startsWith("complex");
  const out = new Ctor(n * (complex ? 2 : 1));
  for (let j = 0; j < n; j++) {
    const v = fill ?? value(name, j);
    if (Array.isArray(v)) [out[2 * j], out[2 * j + 1]] = v;
    else (out as unknown as (number | bigint)[])[j] = typeof v === "boolean" ? Number(v) : v;
  }
  return out;
}

/** Every element of the array as python/tensorstore_spec_live.py's `plain` gives them. */
async function plainValues(a: SpecArray): Promise<unknown[]> {
  const { data } = await a.get();
  const name = tsDtype(a);
  const flat = Array.from(data as ArrayLike<number | bigint>, (v) => (typeof v === "bigint" ? Number(v) : v));
  if (name.startsWith("complex")) return flat.flatMap((_, i) => (i % 2 === 0 ? [[flat[i], flat[i + 1]]] : []));
  if (name === "bool") return flat.map((v) => v !== 0);
  return flat;
}

const region = (r: [number, number][]): Slice[] => r.map(([a, b]) => slice(a, b));

async function write(a: SpecArray, c: Case, fill?: number): Promise<void> {
  const r = fill === undefined ? c.write : c.write_fill!;
  const shape = r.map(([x, y]) => y - x);
  const n = shape.reduce((x, y) => x * y, 1);
  const data = { data: valuesOf(a, n, fill), shape };
  if (isView(a)) await a.set(region(r), data);
  else await a.set(r.length === 0 ? [] : region(r), data);
}

/** Stored keys under `dir` (relative, `/`-separated). */
function keysUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split("\\").join("/"));
    }
  };
  walk(dir);
  return out.sort();
}

const dir = mkdtempSync(join(tmpdir(), "z-spec-live-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const casesFile = join(dir, "cases.json");
writeFileSync(casesFile, JSON.stringify(CASES));
const tensorstore = (command: "write" | "read", under: string): Record<string, Record<string, unknown>> =>
  JSON.parse(execFileSync(python!, [script, command, casesFile, under], { encoding: "utf8", maxBuffer: 64 << 20 }));
const specFor = (c: Case, under: string): JsonValue => ({
  driver: "zarr2",
  kvstore: { driver: "file", path: `${join(under, c.name)}/` },
  ...c.spec,
});

// The script above installs TensorStore when it is missing: its failure is this test's.
it("has TensorStore 0.1.85 (apps/bench/python/ensure-tensorstore.sh)", () => {
  expect(ensure.stderr.slice(-2000), "apps/bench/python/ensure-tensorstore.sh failed").toBe(
    ensure.status === 0 ? ensure.stderr.slice(-2000) : "",
  );
  expect(python).toBeDefined();
});

describe("specs against TensorStore 0.1.85", () => {
  requireTool("tensorstore", python !== undefined);
  it("TensorStore reads what z created and wrote from each spec, as z reads it, from the same .zarray and keys", async () => {
    const zDir = join(dir, "z");
    const ours: Record<string, { values: unknown[]; keys: string[] }> = {};
    for (const c of CASES) {
      const a = await openSpec({ ...(specFor(c, zDir) as object), create: true });
      await write(a, c);
      if (c.write_fill !== undefined) await write(a, c, isView(a) ? 0 : Number(0));
      ours[c.name] = { values: await plainValues(a), keys: keysUnder(join(zDir, c.name)) };
    }
    const theirs = tensorstore("read", zDir);
    const tsDir = join(dir, "ts");
    const written = tensorstore("write", tsDir);
    for (const c of CASES) {
      const t = theirs[c.name]!;
      expect(t.error, c.name).toBeUndefined();
      expect(t.values, `${c.name}: TensorStore's read of z's array`).toEqual(ours[c.name]!.values);
      // The same .zarray text, and the same chunks stored, as when TensorStore creates and writes it.
      expect(t.zarray, `${c.name}: .zarray`).toBe(written[c.name]!.zarray);
      expect(ours[c.name]!.keys, `${c.name}: stored keys`).toEqual(written[c.name]!.keys);
      if (c.strict_read) expect(t.strict_error, c.name).toMatch(/.+/);
    }
  }, 300_000);

  it("z reads what TensorStore created and wrote from each spec, as TensorStore reads it", async () => {
    const tsDir = join(dir, "ts2");
    const written = tensorstore("write", tsDir);
    for (const c of CASES) {
      const t = written[c.name]!;
      expect(t.error, c.name).toBeUndefined();
      const a = await openSpec(specFor(c, tsDir));
      expect([[...a.shape], tsDtype(a)], c.name).toEqual([t.shape, t.dtype]);
      expect(await plainValues(a), `${c.name}: z's read of TensorStore's array`).toEqual(t.values);
      if (c.strict_read) {
        const strict = await openSpec({ ...(specFor(c, tsDir) as object), fill_missing_data_reads: false });
        await expect(strict.get()).rejects.toBeInstanceOf(MissingChunkError);
        const one = await strict.get([slice(0, 5), slice(0, 5)]);
        expect(one.shape).toEqual([5, 5]);
      }
    }
  }, 300_000);
});
