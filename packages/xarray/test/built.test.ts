// The datasets written.ts builds, written with toZarr and read back with openDataset: what was
// built comes back (xarray reading the same stores is the live check, live-check.test.ts).
import { MemoryStore } from "@z/core";
import { describe, expect, it } from "vitest";
import { openDataset } from "../src/index.js";
import { comparable } from "./compare.js";
import { builtDatasets, readBackAs, writeBuilt } from "./written.js";

describe("built datasets written and read back", () => {
  for (const [name, written] of Object.entries(builtDatasets())) {
    it(name, async () => {
      const store = new MemoryStore();
      const dataset = await writeBuilt(written, store);
      const back = await openDataset(store, { consolidated: written.write?.consolidated });
      expect(back.coords.sort()).toEqual(dataset.coords.sort());
      expect(back.dataVars.sort()).toEqual(dataset.dataVars.sort());
      expect(back.sizes).toEqual(dataset.sizes);
      expect(comparable(back.attrs)).toEqual(comparable(dataset.attrs));
      for (const [key, variable] of dataset.variables) {
        const stored = back.get(key);
        expect(stored.dims, key).toEqual(variable.dims);
        const { attrs, values } = readBackAs(variable.encoding, variable.attrs, await variable.values());
        expect(comparable(stored.attrs), key).toEqual(comparable(attrs));
        const got = await stored.values();
        expect(got.dtype, key).toBe(values.dtype);
        const scale = variable.encoding.scale_factor as number | undefined;
        if (scale === undefined) expect(comparable(got.data), key).toEqual(comparable(values.data));
        else {
          // Packing rounds to the nearest step.
          const a = got.data as Float32Array;
          const b = values.data as Float32Array;
          for (let i = 0; i < b.length; i++) {
            if (Number.isNaN(b[i]!)) expect(a[i], `${key}[${i}]`).toBeNaN();
            else expect(Math.abs(a[i]! - b[i]!), `${key}[${i}]`).toBeLessThanOrEqual(scale / 2 + 1e-4);
          }
        }
      }
    });
  }
});
