/**
 * The zarr3 spec fixtures are TensorStore's own answers: python/tensorstore_zarr3_fixtures.py, run
 * with TensorStore 0.1.85 now, writes exactly the committed create-zarr3.json and open-zarr3.json
 * (each spec's zarr.json as TensorStore writes it, or its error), which spec-zarr3-create.test.ts
 * and spec-zarr3-open.test.ts check z against. TensorStore comes from the venv
 * apps/bench/python/ensure-tensorstore.sh makes; without it the test fails, naming what to install.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { requireTool } from "../../../scripts/test-child/tools.js";

const root = new URL("../../../", import.meta.url).pathname;
const ensure = spawnSync("bash", [join(root, "apps/bench/python/ensure-tensorstore.sh")], {
  encoding: "utf8",
  timeout: 900_000,
});
const python = ensure.status === 0 ? ensure.stdout.trim().split("\n").pop() : undefined;
const script = new URL("./python/tensorstore_zarr3_fixtures.py", import.meta.url).pathname;
const committed = new URL("./fixtures/tensorstore-spec/", import.meta.url).pathname;

const dir = mkdtempSync(join(tmpdir(), "z-spec-zarr3-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("zarr3 spec fixtures regenerated with TensorStore 0.1.85", () => {
  requireTool("tensorstore", python !== undefined);

  it("are the committed ones, byte for byte", () => {
    const summary = execFileSync(python!, [script, "generate", dir], { encoding: "utf8", maxBuffer: 64 << 20 });
    expect(summary).toMatch(/zarr3 create specs \(\d+ created, \d+ refused\), \d+ open specs/);
    for (const name of ["create-zarr3.json", "open-zarr3.json"])
      expect(readFileSync(join(dir, name), "utf8"), name).toBe(readFileSync(join(committed, name), "utf8"));
  }, 300_000);
});
