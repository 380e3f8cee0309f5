// A process writing chunks through a DirectoryStore is killed (SIGKILL) part way; what it leaves
// must count, for zarr-python's nchunks_initialized as for z, exactly the chunks really written:
// its temporary files are no chunks. Arrays in both layouts: chunk keys "i.j" in the array's
// directory, and "i/j" in numbered directories (dimension_separator "/").
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DirectoryStore, findTemporaryFiles } from "@z/store-fs";
import { bundleChild, killAfterReady } from "../../../scripts/test-child/child.js";
import { hasZarrPython, python } from "../../../scripts/test-child/python.js";

const RANDOM_TRIALS = 10;

/** zarr-python's nchunks_initialized of the array at each root (opened with its separator), and how many chunks hold data. */
function zarrPythonCounts(
  arrays: { root: string; separator: string }[],
): { nchunks_initialized: number; with_data: number }[] {
  return python(
    `
import json, sys, zarr
out = []
for root, sep in zip(sys.argv[1::2], sys.argv[2::2]):
    a = zarr.open_array(zarr.DirectoryStore(root, dimension_separator=sep), mode="r")
    out.append({"nchunks_initialized": a.nchunks_initialized, "with_data": int((a[:] != 0).sum()) // (64 * 64)})
print(json.dumps(out))`,
    ...arrays.flatMap((a) => [a.root, a.separator]),
  ) as { nchunks_initialized: number; with_data: number }[];
}

let dir: string;
let child: string;
const templates = new Map<string, string>();
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "z-fs-kill-"));
  child = await bundleChild(new URL("./children/write-chunks.ts", import.meta.url));
  for (const separator of [".", "/"]) {
    const root = join(dir, `template${separator === "." ? "-flat" : "-nested"}`);
    if (hasZarrPython) {
      python(
        `
import sys, zarr
zarr.create(store=zarr.DirectoryStore(sys.argv[1], dimension_separator=sys.argv[2]), shape=(512, 512), chunks=(64, 64), dtype="<i4", compressor=None, fill_value=0, dimension_separator=sys.argv[2])
print("null")`,
        root,
        separator,
      );
    } else {
      const zarray = {
        zarr_format: 2,
        shape: [512, 512],
        chunks: [64, 64],
        dtype: "<i4",
        compressor: null,
        fill_value: 0,
        filters: null,
        order: "C",
        dimension_separator: separator,
      };
      await new DirectoryStore(root).set(".zarray", new TextEncoder().encode(JSON.stringify(zarray)));
    }
    templates.set(separator, root);
  }
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(join(child, ".."), { recursive: true, force: true });
});

/** The chunk keys z lists in the array at `root`. */
async function chunkKeys(root: string): Promise<string[]> {
  return (await new DirectoryStore(root).list()).filter((key) => /^\d+[./]\d+$/.test(key));
}

let trials = 0;
async function trial(separator: string, mode: "hang" | "random"): Promise<{ root: string; written: number }> {
  const root = join(dir, `trial-${trials++}`);
  await cp(templates.get(separator)!, root, { recursive: true });
  const { stdout } = await killAfterReady(
    child,
    [root, separator, mode],
    mode === "hang" ? 0 : () => Math.random() * 80,
  );
  const written = Math.max(0, ...[...stdout.matchAll(/^wrote (\d+)$/gm)].map((m) => Number(m[1])));
  return { root, written };
}

describe("killing a process writing chunks to a directory store", () => {
  for (const [separator, layout] of [
    [".", "flat"],
    ["/", "nested"],
  ] as const) {
    it(`between a chunk's temporary file and its rename leaves a file no reader counts (${layout} chunk keys)`, async () => {
      const { root, written } = await trial(separator, "hang");
      expect(written).toBe(63);
      expect(await chunkKeys(root)).toHaveLength(63);
      if (hasZarrPython)
        expect(zarrPythonCounts([{ root, separator }])).toEqual([{ nchunks_initialized: 63, with_data: 63 }]);
      // The temporary file is whole, hidden, and in the array's directory (not in a numbered one).
      const temporaries = await findTemporaryFiles(root, { recursive: true });
      expect(temporaries.map((t) => relative(root, t.path))).toEqual([
        expect.stringMatching(separator === "." ? /^\.7\.7\.[0-9a-f]{32}\.partial$/ : /^\.7\.[0-9a-f]{32}\.partial$/),
      ]);
      expect(temporaries[0]!.size).toBe(64 * 64 * 4);
    }, 30_000);
  }

  it(`at random moments: zarr-python and z count the chunks really written (${RANDOM_TRIALS} kills)`, async () => {
    const arrays: { root: string; separator: string; chunks: number }[] = [];
    for (let i = 0; i < RANDOM_TRIALS; i++) {
      const separator = i % 2 === 0 ? "." : "/";
      const { root, written } = await trial(separator, "random");
      const chunks = (await chunkKeys(root)).length;
      // Killed after the rename of the next chunk but before saying so, at most one more.
      expect([written, written + 1]).toContain(chunks);
      arrays.push({ root, separator, chunks });
    }
    if (hasZarrPython)
      expect(zarrPythonCounts(arrays)).toEqual(
        arrays.map((a) => ({ nchunks_initialized: a.chunks, with_data: a.chunks })),
      );
  }, 60_000);
});
