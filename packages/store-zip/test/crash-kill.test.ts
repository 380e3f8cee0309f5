// A process appending to a zip archive in place is killed (SIGKILL) at random moments; after each
// kill the archive must read, with z, zipfile and zarr-python, as it was committed last: the array
// zarr-python wrote untouched, and every chunk the child writes from one and the same session.
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryFile, ZipStore } from "@z/store-zip";
import { bundleChild, killAfterReady } from "../../../scripts/test-child/child.js";
import { hasZarrPython, python } from "./node-helpers.js";

const TRIALS = 24;
/** Elements of a chunk of "b": 4 chunks of 4 KiB a session, well under the 64 KiB readers search. */
const CHUNK = 1024;

let dir: string;
let child: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "z-zip-kill-"));
  child = await bundleChild(new URL("./children/append-zip.ts", import.meta.url));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(join(child, ".."), { recursive: true, force: true });
});

/**
 * The archive each trial starts from: a group with the int32 array "a" (0 … 99 in chunks of 10)
 * and the int32 array "b" (4 chunks of CHUNK, all 0), written by zarr-python (by z without it).
 */
async function startingArchive(path: string): Promise<void> {
  if (hasZarrPython) {
    python(
      `
import json, sys, zarr, numpy as np
with zarr.ZipStore(sys.argv[1], mode="w") as store:
    root = zarr.group(store=store)
    root.create_dataset("a", shape=(100,), chunks=(10,), dtype="<i4", compressor=None)[:] = np.arange(100)
    root.create_dataset("b", shape=(4 * int(sys.argv[2]),), chunks=(int(sys.argv[2]),), dtype="<i4", compressor=None, fill_value=-1)[:] = 0
print("null")`,
      path,
      String(CHUNK),
    );
    return;
  }
  const file = new MemoryFile();
  const store = await ZipStore.open(file, { mode: "w" });
  const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  const zarray = (shape: number, chunks: number) =>
    json({
      zarr_format: 2,
      shape: [shape],
      chunks: [chunks],
      dtype: "<i4",
      compressor: null,
      fill_value: -1,
      filters: null,
      order: "C",
    });
  await store.set(".zgroup", json({ zarr_format: 2 }));
  await store.set("a/.zarray", zarray(100, 10));
  for (let i = 0; i < 10; i++)
    await store.set(`a/${i}`, new Uint8Array(Int32Array.from({ length: 10 }, (_, j) => 10 * i + j).buffer));
  await store.set("b/.zarray", zarray(4 * CHUNK, CHUNK));
  for (let i = 0; i < 4; i++) await store.set(`b/${i}`, new Uint8Array(4 * CHUNK));
  await store.close();
  const { writeFile } = await import("node:fs/promises");
  await writeFile(path, file.bytes());
}

/** The session whose chunks "b" holds, read with z; throws unless "a" is as written and all of "b" is one session's. */
async function readWithZ(path: string, original: ZipStore): Promise<number> {
  const store = await ZipStore.open(new Uint8Array(await readFile(path)));
  for (const key of (await original.list()).filter((k) => k.startsWith("a/") || k === ".zgroup"))
    expect(await store.get(key), key).toEqual(await original.get(key));
  const sessions = new Set<number>();
  for (let i = 0; i < 4; i++) {
    const chunk = await store.get(`b/${i}`);
    expect(chunk?.length).toBe(4 * CHUNK);
    for (const value of new Int32Array(chunk!.slice().buffer)) sessions.add(value);
  }
  expect(sessions.size).toBe(1);
  return [...sessions][0]!;
}

describe("killing a process that appends to a zip archive in place", () => {
  it(`never loses what was committed (${TRIALS} kills at random moments)`, async () => {
    const template = join(dir, "template.zip");
    await startingArchive(template);
    const original = await ZipStore.open(new Uint8Array(await readFile(template)));
    const results: { path: string; committed: number; session: number; killedAfter: number }[] = [];
    const failures: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const path = join(dir, `trial-${trial}.zip`);
      await copyFile(template, path);
      // Kill moments spread over the run (with some jitter), so that some land before the first
      // commit; every third trial waits for the child to say it committed its third session, so
      // that later sessions are killed too however slowly a loaded machine runs the child.
      const after = trial % 3 === 2 ? "committed 3" : "ready";
      const { stdout, killedAfter } = await killAfterReady(
        child,
        [path, String(CHUNK)],
        () => (after === "ready" ? (trial / TRIALS) * 120 : 0) + Math.random() * 5,
        after,
      );
      const committed = Math.max(0, ...[...stdout.matchAll(/^committed (\d+)$/gm)].map((m) => Number(m[1])));
      try {
        const session = await readWithZ(path, original);
        // The last session it reported, or the next one when it was killed between committing and saying so.
        expect([committed, committed + 1]).toContain(session);
        results.push({ path, committed, session, killedAfter });
      } catch (err) {
        failures.push(
          `trial ${trial}, killed ${killedAfter.toFixed(1)} ms after "${after}", ${committed} sessions committed: ${(err as Error).message}`,
        );
      }
    }
    expect(failures, `${failures.length} of ${TRIALS} kills lost data`).toEqual([]);
    // How far a child gets in a given time depends on the machine's load, so the kills timed
    // from "ready" may all land in one session; those after "committed 3" are past it.
    expect(results.some((r) => r.session >= 3)).toBe(true);
    if (!hasZarrPython) return;
    const python_ = python<{ path: string; error?: string; testzip?: string | null; a?: boolean; b?: number[] }[]>(
      `
import json, sys, zipfile, zarr, numpy as np
out = []
for path in sys.argv[1:]:
    try:
        with zipfile.ZipFile(path) as zf:
            bad = zf.testzip()
        store = zarr.ZipStore(path, mode="r")
        root = zarr.open_group(store, mode="r")
        a, b = root["a"][:], root["b"][:]
        store.close()
        out.append({"path": path, "testzip": bad, "a": bool((a == np.arange(100)).all()), "b": sorted(set(int(x) for x in b))})
    except Exception as e:
        out.append({"path": path, "error": repr(e)})
print(json.dumps(out))`,
      ...results.map((r) => r.path),
    );
    expect(python_).toEqual(results.map((r) => ({ path: r.path, testzip: null, a: true, b: [r.session] })));
  }, 60_000);
});
