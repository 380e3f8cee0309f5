// Arrays zarr-python's NestedDirectoryStore wrote before `.zarray` had `dimension_separator` (chunks
// at `0/0`, nothing in `.zarray` to say so): @z/core's fixtures (packages/core/test/python/
// legacy_nested_fixtures.py), which zarr-python through a DirectoryStore reads as fill values only.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openArray } from "@z/core";
import { DirectoryStore } from "@z/store-fs";
import { describe, expect, it } from "vitest";
import { run } from "./helpers.js";

const FIXTURES = fileURLToPath(new URL("../../core/test/fixtures/legacy-nested/", import.meta.url));
const ROOT = join(FIXTURES, "nested.zarr");
const expected = JSON.parse(await readFile(join(FIXTURES, "expected.json"), "utf8")) as Record<
  string,
  { values: unknown[]; hexdigest: string; info: Record<string, string> }
>;

describe("legacy nested arrays", () => {
  it.each(["a", "b", "s"])("zarr get %s reads what zarr-python reads through a NestedDirectoryStore", async (name) => {
    const { code, out } = await run(["get", ROOT, "--path", name, "--json"]);
    expect(code).toBe(0);
    expect((JSON.parse(out.replace(/\bNaN\b|"NaN"/g, "null")) as { values: unknown[] }).values).toEqual(
      expected[name]!.values,
    );
  });

  it("zarr info says so, as @z/core's info() does, and counts the nested chunks", async () => {
    const { code, out } = await run(["info", ROOT, "--path", "a"]);
    expect(code).toBe(0);
    expect(out).toContain("Dimension separator : / (found nested in the store; .zarray names none)\n");
    expect(out).toContain(`Chunks initialized  : ${expected.a!.info["Chunks initialized"]}\n`);
    const z = await openArray(new DirectoryStore(ROOT), { path: "a", mode: "r" });
    expect(out).toBe(await z.info());
    const json = JSON.parse((await run(["info", ROOT, "--path", "a", "--json"])).out) as Record<string, unknown>;
    expect(json).toMatchObject({ dimension_separator: "/", dimension_separator_found: true, nchunks_initialized: 8 });
  });

  it("zarr digest gives zarr-python's hexdigest through a NestedDirectoryStore", async () => {
    expect(await run(["digest", ROOT, "--path", "a"])).toEqual({
      code: 0,
      out: `${expected.a!.hexdigest}\n`,
      err: "",
    });
  });

  it("zarr validate decodes every nested chunk and finds no stray keys", async () => {
    expect(await run(["validate", ROOT, "--path", "a"])).toEqual({
      code: 0,
      out: "ok: 1 arrays, 0 groups, 8 chunks checked; 0 errors, 0 warnings\n",
      err: "",
    });
  });

  it("a flat array without the field stays flat", async () => {
    const { out } = await run(["info", ROOT, "--path", "flat"]);
    expect(out).not.toContain("Dimension separator");
    expect(JSON.parse((await run(["info", ROOT, "--path", "flat", "--json"])).out)).toMatchObject({
      dimension_separator: ".",
      dimension_separator_found: false,
      nchunks_initialized: 2,
    });
    expect((await run(["digest", ROOT, "--path", "flat"])).out).toBe(`${expected.flat!.hexdigest}\n`);
  });
});
