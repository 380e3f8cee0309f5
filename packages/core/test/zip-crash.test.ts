// A process writing to a local zip file through openLocation (as the CLI does) is killed (SIGKILL)
// at random moments, in sessions that each write 1 MiB (far more than the 64 KiB a reader searches
// for the end record) and now and then compact; after each kill the file must read, with z,
// zipfile and zarr-python, as it was committed last: nothing of a session or all of it. A file the
// killed process was creating is either absent or a whole archive.
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipStore } from "@z/store-zip";
import { bundleChild, killAfterReady } from "../../../scripts/test-child/child.js";
import { hasZarrPython, python } from "../../../scripts/test-child/python.js";

const TRIALS = 16;
const CREATING_TRIALS = 4;
/** Elements of a chunk of "b": 4 chunks of 256 KiB a session. */
const CHUNK = 65536;

let dir: string;
let child: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "z-zip-file-kill-"));
  child = await bundleChild(new URL("./children/append-zip-file.ts", import.meta.url));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(join(child, ".."), { recursive: true, force: true });
});

/** The session the chunks of "b" in the zip file at `path` come from, read with z; all four must agree. */
async function sessionOf(path: string): Promise<number> {
  const store = await ZipStore.open(new Uint8Array(await readFile(path)));
  const sessions = new Set<number>();
  for (let i = 0; i < 4; i++) {
    const chunk = await store.get(`b/${i}`);
    expect(chunk?.length).toBe(4 * CHUNK);
    for (const value of new Int32Array(chunk!.slice().buffer)) sessions.add(value);
  }
  expect(sessions.size).toBe(1);
  return [...sessions][0]!;
}

describe("killing a process that writes to a local zip file", () => {
  it(`never loses what was committed (${TRIALS} kills while appending, ${CREATING_TRIALS} while creating)`, async () => {
    const template = join(dir, "template.zip");
    if (hasZarrPython) {
      python(
        `
import sys, zarr, numpy as np
with zarr.ZipStore(sys.argv[1], mode="w") as store:
    root = zarr.group(store=store)
    root.create_dataset("a", shape=(100,), chunks=(10,), dtype="<i4", compressor=None)[:] = np.arange(100)
    root.create_dataset("b", shape=(4 * int(sys.argv[2]),), chunks=(int(sys.argv[2]),), dtype="<i4", compressor=None, fill_value=-1)[:] = 0
print("null")`,
        template,
        String(CHUNK),
      );
    }
    const results: { path: string; session: number; hasA: boolean }[] = [];
    const failures: string[] = [];
    for (let trial = 0; trial < TRIALS + CREATING_TRIALS; trial++) {
      const creating = trial >= TRIALS || !hasZarrPython;
      const trialDir = join(dir, `trial-${trial}`);
      await mkdir(trialDir);
      const path = join(trialDir, "data.zip");
      if (!creating) await copyFile(template, path);
      // Every fourth kill waits for the child to say it committed its second session: how far a
      // child gets in 400 ms is the machine's load, and later sessions must be killed too.
      const after = trial % 4 === 3 ? "committed 2" : "ready";
      const { stdout, killedAfter } = await killAfterReady(
        child,
        [path, String(CHUNK)],
        () => Math.random() * (after === "ready" ? 400 : 50),
        after,
      );
      const committed = Math.max(0, ...[...stdout.matchAll(/^committed (\d+)$/gm)].map((m) => Number(m[1])));
      const what = `trial ${trial}${creating ? " (creating)" : ""}, killed ${killedAfter.toFixed(0)} ms after "${after}", ${committed} sessions committed`;
      try {
        // Beside the file, at most the working copy of the session the kill interrupted.
        const others = (await readdir(trialDir)).filter((name) => name !== "data.zip");
        expect(others.length).toBeLessThanOrEqual(1);
        for (const name of others) expect(name).toMatch(/^\.data\.zip\.[0-9a-f]{32}\.partial$/);
        const exists = await stat(path).then(
          () => true,
          () => false,
        );
        if (!exists) {
          expect(creating && committed === 0, "the file is gone").toBe(true);
          continue;
        }
        const session = await sessionOf(path);
        if (!creating) {
          const original = await ZipStore.open(new Uint8Array(await readFile(template)));
          const store = await ZipStore.open(new Uint8Array(await readFile(path)));
          for (const key of (await original.list()).filter((k) => k.startsWith("a/")))
            expect(await store.get(key), key).toEqual(await original.get(key));
        }
        // The last session it reported, or the next one when it was killed between committing and saying so.
        expect([committed, committed + 1]).toContain(session);
        expect(session > 0 || !creating).toBe(true);
        results.push({ path, session, hasA: !creating });
      } catch (err) {
        failures.push(`${what}: ${(err as Error).message}`);
      }
    }
    expect(failures, `${failures.length} of ${TRIALS + CREATING_TRIALS} kills lost data`).toEqual([]);
    expect(results.some((r) => r.session >= 2)).toBe(true);
    if (!hasZarrPython) return;
    const read = python(
      `
import json, sys, zipfile, zarr, numpy as np
out = []
for path in sys.argv[1:]:
    try:
        with zipfile.ZipFile(path) as zf:
            bad = zf.testzip()
        store = zarr.ZipStore(path, mode="r")
        root = zarr.open_group(store, mode="r")
        a = bool((root["a"][:] == np.arange(100)).all()) if "a" in root else None
        b = sorted(set(int(x) for x in root["b"][:]))
        store.close()
        out.append({"path": path, "testzip": bad, "a": a, "b": b})
    except Exception as e:
        out.append({"path": path, "error": repr(e)})
print(json.dumps(out))`,
      ...results.map((r) => r.path),
    );
    expect(read).toEqual(
      results.map((r) => ({ path: r.path, testzip: null, a: r.hasA ? true : null, b: [r.session] })),
    );
  }, 120_000);
});
