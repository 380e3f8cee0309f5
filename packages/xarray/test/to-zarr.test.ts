// toZarr writes what xarray's to_zarr writes: each fixture, opened and written back, gives the
// .zarray, .zattrs and .zgroup documents xarray wrote when it wrote the same opened dataset back
// (recorded by xarray_fixtures.py), and the same decoded values.
import { join } from "node:path";
import { MemoryStore } from "@z/core";
import { parseJson, type Store } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { describe, expect, it } from "vitest";
import { openDataset, toZarr } from "../src/index.js";
import { caseNames, comparable, FIXTURES, openOptions, readCase } from "./expected.js";

async function documents(store: MemoryStore): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of (await store.list("")).sort()) {
    if (/(^|\/)\.z(array|attrs|group)$/.test(key)) out[key] = comparable(parseJson((await store.get(key))!));
  }
  return out;
}

describe("toZarr writes what to_zarr writes", () => {
  for (const name of caseNames()) {
    const expected = readCase(name);
    const rewrite = (expected as unknown as { rewrite: { documents?: Record<string, unknown> } }).rewrite;
    if (rewrite.documents === undefined) continue;
    it(name, async () => {
      const options = { consolidated: expected.consolidated, ...openOptions(expected.open) };
      const original: Store = new DirectoryStore(join(FIXTURES, `${name}.zarr`));
      const ds = await openDataset(original, options);
      const copy = new MemoryStore();
      await toZarr(ds, copy);
      expect(await documents(copy)).toEqual(comparable(rewrite.documents));
      expect(await copy.get(".zmetadata")).toBeDefined();
      // What was written reads back as what was read.
      const again = await openDataset(copy, options);
      for (const [key, variable] of ds.variables) {
        expect(comparable((await again.get(key).values()).data), key).toEqual(
          comparable((await variable.values()).data),
        );
      }
    });
  }
});
