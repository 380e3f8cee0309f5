// toZarr writes what xarray's to_zarr writes: each fixture, opened and written back, gives the
// .zarray, .zattrs and .zgroup documents xarray wrote when it wrote the same opened dataset back
// (recorded by xarray_fixtures.py), and the same decoded values.
import { join } from "node:path";
import { MemoryStore, openArray } from "@z/core";
import { parseJson, type Store } from "@z/meta";
import { DirectoryStore } from "@z/store-fs";
import { describe, expect, it } from "vitest";
import { openDataset, toZarr } from "../src/index.js";
import {
  caseNames,
  comparable,
  type ExpectedVariable,
  expectValues,
  FIXTURES,
  openOptions,
  readCase,
} from "./expected.js";
import { finish, heldFromRead } from "../src/values.js";

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
    const rewrite = (
      expected as unknown as {
        rewrite: { documents?: Record<string, unknown>; arrays: Record<string, ExpectedVariable["values"]> };
      }
    ).rewrite;
    if (rewrite.documents === undefined) continue;
    it(name, async () => {
      const options = { consolidated: expected.consolidated, ...openOptions(expected.open) };
      const original: Store = new DirectoryStore(join(FIXTURES, `${name}.zarr`));
      const ds = await openDataset(original, options);
      const copy = new MemoryStore();
      await toZarr(ds, copy);
      expect(await documents(copy)).toEqual(comparable(withBooleans(rewrite.documents!, ds)));
      expect(await copy.get(".zmetadata")).toBeDefined();
      // The stored values are xarray's, bit for bit.
      for (const [path, values] of Object.entries(rewrite.arrays)) {
        const array = await openArray(copy, { path, mode: "r" });
        const stored = finish(heldFromRead(await array.get(), path));
        const want = { values, dtype: stored.dtype, shape: [...array.shape] } as unknown as ExpectedVariable;
        expectValues(stored, want, `${path} as stored`);
      }
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

/**
 * xarray 2023.01 writes a boolean variable it read back as plain int8 (its encoding says int8,
 * and the cast drops the dtype: "bool" attribute; later versions keep it): toZarr keeps it.
 */
function withBooleans(
  documents: Record<string, unknown>,
  ds: Awaited<ReturnType<typeof openDataset>>,
): Record<string, unknown> {
  const out = { ...documents };
  for (const [name, variable] of ds.variables) {
    const key = `${name}/.zattrs`;
    if (variable.dtype === "bool" && key in out) out[key] = { ...(out[key] as object), dtype: "bool" };
  }
  return out;
}
