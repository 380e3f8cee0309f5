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

/**
 * Runs `zarr serve store ...args` in this process while `test` gets its base URL
 * (`http://127.0.0.1:<port>/`), then stops it; resolves to what it printed.
 */
export async function serving(
  store: string,
  args: readonly string[],
  test: (base: string) => Promise<void>,
): Promise<RunResult> {
  const controller = new AbortController();
  let resolveUrl: (url: string) => void;
  let rejectUrl: (error: Error) => void;
  const url = new Promise<string>((resolve, reject) => {
    resolveUrl = resolve;
    rejectUrl = reject;
  });
  const done = run(["serve", store, ...args], {
    signal: controller.signal,
    onOut: (text) => resolveUrl(/http:\/\/\S+/.exec(text)![0]),
  }).then((result) => {
    rejectUrl(new Error(`zarr serve ended before serving: ${result.err}`));
    return result;
  });
  try {
    await test(await url);
  } finally {
    controller.abort();
  }
  return done;
}
