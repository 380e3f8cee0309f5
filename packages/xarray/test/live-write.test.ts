// Live check, step 1 (scripts/live.sh runs it with Z_XARRAY_OUT): toZarr writes every fixture
// dataset (as openDataset read it) and every dataset written.ts builds, for xarray to read
// (python/xarray_read.py) and live-check.test.ts to compare.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DirectoryStore } from "@z/store-fs";
import { describe, it } from "vitest";
import { openDataset, toZarr } from "../src/index.js";
import { caseNames, FIXTURES, openOptions, readCase } from "./expected.js";
import { builtDatasets, writeBuilt } from "./written.js";

const OUT = process.env.Z_XARRAY_OUT;

/** xr.open_zarr keyword arguments for a case's open options. */
function pythonOptions(open: Record<string, unknown>, consolidated: boolean): Record<string, unknown> {
  return { ...open, consolidated };
}

describe("live: toZarr writes for xarray to read", () => {
  for (const name of caseNames()) {
    it(`fixture ${name}`, async () => {
      mkdirSync(OUT!, { recursive: true });
      const expected = readCase(name);
      const ds = await openDataset(new DirectoryStore(join(FIXTURES, `${name}.zarr`)), {
        consolidated: expected.consolidated,
        ...openOptions(expected.open),
      });
      const path = join(OUT!, `fixture-${name}.zarr`);
      try {
        await toZarr(ds, new DirectoryStore(path));
      } catch (error) {
        // xarray cannot write this dataset back either (its to_zarr raised, as recorded): noted, not checked.
        const rewrite = (expected as unknown as { rewrite: { error?: string } }).rewrite;
        if (rewrite.error === undefined) throw error;
        rmSync(path, { recursive: true, force: true });
        writeFileSync(join(OUT!, `fixture-${name}.skipped`), `xarray: ${rewrite.error}; toZarr: ${String(error)}\n`);
        return;
      }
      writeFileSync(join(OUT!, `fixture-${name}.open.json`), JSON.stringify(pythonOptions(expected.open, true)));
    });
  }
  for (const [name, written] of Object.entries(builtDatasets())) {
    it(name, async () => {
      mkdirSync(OUT!, { recursive: true });
      await writeBuilt(written, new DirectoryStore(join(OUT!, `${name}.zarr`)));
      const consolidated = written.write?.consolidated ?? true;
      writeFileSync(join(OUT!, `${name}.open.json`), JSON.stringify(pythonOptions(written.open ?? {}, consolidated)));
    });
  }
});
