// Shared helpers of the consumer test (scripts/consumer-test/run.mjs): recording checks, running
// commands outside the workspace, temporary directories, tables.
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The workspace root. */
export const root = fileURLToPath(new URL("../..", import.meta.url));
/** This directory: the consumer sources are in consumers/. */
export const here = fileURLToPath(new URL(".", import.meta.url));

/** A fresh directory under the system's temporary directory, never inside the workspace. */
export function freshTempDir(prefix) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  if (!relativeOutside(dir, root)) throw new Error(`${dir} is inside the workspace ${root}: set TMPDIR elsewhere`);
  return dir;
}

const relativeOutside = (dir, base) => !`${resolve(dir)}/`.startsWith(resolve(base).replace(/\/?$/, "/"));

/**
 * The environment for a consumer's commands: that of the user who runs them, without what the
 * workspace's pnpm adds to a script's environment (its npm_* and pnpm settings, the workspace's
 * node_modules/.bin on PATH), so npm and pnpm in a consumer project see only the machine's
 * configuration (~/.npmrc: the registry).
 */
export function consumerEnv(extra = {}) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    // AWS_* too: the S3 subset's scripts get the test S3 server's (run.mjs), never the user's account.
    if (/^(npm|pnpm)_/i.test(name) || /^(PNPM_|INIT_CWD$|TURBO_|AWS_)/.test(name)) continue;
    env[name] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "" && dir.startsWith("/") && relativeOutside(dir, root))
    .join(delimiter);
  return { ...env, ...extra };
}

/**
 * Runs a command and collects its output. Resolves (never rejects) with `{ code, stdout, stderr,
 * output, ms }`; `code` is null when it was killed after `timeout` milliseconds.
 */
export function run(command, args, { cwd, env = consumerEnv(), timeout = 120_000, input } = {}) {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let output = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      output += chunk;
    });
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeout} ms]`;
      child.kill("SIGKILL");
    }, timeout);
    child.on("error", (error) => {
      clearTimeout(timer);
      done({ code: -1, stdout, stderr, output: `${output}${error.message}`, ms: Date.now() - started });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, output, ms: Date.now() - started });
    });
    child.stdin.end(input);
  });
}

/** Runs `count` tasks at a time over `items`, in order of start. */
export async function inParallel(items, count, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(count, items.length) }, worker));
  return results;
}

/**
 * The checks of a run: each has a subset ("pack" for the packing step), a step and, when it
 * failed, the output that says why. `check` records one; `fail` throws out of the current step.
 */
export class Checks {
  list = [];
  verbose = false;

  /**
   * Records a check: `ok` true, or false with `detail` (the command's output, a message), printed
   * at once (its first lines; the summary repeats more). `ms`: how long it took, shown from 1 s.
   */
  record(subset, step, ok, detail = "", ms = 0) {
    this.list.push({ subset, step, ok, detail: String(detail).trim() });
    const time = ms >= 1000 ? ` (${(ms / 1000).toFixed(1)} s)` : "";
    console.log(`${ok ? "ok  " : "FAIL"} ${subset.padEnd(20)} ${step}${time}`);
    if ((!ok || this.verbose) && String(detail).trim() !== "") console.log(indent(String(detail).trim(), 6, 8));
    return ok;
  }

  /** Records a command's result: ok when it exited 0 (and `expect(result)` holds, if given). */
  command(subset, step, result, expect) {
    const problem = result.code !== 0 ? `exit code ${result.code}` : expect?.(result);
    const detail = problem ? `${problem}\n${result.output}` : this.verbose ? result.output : "";
    return this.record(subset, step, !problem, detail, result.ms);
  }

  /** Runs `body`, recording a failure with its error if it throws; true when it did not. */
  async attempt(subset, step, body) {
    try {
      const detail = await body();
      return this.record(subset, step, true, typeof detail === "string" ? detail : "");
    } catch (error) {
      return this.record(subset, step, false, error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  }

  get failures() {
    return this.list.filter((check) => !check.ok);
  }
}

/** `text` indented by `spaces`, at most `lines` lines (the rest counted). */
export function indent(text, spaces, lines = Infinity) {
  const all = text.split("\n");
  const shown = all.slice(0, lines);
  if (all.length > lines) shown.push(`... (${all.length - lines} more lines)`);
  return shown.map((line) => `${" ".repeat(spaces)}${line}`).join("\n");
}

/** A plain-text table: `rows` of cells, the first row the header; numbers (and "12.5") right-aligned. */
export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  const line = (row) =>
    row.map((cell, i) =>
      /^\d+(\.\d+)?$/.test(String(cell)) ? String(cell).padStart(widths[i]) : String(cell).padEnd(widths[i]),
    );
  return [
    line(rows[0]).join("  "),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.slice(1).map((row) => line(row).join("  ")),
  ].join("\n");
}
