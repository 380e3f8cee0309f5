// The reference tools the cross-checks run against, and what a test does when one is missing: it
// fails, naming what to install. It never skips: a skipped cross-check reads as a passed one.
// `bash scripts/ensure-tools.sh` (the first step of `pnpm test:all`) installs them all.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { beforeAll } from "vitest";

/** Debian's Python, the one that has zarr-python 2.13, numcodecs, boto3 and xarray here. */
export const SYSTEM_PYTHON = "/usr/bin/python3";

/** Whether `python` imports every one of `modules` (e.g. `"zarr, boto3"`). */
export function pythonImports(python: string, modules: string): boolean {
  return spawnSync(python, ["-c", `import ${modules}`], { stdio: "ignore" }).status === 0;
}

/** The Python of TensorStore 0.1.85's venv (apps/bench/python/ensure-tensorstore.sh), if it is there. */
export const tensorstorePython: string | undefined = [
  process.env.Z_TENSORSTORE_PYTHON,
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "z-bench/venv-tensorstore/bin/python"),
]
  .filter((p): p is string => p !== undefined && existsSync(p))
  .find((p) => pythonImports(p, "tensorstore"));

/** What each tool is, for the message of a test that needs it. */
const TOOLS = {
  "zarr-python": "zarr-python 2.13 (Debian's python3-zarr)",
  numcodecs: "numcodecs (Debian's python3-numcodecs, with python3-zarr)",
  boto3: "boto3 (Debian's python3-boto3)",
  xarray: "xarray (Debian's python3-xarray and python3-cftime)",
  tensorstore: "TensorStore 0.1.85 (a venv made by apps/bench/python/ensure-tensorstore.sh)",
  chromium: "Chromium (Debian's chromium)",
} as const;

export type Tool = keyof typeof TOOLS;

/** The error of a cross-check whose reference tool is not installed. */
export class MissingToolError extends Error {
  readonly code = "Z_TEST_MISSING_TOOL";
  constructor(readonly tool: Tool) {
    super(`${TOOLS[tool]} is missing: run 'bash scripts/ensure-tools.sh' as root (pnpm test:all does it first)`);
    this.name = "MissingToolError";
  }
}

/**
 * Called in a `describe` (or at a file's top level): every test there fails with a
 * `MissingToolError` naming `tool` unless `available`.
 */
export function requireTool(tool: Tool, available: boolean): void {
  beforeAll(() => {
    if (!available) throw new MissingToolError(tool);
  });
}

/** Called first in a test: it fails with a `MissingToolError` naming `tool` unless `available`. */
export function needTool(tool: Tool, available: boolean): void {
  if (!available) throw new MissingToolError(tool);
}
