#!/usr/bin/env node
// Each anchor's bench runner against a plain loop of the same library (the loop_* scripts here),
// on the same data, in one session, alternating loop and runner processes (each first in every
// other round): the runner must not be
// slower than the loop, or the bench measures its own harness rather than the library (issue 29).
//
// usage: node apps/bench/sanity/compare.mjs --data DIR [--case R1] [--rounds 3] [--repeat 5]
//          [--impls tensorstore,zarr-python,zarrita]
// DIR is a bench data directory (`pnpm bench --keep-data` or `--data DIR` leaves one).
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { caseById } from "../src/cases.mjs";
import { markdownTable, median } from "../src/lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const app = join(here, "..");
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : fallback;
};
const data = option("data");
if (!data) {
  console.error("usage: compare.mjs --data DIR [--case R1] [--rounds 3] [--repeat 5] [--impls ...]");
  process.exit(2);
}
const c = caseById(option("case", "R1"));
if (c.kind !== "read") throw new Error(`compare.mjs runs full-read cases only, not ${c.id} (${c.kind})`);
const rounds = Number(option("rounds", 3));
const repeat = Number(option("repeat", 5));
const impls = option("impls", "tensorstore,zarr-python,zarrita").split(",");
const v3 = c.zarrFormat === 3;

const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: app, encoding: "utf8", maxBuffer: 1 << 24 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1));
};
const tensorstorePython = () => {
  const result = spawnSync("bash", [join(app, "python/ensure-tensorstore.sh")], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`ensure-tensorstore.sh failed:\n${result.stderr}`);
  return result.stdout.trim().split("\n").at(-1);
};

const array = join(data, c.array);
const sides = {
  tensorstore: () => {
    const python = tensorstorePython();
    return {
      loop: [python, [join(here, "loop_tensorstore.py"), array, String(repeat), v3 ? "zarr3" : "zarr2"]],
      runner: [python, [join(app, "runners/tensorstore_runner.py")]],
    };
  },
  "zarr-python": () => ({
    loop: ["/usr/bin/python3", [join(here, "loop_zarr_python.py"), array, String(repeat)]],
    runner: ["/usr/bin/python3", [join(app, "runners/zarr_python.py")]],
  }),
  zarrita: () => ({
    loop: [process.execPath, [join(here, "loop_zarrita.mjs"), array, String(repeat), v3 ? "v3" : "v2"]],
    runner: [process.execPath, [join(app, "runners/zarrita.mjs")]],
  }),
};

/** cold / warm wall seconds and cold / warm CPU seconds of one process, from either side's line. */
function fold(side, line) {
  if (side === "loop") {
    const cpu = line.user.map((u, i) => u + line.system[i]);
    return {
      cold: line.wall[0],
      warm: median(line.wall.slice(1)),
      cpuCold: cpu[0],
      cpuWarm: median(cpu.slice(1)),
      peak: line.peakRssBytes,
    };
  }
  if (line.status !== "ok") throw new Error(`runner: ${line.status} ${line.detail}`);
  return {
    cold: line.seconds,
    warm: line.warmSeconds,
    cpuCold: line.cpuSeconds,
    cpuWarm: line.warmCpuSeconds,
    peak: line.peakRssBytes,
  };
}

const load = [loadavg()[0]];
const rows = [];
for (const impl of impls) {
  const { loop, runner } = sides[impl]();
  const results = { loop: [], runner: [] };
  const args = [...runner[1], "--case", c.id, "--data", data, "--repeat", String(repeat)];
  for (let round = 0; round < rounds; round++) {
    // Each side goes first in every other round: neither always inherits the other's memory state.
    const order = round % 2 === 0 ? ["loop", "runner"] : ["runner", "loop"];
    for (const side of order) {
      const line = side === "loop" ? run(loop[0], loop[1]) : run(runner[0], args);
      results[side].push(fold(side, line));
    }
  }
  const med = (side, field) => median(results[side].map((r) => r[field]));
  for (const side of ["loop", "runner"]) {
    rows.push([
      impl,
      side,
      ...["cold", "warm", "cpuCold", "cpuWarm"].map((f) => med(side, f).toFixed(3)),
      `${Math.round(med(side, "peak") / 2 ** 20)} MiB`,
    ]);
  }
  rows.push([
    impl,
    "runner ÷ loop",
    ...["cold", "warm", "cpuCold", "cpuWarm"].map((f) => `${(med("runner", f) / med("loop", f)).toFixed(2)}×`),
    "",
  ]);
}
load.push(loadavg()[0]);
console.log(
  `${c.id} (${array}), ${rounds} round(s) of one loop and one runner process each (alternating which goes first), ${repeat} reads per process; medians over rounds; load average (1 min) ${load.map((l) => l.toFixed(1)).join(" → ")}\n`,
);
console.log(markdownTable(["impl", "side", "cold s", "warm s", "cold CPU s", "warm CPU s", "peak RSS"], rows));
