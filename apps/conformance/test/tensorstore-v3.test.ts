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
import {
  typedArrayConstructor,
  valuesPerElement,
  type ByteRange,
  type DataType,
  type JsonValue,
  type Store,
} from "@z/meta";
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

/**
 * Whether z writes a chain's bytes as TensorStore does: every codec but `gzip`, whose deflate
 * streams are z's own (TensorStore's are zlib's); blosc and zstd are the same C libraries.
 */
function sameBytes(codecs: JsonValue): boolean {
  if (!Array.isArray(codecs)) return true; // TensorStore's default chain: bytes
  return (codecs as readonly JsonValue[]).every((c) => {
    const { name, configuration } = c as { name: string; configuration?: Record<string, JsonValue> };
    if (name === "sharding_indexed")
      return sameBytes(configuration!.codecs ?? null) && sameBytes(configuration!.index_codecs ?? null);
    return name !== "gzip";
  });
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

/** The store at `root` seen through `get` and `getRange` only (no reads on this thread), counting reads of chunks. */
function countingStore(root: string) {
  const store = new DirectoryStore(root);
  const seen = { gets: 0, ranges: 0 };
  return {
    seen,
    store: {
      get: (key: string) => {
        if (key === "c" || key.startsWith("c/")) seen.gets++;
        return store.get(key);
      },
      getRange: (key: string, range: ByteRange) => {
        seen.ranges++;
        return store.getRange(key, range);
      },
    },
  };
}

/** Windows one inner chunk large, each starting one element past an inner chunk's corner. */
function innerWindows(shape: readonly number[], inner: readonly number[]): Region[] {
  let windows: Region[] = [[]];
  shape.forEach((n, d) => {
    const c = inner[d]!;
    const starts = Array.from({ length: Math.ceil(n / c) }, (_, k) => Math.min(k * c + 1, n - 1));
    windows = windows.flatMap((w) => starts.map((start) => [...w, [start, Math.min(start + c, n)] as const]));
  });
  return windows;
}

describe("z reads windows of TensorStore's sharded arrays by ranges (a shard's index, then its inner chunks)", () => {
  const sharded = names.filter(
    (name) => name.startsWith("shard-") && (manifest[name]!.metadata.shape as readonly number[]).length > 0,
  );
  for (const name of sharded) {
    const meta = tensorstoreMetadata(dir, name);
    const codecs = meta.codecs;
    // The inner chunk shape of the outer shard (a transpose before it permutes the array's axes).
    const config = codecs[codecs.length - 1]!.configuration as { chunk_shape: number[] };
    const inner = codecs.length === 1 ? config.chunk_shape : meta.chunkShape;
    // Read by ranges when the shard is the chain's one codec and holds more than one inner chunk.
    const byRanges = codecs.length === 1 && inner.some((c, d) => c < meta.chunkShape[d]!);

    /** Reads every window of an inner chunk's size from `store`, each checked against TensorStore's values. */
    async function readEveryWindow(store: Store): Promise<void> {
      const arr = await openArray(store, { mode: "r" });
      const expected = expectedValues(dir, name);
      const size = elementBytes(arr.dtype);
      for (const window of innerWindows(arr.shape, inner)) {
        const nd = await arr.get(regionSelection(window));
        expect(
          describeMismatch(valuesOf(nd, arr.dtype), extractRegion(expected, arr.shape, size, window), size, nd.shape),
          JSON.stringify(window),
        ).toBe("");
      }
    }

    it(`${name}: every window of an inner chunk's size, as TensorStore reads it`, async () => {
      const { store, seen } = countingStore(join(dir, name, "array"));
      await readEveryWindow(store);
      if (byRanges) expect(seen).toEqual({ gets: 0, ranges: expect.any(Number) });
      else expect(seen.ranges).toBe(0);
    });

    // From the directory itself, which reads on this thread: an inner chunk a window needs part of
    // is read by that part (for blosc, its header, block table and the blocks the window needs).
    it(`${name}: every window of an inner chunk's size read from the directory by parts, as TensorStore reads it`, async () => {
      const store = new DirectoryStore(join(dir, name, "array"));
      let syncRanges = 0;
      const into = store.getRangeSyncInto.bind(store);
      store.getRangeSyncInto = (key, range, buffer) => (syncRanges++, into(key, range, buffer));
      await readEveryWindow(store);
      if (byRanges) expect(syncRanges).toBeGreaterThan(0);
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
  let differing: Record<string, string[]> = {};
  beforeAll(() => {
    if (tensorstorePython === undefined) return;
    const verified = JSON.parse(runTensorStore(tensorstorePython, ["verify", dir, out])) as {
      problems: Record<string, string[]>;
      differing: Record<string, string[]>;
    };
    report = verified.problems;
    differing = verified.differing;
  }, 300_000);

  it("reports on every case z wrote", () => {
    expect(Object.keys(report).sort()).toEqual(written);
  });

  for (const name of written) {
    it(`${name}: the same values, chunk keys and metadata as TensorStore's own`, () => {
      expect(report[name]).toEqual([]);
    });
  }

  const sharded = written.filter((name) => name.startsWith("shard-"));
  // TensorStore stores an int4's negative values as their low 4 bits (0x08 for -8) but its fill as
  // a sign-extended byte (0xf8); z stores both sign-extended. Either reads as the same values.
  const exact = sharded.filter(
    (name) => sameBytes(manifest[name]!.metadata.codecs as JsonValue) && manifest[name]!.metadata.data_type !== "int4",
  );
  it("has sharded cases of every kind: index at the end and the start, nested, compressed inner chunks", () => {
    expect(sharded.length).toBe(22);
    expect(exact.length).toBe(19);
  });

  for (const name of exact) {
    it(`${name}: every shard z stored is TensorStore's, byte for byte`, () => {
      expect(differing[name]).toEqual([]);
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
