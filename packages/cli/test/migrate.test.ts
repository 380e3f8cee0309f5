/**
 * `zarr migrate v3` and `zarr remove-metadata`, run as zarr-python 3's tests/test_cli/test_migrate_v3.py
 * runs its CLI, on the nested hierarchy of its conftest (create_nested_zarr: three nested groups, an
 * array in each), written here by zarr-python 2.13. After a migration, whole or stopped part way,
 * zarr-python 2.13 reads the store as before.
 */
import { execFileSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { migrateToV3 } from "@z/core";
import { DirectoryStore } from "@z/store-fs";
import { pythonImports, requireTool, SYSTEM_PYTHON } from "../../../scripts/test-child/tools.js";
import { FIXTURES, run, tempDir } from "./helpers.js";

const hasZarr2 = pythonImports(SYSTEM_PYTHON, "zarr, numpy");

/** zarr-python 3's create_nested_zarr, with zarr-python 2.13. */
const NESTED = `
import sys, numpy as np, zarr
attributes = {"baz": 42, "qux": [1, 4, 7, 12]}
g0 = zarr.open_group(zarr.DirectoryStore(sys.argv[1]), mode="w")
g0.attrs.update(attributes)
g1 = g0.create_group("group_1"); g1.attrs.update(attributes)
g2 = g1.create_group("group_2"); g2.attrs.update(attributes)
for i, g in enumerate([g0, g1, g2]):
    a = g.create_dataset(f"array_{i}", shape=(10, 10), chunks=(5, 5), dtype="uint16", dimension_separator=sys.argv[2])
    a.attrs.update(attributes)
    a[:] = np.arange(100, dtype="uint16").reshape(10, 10) + i
`;
/** Every array's values and every node's attributes, as zarr-python 2.13 reads them. */
const READ = `
import json, sys, zarr
g = zarr.open_group(zarr.DirectoryStore(sys.argv[1]), mode="r")
out = {"": dict(g.attrs)}
g.visititems(lambda name, node: out.__setitem__(name, [dict(node.attrs), node[...].ravel().tolist() if isinstance(node, zarr.Array) else None]))
print(json.dumps(out, sort_keys=True))
`;

async function nested(separator: "." | "/" = "."): Promise<string> {
  const dir = join(await tempDir(), "nested.zarr");
  execFileSync(SYSTEM_PYTHON, ["-c", NESTED, dir, separator]);
  return dir;
}
const readWithZarr2 = (dir: string): unknown =>
  JSON.parse(execFileSync(SYSTEM_PYTHON, ["-c", READ, dir], { encoding: "utf8" }));

async function files(dir: string, pattern: RegExp): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((p) => pattern.test(p))
    .sort();
}
const ZARR_JSON = /(^|\/)zarr\.json$/;
const V2_DOCUMENTS = /(^|\/)\.z(array|attrs|group|metadata)$/;

/** conftest's expected_v3_metadata. */
const EXPECTED_V3 = [
  "array_0/zarr.json",
  "group_1/array_1/zarr.json",
  "group_1/group_2/array_2/zarr.json",
  "group_1/group_2/zarr.json",
  "group_1/zarr.json",
  "zarr.json",
];

describe("zarr migrate v3", () => {
  requireTool("zarr-python", hasZarr2);

  it.each([".", "/"] as const)("writes a zarr.json at each node in place, separator %s", async (separator) => {
    const dir = await nested(separator);
    const before = readWithZarr2(dir);
    const result = await run(["migrate", "v3", dir]);
    expect(result).toEqual({
      code: 0,
      out: "",
      err: `wrote 6 zarr.json (3 arrays, 3 groups) to ${dir}; no chunk and no v2 document was changed\n`,
    });
    expect(await files(dir, ZARR_JSON)).toEqual(EXPECTED_V3);
    expect(readWithZarr2(dir)).toEqual(before);
    // every level opens as v3, with its attributes and values
    expect(JSON.parse(await readFile(join(dir, "group_1/group_2/array_2/zarr.json"), "utf8"))).toMatchObject({
      chunk_key_encoding: { name: "v2", configuration: { separator } },
      attributes: { baz: 42, qux: [1, 4, 7, 12] },
    });
    expect((await run(["get", dir, "--path", "group_1/group_2/array_2", "9,7:"])).out).toBe(
      "array([ 99, 100, 101], dtype=uint16)\n",
    );
    expect((await run(["info", dir, "--path", "group_1"])).out).toContain(
      "Zarr format : 3 (a .zgroup is there too: a migrated group, read as v3)\n",
    );
    expect(await run(["validate", dir])).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^ok: 3 arrays, 3 groups/),
    });
  });

  it("migrates a sub-group alone (test_migrate_sub_group)", async () => {
    const dir = await nested();
    expect((await run(["migrate", "v3", dir, "--path", "group_1"])).code).toBe(0);
    expect(await files(dir, ZARR_JSON)).toEqual(EXPECTED_V3.filter((p) => p.startsWith("group_1/")));
  });

  it("writes to another location, leaving the input as it was (..._separate_location)", async () => {
    const dir = await nested();
    const output = join(await tempDir(), "output.zarr");
    expect((await run(["migrate", "v3", dir, output])).code).toBe(0);
    expect(await files(dir, ZARR_JSON)).toEqual([]);
    expect(await files(output, /./)).toEqual(EXPECTED_V3);
    // again: the output is not empty now, unless its v3 metadata is removed first
    expect(await run(["migrate", "v3", dir, output])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/output store is not empty/),
    });
    expect((await run(["migrate", "v3", dir, output, "--overwrite", "--force"])).code).toBe(0);
    expect(await files(output, /./)).toEqual(EXPECTED_V3);
  });

  it("prints the documents it would write in a dry run, and writes none (test_dry_run)", async () => {
    const dir = await nested();
    const { code, out, err } = await run(["migrate", "v3", dir, "--overwrite", "--force", "--dry-run"]);
    expect(code).toBe(0);
    expect(out).toContain(
      'would write group_1/zarr.json (group, from group_1/.zgroup):\n{\n  "attributes": {\n    "baz": 42,',
    );
    expect(out.match(/^would write /gm)).toHaveLength(6);
    expect(err).toBe(`dry run: would write 6 zarr.json (3 arrays, 3 groups) to ${dir}; nothing was written\n`);
    expect(await files(dir, ZARR_JSON)).toEqual([]);
  });

  it("finishes a migration that was stopped part way, with --overwrite (test_overwrite_option_in_place)", async () => {
    const dir = await nested();
    const before = readWithZarr2(dir);
    // what Ctrl-C leaves after the third document: members' zarr.json written, the root's not yet
    const controller = new AbortController();
    let written = 0;
    const store = new DirectoryStore(dir);
    const onDocument = () => {
      if (++written === 3) controller.abort(new Error("interrupted"));
    };
    await expect(migrateToV3(store, { signal: controller.signal, onDocument })).rejects.toThrow("interrupted");
    expect(await files(dir, ZARR_JSON)).toEqual([
      "array_0/zarr.json",
      "group_1/array_1/zarr.json",
      "group_1/group_2/array_2/zarr.json",
    ]);
    expect(readWithZarr2(dir)).toEqual(before);
    // the root is still v2 to every reader
    expect((await run(["info", dir])).out).toMatch(/^Name {8}: \/\nType {8}: Group\n/);
    expect(await run(["migrate", "v3", dir])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^zarr migrate: array_0\/zarr\.json already exists/),
    });
    const again = await run(["migrate", "v3", dir, "--overwrite"]);
    expect(again.code).toBe(0);
    expect(again.out.match(/^removed .*zarr\.json$/gm)).toHaveLength(3);
    expect(await files(dir, ZARR_JSON)).toEqual(EXPECTED_V3);
    expect(readWithZarr2(dir)).toEqual(before);
  });

  it("stops at Ctrl-C: exit 130, nothing more written", async () => {
    const dir = await nested();
    const controller = new AbortController();
    controller.abort();
    expect(await run(["migrate", "v3", dir], { signal: controller.signal })).toMatchObject({
      code: 130,
      err: "zarr migrate: interrupted\n",
    });
    expect(await files(dir, ZARR_JSON)).toEqual([]);
  });

  it("says what it cannot migrate, naming the key", async () => {
    expect(await run(["migrate", "v3", join(FIXTURES, "store-v3")])).toMatchObject({
      code: 1,
      err: expect.stringMatching(
        /zarr\.json is there but no \.zarray or \.zgroup: only arrays and groups with Zarr v2 metadata can be migrated/,
      ),
    });
    expect(await run(["migrate", "v2", join(FIXTURES, "store")])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/converts to v3 only/),
    });
    expect(await run(["migrate", "v3", join(FIXTURES, "store"), "--force"])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--force goes with --overwrite/),
    });
    const objects = join(await tempDir(), "objects.zarr");
    await run(["create", objects, "--shape", "2", "--dtype", "str"]);
    expect(await run(["migrate", "v3", objects])).toMatchObject({
      code: 1,
      err: expect.stringMatching(
        /Couldn't find corresponding zarr.codecs.numcodecs codec for vlen-utf8.*\[ZARR_MIGRATION\]/,
      ),
    });
  });
});

describe("zarr remove-metadata", () => {
  requireTool("zarr-python", hasZarr2);

  it("refuses to remove a format's metadata where the other's is missing, unless --force (test_remove_metadata_fails_without_force)", async () => {
    const dir = await nested();
    expect(await run(["remove-metadata", "v2", dir])).toMatchObject({
      code: 1,
      err: "zarr remove-metadata: cannot remove v2 metadata at .zattrs: no v3 metadata exists there (zarr.json); to remove it anyway, use force [ZARR_MIGRATION]\n",
    });
    expect((await files(dir, V2_DOCUMENTS)).length).toBe(12);
    const forced = await run(["remove-metadata", "v2", dir, "--force", "--path", "group_1"]);
    expect(forced.code).toBe(0);
    // test_remove_metadata_sub_group: only the documents inside group_1 go
    expect(await files(dir, V2_DOCUMENTS)).toEqual([".zattrs", ".zgroup", "array_0/.zarray", "array_0/.zattrs"]);
  });

  it.each([
    ["v2", ZARR_JSON],
    ["v3", V2_DOCUMENTS],
  ] as const)(
    "removes the %s metadata after a migration, leaving the chunks and the other format",
    async (format, kept) => {
      const dir = await nested();
      await run(["migrate", "v3", dir]);
      const chunks = await files(dir, /\/\d\.\d$/);
      const dry = await run(["remove-metadata", format, dir, "--dry-run"]);
      expect(
        dry.out
          .split("\n")
          .filter(Boolean)
          .every((line) => line.startsWith("would remove ")),
      ).toBe(true);
      const { code, out, err } = await run(["remove-metadata", format, dir]);
      expect(code).toBe(0);
      expect(out.split("\n").filter(Boolean)).toHaveLength(format === "v2" ? 12 : 6);
      expect(err).toBe(`removed ${format === "v2" ? 12 : 6} ${format} metadata documents\n`);
      const left = await files(dir, /./);
      expect(left).toEqual([...chunks, ...(await files(dir, kept))].sort());
      // what is left reads the same, as the format left
      expect((await run(["get", dir, "--path", "group_1/array_1", "0,0:3"])).out).toBe(
        "array([1, 2, 3], dtype=uint16)\n",
      );
      if (format === "v3")
        expect(readWithZarr2(dir)).toMatchObject({ "group_1/array_1": [{ baz: 42 }, expect.any(Array)] });
    },
  );
});
