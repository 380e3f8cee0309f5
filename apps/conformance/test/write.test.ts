/**
 * Writes every case with our library, as the generator did with zarr-python, into
 * `$Z_CONFORMANCE_OUT/<name>/array` (default `apps/conformance/out`). This test only checks that
 * we read back what zarr-python read back. Chunks are encoded in a worker pool, as large writes in
 * Node are; `python/verify.py` then holds what we wrote to what
 * zarr-python wrote (metadata bytes, chunk keys, chunk contents) and reads it with zarr-python.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, openArray } from "@z/core";
import { WorkerPool } from "@z/core/node";
import { decodeFillValue, parseDataType, typedArrayConstructor } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import {
  cOrderBytes,
  describeMismatch,
  extractRegion,
  plainNumbers,
  fixturesDir,
  listCases,
  loadFixture,
  loadSpec,
  outDir,
  regionSelection,
  regionShape,
  writeRegions,
} from "../src/fixtures.js";
import { isObjectCase } from "../src/object-fixtures.js";

const dir = fixturesDir();
const out = outDir();
// Object arrays have JSON fixtures of their own (object-arrays.test.ts).
const cases = listCases(dir).filter((name) => !isObjectCase(loadSpec(join(dir, name))));
// No minimum size: every write of two or more chunks goes through the pool's threads.
const pool = new WorkerPool({ size: 2, minBytes: 0 });
beforeAll(() => pool.warm());
afterAll(() => pool.close());

describe(`writing every case with our library (into ${out})`, () => {
  it("has cases", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  for (const name of cases) {
    it(name, async () => {
      const { spec, values, expected } = loadFixture(join(dir, name));
      const dtype = parseDataType(spec.dtype);
      const caseDir = join(out, name);
      await rm(caseDir, { recursive: true, force: true });
      const store = new DirectoryStore(join(caseDir, "array"));

      const arr = await create({
        store,
        shape: spec.shape,
        chunks: spec.chunks,
        dtype,
        compressor: spec.compressor,
        fillValue: decodeFillValue(plainNumbers(spec.fill_value), dtype),
        order: spec.order,
        filters: spec.filters,
        ...(spec.dimension_separator === undefined ? {} : { dimensionSeparator: spec.dimension_separator }),
      });
      const Typed = typedArrayConstructor(dtype);
      for (const region of writeRegions(spec)) {
        const bytes = extractRegion(values, spec.shape, dtype.itemsize, region);
        const data = new Typed(bytes.buffer, bytes.byteOffset, bytes.length / Typed.BYTES_PER_ELEMENT);
        await arr.set(regionSelection(region), { data, shape: regionShape(region) }, { pool });
      }

      const nd = await (await openArray(store, { mode: "r" })).get();
      expect(nd.shape).toEqual(spec.shape);
      expect(describeMismatch(cOrderBytes(nd), expected, dtype.itemsize, spec.shape)).toBe("");
    });
  }
});
