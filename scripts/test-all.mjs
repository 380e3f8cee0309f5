#!/usr/bin/env node
// `pnpm test:all`: every check, in order, each step timed. Tools first (scripts/ensure-tools.sh
// installs what the cross-checks need), then the build every later step uses; after those, a
// failing step does not stop the others, so one run reports every failure. Ends with a table of
// the steps and their times (what CI spends, to keep it under 15 minutes) and one line
// `test:all: N passed, N failed`.
import { spawnSync } from "node:child_process";

/** [name, command, whether the run stops when it fails] */
const steps = [
  ["tools", "bash scripts/ensure-tools.sh", true],
  ["build", "pnpm build", true],
  ["lint", "pnpm lint", false],
  ["typecheck", "pnpm typecheck", false],
  ["api + docs:check", "pnpm docs:check", false],
  ["examples", "pnpm examples", false],
  ["test", "pnpm test", false],
  ["test:browser", "pnpm test:browser", false],
  ["size", "pnpm size", false],
  ["test:consumer", "pnpm test:consumer", false],
  ["test:conformance", "pnpm test:conformance", false],
  ["test:xarray", "pnpm test:xarray", false],
];

// `node scripts/test-all.mjs test size` runs only the steps named.
const only = process.argv.slice(2);
const planned = steps.filter(([name]) => only.length === 0 || only.includes(name));
const results = [];
for (const [name, command, required] of planned) {
  console.log(`\n### test:all: ${name} (${command})`);
  const start = performance.now();
  const run = spawnSync(command, { shell: true, stdio: "inherit" });
  const seconds = (performance.now() - start) / 1000;
  const ok = run.status === 0;
  results.push({ name, seconds, ok });
  console.log(`### test:all: ${name} ${ok ? "passed" : "FAILED"} in ${seconds.toFixed(0)} s`);
  if (!ok && required) break;
}

const total = results.reduce((sum, r) => sum + r.seconds, 0);
console.log("\n| step | result | seconds |\n|---|---|---|");
for (const r of results) console.log(`| ${r.name} | ${r.ok ? "passed" : "FAILED"} | ${r.seconds.toFixed(0)} |`);
console.log(`| total | | ${total.toFixed(0)} |\n`);
const failed = results.filter((r) => !r.ok).length;
const notRun = planned.length - results.length;
if (notRun > 0) console.log(`test:all: ${notRun} steps not run after a required step failed`);
console.log(`test:all: ${results.length - failed} passed, ${failed + notRun} failed`);
process.exit(failed + notRun > 0 ? 1 : 0);
