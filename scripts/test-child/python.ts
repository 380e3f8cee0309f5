// zarr-python (/usr/bin/python3) for the tests that check what z leaves on disk with the reference
// tools: whether it is here, and running a script whose standard output is JSON.
import { spawnSync } from "node:child_process";

/** Whether /usr/bin/python3 with zarr-python is here, for the live cross-checks. */
export const hasZarrPython = spawnSync("/usr/bin/python3", ["-c", "import zarr"], { stdio: "ignore" }).status === 0;

/** Runs a Python script with /usr/bin/python3 and returns its standard output, parsed as JSON; its stderr when it fails. */
export function python<T = unknown>(script: string, ...args: string[]): T {
  const run = spawnSync("/usr/bin/python3", ["-c", script, ...args], { encoding: "utf8", timeout: 60_000 });
  if (run.status !== 0) throw new Error(`python failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
