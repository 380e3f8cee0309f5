// datasetRepr prints what xarray prints for the same store (`repr(xr.open_dataset(path,
// engine="zarr"))`, recorded by xarray_fixtures.py), character for character.
import { join } from "node:path";
import { DirectoryStore } from "@z/store-fs";
import { describe, expect, it } from "vitest";
import { datasetRepr, openDataset } from "../src/index.js";
import { formatG4 } from "../src/repr.js";
import { caseNames, FIXTURES, openOptions, readCase } from "./expected.js";

describe("datasetRepr prints what xarray prints", () => {
  for (const name of caseNames()) {
    it(name, async () => {
      const expected = readCase(name) as unknown as ReturnType<typeof readCase> & { repr: string };
      const ds = await openDataset(new DirectoryStore(join(FIXTURES, `${name}.zarr`)), {
        consolidated: expected.consolidated,
        ...openOptions(expected.open),
      });
      expect(await datasetRepr(ds)).toBe(expected.repr);
    });
  }

  it("formats floats as Python's format(x, '.4'), ties to even on the exact binary value", () => {
    const cases: [number, string][] = [
      [10, "10.0"],
      [-46.666666666666664, "-46.67"],
      [273.15, "273.1"],
      [0.125, "0.125"],
      [0.00012345, "0.0001234"],
      [12345.6, "1.235e+04"],
      [1e-5, "1e-05"],
      [1234, "1.234e+03"],
      [999.94, "999.9"],
      [9999.5, "1e+04"],
      [0.5, "0.5"],
      [NaN, "nan"],
      [-Infinity, "-inf"],
    ];
    for (const [x, text] of cases) expect(formatG4(x), String(x)).toBe(text);
  });
});
