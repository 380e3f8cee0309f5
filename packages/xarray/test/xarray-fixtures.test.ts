// Every dataset xarray_fixtures.py wrote, opened with openDataset and compared with what xarray
// itself reads from it: variables, dims, coords, attrs, encoding, and values bit for bit; then the
// same isel/sel calls as xarray made, compared the same way.
import { join } from "node:path";
import { DirectoryStore } from "@z/store-fs";
import { describe, it } from "vitest";
import { openDataset, slice } from "../src/index.js";
import { caseNames, expectDataset, FIXTURES, openOptions, readCase } from "./expected.js";

describe("datasets xarray wrote read as xarray reads them", () => {
  for (const name of caseNames()) {
    it(name, async () => {
      const expected = readCase(name);
      const store = new DirectoryStore(join(FIXTURES, `${name}.zarr`));
      const ds = await openDataset(store, { consolidated: expected.consolidated, ...openOptions(expected.open) });
      await expectDataset(ds, expected.dataset, name);
      for (const selection of expected.selections) {
        const args = Object.fromEntries(
          Object.entries(selection.args).map(([dim, v]) => {
            if (v !== null && typeof v === "object" && !Array.isArray(v) && "slice" in v) {
              const [start, stop, step] = (v as { slice: (number | string | null)[] }).slice;
              return [dim, slice(start, stop, step as number | null)];
            }
            return [dim, v];
          }),
        );
        const where = `${name}: ${selection.method}(${JSON.stringify(selection.args)}, ${JSON.stringify(selection.options)})`;
        const result =
          selection.method === "isel"
            ? ds.isel(args as never)
            : await ds.sel(args as never, selection.options as never);
        await expectDataset(result, selection.result, where);
      }
    });
  }
});
