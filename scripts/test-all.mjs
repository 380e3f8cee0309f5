#!/usr/bin/env node
// `pnpm test:all`: every check, each step timed. Tools first (scripts/ensure-tools.sh installs what
// the cross-checks need), then the build every later step uses; after those, a failing step does
// not stop the others, so one run reports every failure. Ends with a table of the steps and their
// times (what CI spends, to keep it under 15 minutes) and one line `test:all: N passed, N failed`.
//
// The steps after the build run in phases. A phase's lanes run side by side, each lane its steps
// one after another: the steps that run turbo (which may write packages' dist/ again from its
// cache) run alone first; then `pnpm test` runs beside the other checks, which only read dist/ and
// sources. On 2 cores that keeps both busy: most test files wait on child processes (zarr-python,
// TensorStore, servers, Chromium) rather than compute. A step beside others has its output held
// and printed when it ends, so steps' lines do not interleave.
import { spawn } from "node:child_process";

/** [name, command, whether the run stops when it fails] */
const TOOLS = ["tools", "bash scripts/ensure-tools.sh", true];
const BUILD = ["build", "pnpm build", true];
const phases = [
  [[TOOLS]],
  [[BUILD]],
  [
    [
      ["lint", "pnpm lint", false],
      ["typecheck", "pnpm typecheck", false],
      ["api + docs:check", "pnpm docs:check", false],
      ["examples", "pnpm examples", false],
    ],
  ],
  [
    [["test", "pnpm test", false]],
    [
      ["test:browser", "pnpm test:browser", false],
      ["test:consumer", "pnpm test:consumer", false],
      ["size", "pnpm size", false],
      ["test:conformance", "pnpm test:conformance", false],
      ["test:xarray", "pnpm test:xarray", false],
    ],
  ],
];

// `node scripts/test-all.mjs test size` runs only the steps named.
const only = process.argv.slice(2);
const wanted = ([name]) => only.length === 0 || only.includes(name);
const planned = phases
  .map((lanes) => lanes.map((lane) => lane.filter(wanted)).filter((lane) => lane.length > 0))
  .filter((lanes) => lanes.length > 0);

/** Runs one step; its output streams when it runs alone, else is held and printed when it ends. */
function runStep([name, command], alone) {
  return new Promise((resolve) => {
    const start = performance.now();
    const header = `\n### test:all: ${name} (${command})`;
    if (alone) console.log(header);
    const child = spawn(command, { shell: true, stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"] });
    const held = [];
    child.stdout?.on("data", (chunk) => held.push(chunk));
    child.stderr?.on("data", (chunk) => held.push(chunk));
    child.on("close", (code) => {
      const seconds = (performance.now() - start) / 1000;
      const ok = code === 0;
      if (!alone) {
        console.log(header);
        process.stdout.write(Buffer.concat(held));
      }
      console.log(`### test:all: ${name} ${ok ? "passed" : "FAILED"} in ${seconds.toFixed(0)} s`);
      resolve({ name, seconds, ok });
    });
  });
}

const results = [];
const started = performance.now();
let stopped = false;
for (const lanes of planned) {
  const alone = lanes.length === 1;
  const done = await Promise.all(
    lanes.map(async (lane) => {
      const mine = [];
      for (const step of lane) {
        const result = await runStep(step, alone);
        mine.push(result);
        if (!result.ok && step[2]) return { mine, stop: true };
      }
      return { mine, stop: false };
    }),
  );
  for (const { mine, stop } of done) {
    results.push(...mine);
    stopped ||= stop;
  }
  if (stopped) break;
}

const wall = (performance.now() - started) / 1000;
console.log("\n| step | result | seconds |\n|---|---|---|");
for (const r of results) console.log(`| ${r.name} | ${r.ok ? "passed" : "FAILED"} | ${r.seconds.toFixed(0)} |`);
console.log(`| total (wall clock; steps beside each other overlap) | | ${wall.toFixed(0)} |\n`);
const failed = results.filter((r) => !r.ok).length;
const notRun = planned.flat(2).length - results.length;
if (notRun > 0) console.log(`test:all: ${notRun} steps not run after a required step failed`);
console.log(`test:all: ${results.length - failed} passed, ${failed + notRun} failed`);
process.exit(failed + notRun > 0 ? 1 : 0);
