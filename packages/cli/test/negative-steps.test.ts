// Selections with negative steps, as numpy takes them (test/python/negative_steps.py; zarr-python
// 2.13 itself refuses them, @z/core reads them).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, run, STORE, tempDir } from "./helpers.js";

interface Expected {
  gets: { path: string; selection: string; repr: string; json: string }[];
  npy: Record<string, { path: string; selection: string; npy: string }>;
}

const expected = JSON.parse(await readFile(join(FIXTURES, "negative-steps.json"), "utf8")) as Expected;
const cases = expected.gets.map((g) => [g.path, g.selection, g] as const);

describe("negative steps", () => {
  it.each(cases)("zarr get %s [%s] prints numpy's repr", async (path, selection, g) => {
    expect(await run(["get", STORE, "--path", path, selection])).toEqual({ code: 0, out: `${g.repr}\n`, err: "" });
  });

  it.each(cases)("zarr get %s [%s] --json gives numpy's values", async (path, selection, g) => {
    expect(await run(["get", STORE, "--path", path, "--json", selection])).toEqual({ code: 0, out: g.json, err: "" });
  });

  it.each(Object.values(expected.npy).map((c) => [c.path, c.selection, c] as const))(
    "zarr export %s [%s] writes what np.save writes",
    async (path, selection, c) => {
      const out = join(await tempDir(), "x.npy");
      const { code, err } = await run(["export", STORE, "--path", path, "--out", out, "--selection", selection]);
      expect(code, err).toBe(0);
      expect(Buffer.from(await readFile(out)).toString("base64")).toBe(c.npy);
    },
  );

  it("exports in slabs that each take whole chunks, backwards too", async () => {
    const out = join(await tempDir(), "x.json");
    expect((await run(["export", STORE, "--path", "big", "--out", out, "--selection", "::-7,-2::-9"])).code).toBe(0);
    expect(await readFile(out, "utf8")).toBe(
      expected.gets.find((g) => g.path === "big" && g.selection === "::-7,-2::-9")!.json,
    );
  });
});
