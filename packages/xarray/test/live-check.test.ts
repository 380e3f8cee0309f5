// Live check, step 3 (scripts/live.sh runs it with Z_XARRAY_OUT after python/xarray_read.py):
// xarray read every store toZarr wrote. What it read must be what openDataset reads from the same
// store, bit for bit and with the same encoding, and must be the dataset that was written: same
// dimensions, coordinates, attributes, dtypes and values (but for what writing changes as xarray
// changes it, see `written` below).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseJson } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { describe, expect, it } from "vitest";
import { type Dataset, openDataset } from "../src/index.js";
import {
  caseNames,
  comparable,
  type ExpectedDataset,
  expectDataset,
  expectValues,
  FIXTURES,
  openOptions,
  readCase,
} from "./expected.js";
import { builtDatasets, readBackAs } from "./written.js";

const OUT = process.env.Z_XARRAY_OUT;

function readBack(name: string): ExpectedDataset {
  const doc = parseJson(readFileSync(join(OUT!, `${name}.read.json`))) as unknown as {
    dataset?: ExpectedDataset;
    error?: string;
  };
  if (doc.error !== undefined) throw new Error(`xarray could not open ${name}.zarr: ${doc.error}`);
  return doc.dataset!;
}

/**
 * The written dataset, as what xarray read: same dimensions, coordinates and attributes; each
 * variable's dims, attrs, dtype and values as `readBackAs` says writing changes them (as xarray's
 * to_zarr changes them). Values stored as floats of a unit or packed are compared only through
 * openDataset above (they are rounded as xarray rounds them, which to-zarr.test.ts checks).
 */
async function expectWritten(source: Dataset, xarray: ExpectedDataset, where: string): Promise<void> {
  const sorted = (names: Iterable<string>): string[] => [...names].sort();
  expect(sorted(source.variables.keys()), `${where}: variables`).toEqual(sorted(xarray.variable_order));
  expect(sorted(source.coords), `${where}: coords`).toEqual(sorted(xarray.coords));
  expect(source.sizes, `${where}: sizes`).toEqual(xarray.dims);
  expect(pythonEqual(source.attrs), `${where}: attrs`).toEqual(pythonEqual(xarray.attrs));
  for (const [name, variable] of source.variables) {
    const want = xarray.variables[name]!;
    const at = `${where}: ${name}`;
    const { attrs, values } = readBackAs(variable.encoding, variable.attrs, await variable.values());
    expect(variable.dims, `${at}: dims`).toEqual(want.dims);
    expect(pythonEqual(attrs), `${at}: attrs`).toEqual(pythonEqual(want.attrs));
    expect(values.dtype, `${at}: dtype`).toBe(want.dtype);
    const rounded =
      variable.encoding.scale_factor !== undefined ||
      (typeof variable.encoding.units === "string" && /since/.test(variable.encoding.units)) ||
      values.dtype === "float16";
    if (!rounded) expectValues(values, want, at);
  }
}

/** JSON as Python compares it: booleans equal to 0 and 1. */
const pythonEqual = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(comparable(value), (_, v) => (typeof v === "boolean" ? Number(v) : v)));

async function check(name: string, source: Dataset, options: Record<string, unknown>): Promise<void> {
  const xarray = readBack(name);
  const ours = await openDataset(new DirectoryStore(join(OUT!, `${name}.zarr`)), options);
  // Both decoders on the same store: the same, encoding included.
  await expectDataset(ours, xarray, `${name}: openDataset and xarray`);
  // And it is what was written.
  await expectWritten(source, xarray, `${name}: written and xarray`);
}

describe("live: xarray reads what toZarr wrote", () => {
  for (const name of caseNames()) {
    it(`fixture ${name}`, async () => {
      // A dataset xarray itself cannot write back, which toZarr refused too (live-write.test.ts).
      if (existsSync(join(OUT!, `fixture-${name}.skipped`))) return;
      const expected = readCase(name);
      const options = { consolidated: expected.consolidated, ...openOptions(expected.open) };
      const source = await openDataset(new DirectoryStore(join(FIXTURES, `${name}.zarr`)), options);
      await check(`fixture-${name}`, source, { ...options, consolidated: true });
    });
  }
  for (const [name, built] of Object.entries(builtDatasets())) {
    it(name, async () => {
      const source = built.then ?? built.dataset;
      await check(name, source, {
        consolidated: built.write?.consolidated ?? true,
        ...openOptions((built.open ?? {}) as never),
      });
      expect(source).toBeDefined();
    });
  }
});
