import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run, tempDir } from "./helpers.js";

/** A hierarchy published with consolidated metadata only: every .zarray/.zgroup/.zattrs removed. */
async function consolidatedOnly(): Promise<string> {
  const dir = join(await tempDir(), "c.zarr");
  expect(
    (
      await run([
        "create",
        dir,
        "--path",
        "g/a",
        "--shape",
        "4",
        "--chunks",
        "2",
        "--dtype",
        "<i2",
        "--fill-value",
        "7",
      ])
    ).code,
  ).toBe(0);
  expect((await run(["consolidate", dir])).code).toBe(0);
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name));
      else if (/^\.z(array|group|attrs)$/.test(e.name)) await rm(join(d, e.name));
    }
  };
  await walk(dir);
  return dir;
}

describe("stores with only consolidated metadata", () => {
  it("open for reading through .zmetadata", async () => {
    const dir = await consolidatedOnly();
    const tree = await run(["tree", dir]);
    expect(tree.code).toBe(0);
    expect(tree.out).toContain("a (4,) int16");
    const got = await run(["get", dir, "--path", "g/a", ":", "--json"]);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.out).values).toEqual([7, 7, 7, 7]);
  });
});
