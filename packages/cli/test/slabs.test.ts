import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FIXTURES, run, STORE, tempDir } from "./helpers.js";
import { planSlabs } from "../src/slabs.js";

// Every slab one chunk wide, so the streaming paths run many times over.
vi.mock("../src/slabs.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../src/slabs.js")>();
  return { ...original, planSlabs: vi.fn((dim, chunk, bytes) => original.planSlabs(dim, chunk, bytes, 1)) };
});

describe("planSlabs", async () => {
  const { planSlabs: real } = await vi.importActual<typeof import("../src/slabs.js")>("../src/slabs.js");

  it("never cuts through a chunk, and groups chunks up to the budget", () => {
    expect(real({ kind: "range", start: 0, step: 1, length: 10 }, 4, 1, 1)).toEqual([
      [0, 4],
      [4, 8],
      [8, 10],
    ]);
    expect(real({ kind: "range", start: 3, step: 1, length: 6 }, 4, 1, 1)).toEqual([
      [0, 1],
      [1, 5],
      [5, 6],
    ]);
    expect(real({ kind: "range", start: 1, step: 3, length: 4 }, 4, 1, 1)).toEqual([
      [0, 1],
      [1, 3],
      [3, 4],
    ]); // 1 4 7 10
    expect(real({ kind: "range", start: 0, step: 1, length: 10 }, 4, 1, 8)).toEqual([
      [0, 8],
      [8, 10],
    ]);
    expect(real({ kind: "range", start: 0, step: 1, length: 0 }, 4, 1)).toEqual([]);
  });
});

describe("streaming export and import, one chunk at a time", () => {
  it("exports C and Fortran order arrays slab by slab", async () => {
    const dir = await tempDir();
    for (const [path, name, selection] of [
      ["grp/a", "grp-a", ""],
      ["c", "c", ""],
      ["grp/a", "grp-a-sel", "1:9:2,3"],
    ] as const) {
      const out = join(dir, `${name}.npy`);
      expect(
        (await run(["export", STORE, "--path", path, "--out", out, ...(selection ? ["--selection", selection] : [])]))
          .code,
      ).toBe(0);
      expect(Buffer.compare(await readFile(out), await readFile(join(FIXTURES, "store-npy", `${name}.npy`)))).toBe(0);
    }
    expect(vi.mocked(planSlabs)).toHaveBeenCalled();
  });

  it("imports C and Fortran order files slab by slab", async () => {
    const dir = await tempDir();
    for (const [name, chunks] of [
      ["grp-a", "3,5"],
      ["c", "2,1"],
      ["u", "1,1"],
    ] as const) {
      const store = join(dir, `${name}.zarr`);
      const file = join(FIXTURES, "store-npy", `${name}.npy`);
      expect((await run(["import", file, store, "--chunks", chunks, "--compressor", "null"])).code).toBe(0);
      const back = join(dir, `${name}-back.npy`);
      expect((await run(["export", store, "--out", back])).code).toBe(0);
      expect(Buffer.compare(await readFile(back), await readFile(file))).toBe(0);
    }
  });
});
