/**
 * Zarr v3 against TensorStore 0.1.85's zarr3 driver, both ways. z reads every array TensorStore
 * wrote (fixtures/tensorstore-v3: every data type TensorStore writes, fill values with NaN
 * payloads and infinities, codec chains, the four chunk key encodings, 0-d, empty and partial
 * edge shapes) bit for bit as TensorStore reads it; z writes each case with `create({zarrFormat:
 * 3})` and TensorStore, in one Python process, reads it back as the same values, metadata and
 * chunk keys; and TensorStore makes the committed fixtures again, byte for byte.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, MemoryStore, openArray } from "@z/core";
import { WorkerPool } from "@z/core/node";
import { typedArrayConstructor, valuesPerElement, type DataType } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { requireTool, tensorstorePython } from "../../../scripts/test-child/tools.js";
import {
  cOrderBytes,
  describeMismatch,
  extractRegion,
  regionSelection,
  regionShape,
  type Region,
} from "../src/fixtures.js";
import {
  createOptionsLike,
  expectedValues,
  loadManifest,
  runTensorStore,
  tensorstoreMetadata,
  tensorstoreV3Dir,
} from "../src/tensorstore-v3.js";

/**
 * Cases z's `create` refuses, and why. A float fill whose NaN is not the type's "NaN" (a payload,
 * a negative NaN, a signalling one) is one z reads, and holds as the element's bits, but `create`
 * takes float fills as numbers only, as zarr-python 3 does (which writes any NaN as "NaN").
 */
const REFUSED_BY_CREATE: Record<string, RegExp> = Object.fromEntries(
  [
    "fill-bf16-nan-payload",
    "fill-c16-hex-parts",
    "fill-f2-nan-payload",
    "fill-f4-nan-payload",
    "fill-f4-negative-nan",
    "fill-f8-nan-payload",
    "fill-f8-signalling-nan",
  ].map((name) => [name, /Invalid fill_value .* found \d+ bytes/]),
);

const dir = tensorstoreV3Dir();
const manifest = loadManifest(dir);
const names = Object.keys(manifest).sort();
const written = names.filter((name) => !(name in REFUSED_BY_CREATE));

/** Bytes per element of what z's `get` gives (a float32 for an extension float, re and im for complex). */
const elementBytes = (dtype: DataType): number =>
  typedArrayConstructor(dtype).BYTES_PER_ELEMENT * valuesPerElement(dtype);

/** The C-order bytes of what z's `get` gave (`cOrderBytes` with the elements z's `get` holds). */
const valuesOf = (nd: Parameters<typeof cOrderBytes>[0], dtype: DataType): Uint8Array =>
  cOrderBytes({ ...nd, dtype: { itemsize: elementBytes(dtype) } });

/** The array's values in `region`, as the typed array z's `set` takes. */
function regionData(values: Uint8Array, shape: readonly number[], dtype: DataType, region: Region) {
  const bytes = extractRegion(values, shape, elementBytes(dtype), region);
  const Typed = typedArrayConstructor(dtype);
  return { data: new Typed(bytes.buffer, 0, bytes.length / Typed.BYTES_PER_ELEMENT), shape: regionShape(region) };
}

/** Every file below `root`, as sorted paths relative to it. */
const filesUnder = (root: string): string[] =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();

// No minimum size: every read of two or more chunks goes through the pool's threads.
const pool = new WorkerPool({ size: 2, minBytes: 0 });
beforeAll(() => pool.warm());
afterAll(() => pool.close());

describe(`z reads TensorStore's v3 arrays (${dir})`, () => {
  it("has every case of the manifest, one directory each", () => {
    const dirs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(dirs.map((e) => e.name).sort()).toEqual(names);
    expect(names.filter((n) => n.startsWith("dtype-")).length).toBe(25);
  });

  for (const name of names) {
    const open = () => openArray(new DirectoryStore(join(dir, name, "array")), { mode: "r" });
    const expected = expectedValues(dir, name);

    it(`${name}: the whole array, missing chunks as the fill, as TensorStore reads it`, async () => {
      const arr = await open();
      expect(arr.zarrFormat).toBe(3);
      const nd = await arr.get();
      expect(nd.shape).toEqual(arr.shape);
      expect(describeMismatch(valuesOf(nd, arr.dtype), expected, elementBytes(arr.dtype), arr.shape)).toBe("");
      const pooled = await arr.get(undefined, { pool });
      expect(describeMismatch(valuesOf(pooled, arr.dtype), expected, elementBytes(arr.dtype), arr.shape)).toBe("");
    });

    it(`${name}: a region from index 1 of each dimension (a partial read of the edge chunks)`, async () => {
      const arr = await open();
      const region: Region = arr.shape.map((s) => [Math.min(1, s), s] as const);
      const nd = await arr.get(regionSelection(region));
      const size = elementBytes(arr.dtype);
      expect(
        describeMismatch(valuesOf(nd, arr.dtype), extractRegion(expected, arr.shape, size, region), size, nd.shape),
      ).toBe("");
    });
  }
});

const out = process.env.Z_CONFORMANCE_TENSORSTORE_V3_OUT || mkdtempSync(join(tmpdir(), "z-tensorstore-v3-"));
afterAll(() => {
  if (!process.env.Z_CONFORMANCE_TENSORSTORE_V3_OUT) rmSync(out, { recursive: true, force: true });
});

describe(`z writes every case with create({ zarrFormat: 3 }) (into ${out})`, () => {
  for (const [name, refusal] of Object.entries(REFUSED_BY_CREATE)) {
    it(`${name}: refused (a float fill given by its bits)`, async () => {
      const options = createOptionsLike(tensorstoreMetadata(dir, name));
      expect(options.fillValue).toBeInstanceOf(Uint8Array);
      await expect(create({ ...options, store: new MemoryStore() })).rejects.toThrow(refusal);
    });
  }

  for (const name of written) {
    it(`${name}: the regions TensorStore wrote, read back as TensorStore read its own`, async () => {
      const meta = tensorstoreMetadata(dir, name);
      const expected = expectedValues(dir, name);
      const store = new DirectoryStore(join(out, name, "array"));
      const arr = await create({ ...createOptionsLike(meta), store, overwrite: true });
      for (const region of manifest[name]!.writes) {
        await arr.set(regionSelection(region), regionData(expected, meta.shape, meta.dtype, region), { pool });
      }
      const again = await (await openArray(store, { mode: "r" })).get();
      expect(describeMismatch(valuesOf(again, meta.dtype), expected, elementBytes(meta.dtype), meta.shape)).toBe("");
    });
  }
});

describe("TensorStore 0.1.85 reads what z wrote (one python process)", () => {
  requireTool("tensorstore", tensorstorePython !== undefined);
  let report: Record<string, string[]> = {};
  beforeAll(() => {
    if (tensorstorePython === undefined) return;
    report = JSON.parse(runTensorStore(tensorstorePython, ["verify", dir, out])) as Record<string, string[]>;
  }, 300_000);

  it("reports on every case z wrote", () => {
    expect(Object.keys(report).sort()).toEqual(written);
  });

  for (const name of written) {
    it(`${name}: the same values, chunk keys and metadata as TensorStore's own`, () => {
      expect(report[name]).toEqual([]);
    });
  }
});

describe("TensorStore 0.1.85 makes the committed fixtures again", () => {
  requireTool("tensorstore", tensorstorePython !== undefined);

  it("the same files, byte for byte", () => {
    const fresh = mkdtempSync(join(tmpdir(), "z-tensorstore-v3-fresh-"));
    try {
      runTensorStore(tensorstorePython!, ["generate", fresh]);
      const files = filesUnder(dir);
      expect(filesUnder(fresh)).toEqual(files);
      const differing = files.filter((f) => !readFileSync(join(fresh, f)).equals(readFileSync(join(dir, f))));
      expect(differing).toEqual([]);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }, 300_000);
});
