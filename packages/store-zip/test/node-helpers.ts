// Test helpers that need Node: local files and zarr-python (/usr/bin/python3).
import { execFileSync, spawnSync } from "node:child_process";

export { nodeFile } from "./node-file.js";

/** Whether /usr/bin/python3 with zarr-python is here, for the live cross-checks. */
export const hasZarrPython = spawnSync("/usr/bin/python3", ["-c", "import zarr"], { stdio: "ignore" }).status === 0;

/** Runs a Python script with /usr/bin/python3 and returns its standard output, parsed as JSON. */
export function python<T = unknown>(script: string, ...args: string[]): T {
  const out = execFileSync("/usr/bin/python3", ["-c", script, ...args], { encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });
  return JSON.parse(out) as T;
}
