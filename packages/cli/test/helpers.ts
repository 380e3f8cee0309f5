import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import { main } from "../src/main.js";

export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
export const STORE = join(FIXTURES, "store");

export interface RunResult {
  code: number;
  out: string;
  err: string;
}

/** Runs `zarr ...argv` in this process, capturing what it writes. */
export async function run(
  argv: readonly string[],
  options: { interactive?: boolean; signal?: AbortSignal; onOut?: (text: string) => void } = {},
): Promise<RunResult> {
  let out = "";
  let err = "";
  const code = await main(argv, {
    out: (text) => {
      out += text;
      options.onOut?.(text);
    },
    err: (text) => void (err += text),
    interactive: options.interactive ?? false,
    signal: options.signal,
    columns: 60,
  });
  return { code, out, err };
}

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A fresh temporary directory, removed after the test file. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "zarr-cli-test-"));
  dirs.push(dir);
  return dir;
}

/** A copy of a fixture store that a test may change. */
export async function fixtureCopy(name = "store"): Promise<string> {
  const dir = join(await tempDir(), name);
  await cp(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}
