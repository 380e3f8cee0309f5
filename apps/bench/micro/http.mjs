// `node apps/bench/micro/http.mjs [--data DIR] [--rounds 5] [--reps 5] [--mode fetch|read]
//  [--transports ours,fetch,undici-fetch,undici-request,undici-dispatch]`
//
// H1's shape (R1 over HTTP/1.1 on 127.0.0.1 from the bench's own file server, apps/bench/src/
// http-server.mjs, in a process of its own as in `pnpm bench`), once per transport per round, each
// in a fresh client process (http-client.mjs), the transports' order rotated every round so
// that a busy spell of the shared machine does not fall on one of them. Prints each round, then
// per transport the medians over rounds of: the cold time (a process's first read), the warm
// time and the warm CPU time (medians of its later reads), and the load average.
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "../src/lib.mjs";
import { h1Data } from "./h1-data.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : fallback;
};
const rounds = Number(option("rounds", 5));
const reps = Number(option("reps", 5));
const mode = option("mode", "fetch");
const transports = option("transports", "ours,fetch,undici-fetch,undici-request,undici-dispatch").split(",");

function run(args, { onLine } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (onLine && out.includes("\n")) onLine(out.split("\n")[0], child);
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 || onLine ? resolve(out) : reject(new Error(`${args[0]} exited ${code}`))));
  });
}

const data = await h1Data(option("data"));
const server = await new Promise((resolve, reject) => {
  const child = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { serveDirectory } from ${JSON.stringify(join(here, "../src/http-server.mjs"))};
       const s = await serveDirectory(${JSON.stringify(data)}); console.log(s.url);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  child.stdout.once("data", (d) => resolve({ url: String(d).trim(), child }));
  child.on("error", reject);
});

const results = Object.fromEntries(transports.map((t) => [t, []]));
const loads = [loadavg()[0]];
console.log(`data ${data}, server ${server.url}, mode ${mode}, ${rounds} rounds x ${reps} reads per process`);
try {
  for (let round = 0; round < rounds; round++) {
    const order = transports.map((_, i) => transports[(i + round) % transports.length]);
    for (const transport of order) {
      const out = await run([
        join(here, "http-client.mjs"),
        "--transport",
        transport,
        "--url",
        server.url,
        "--mode",
        mode,
        "--reps",
        String(reps),
      ]);
      const { runs } = JSON.parse(out.trim().split("\n").at(-1));
      const checks = new Set(runs.map((r) => r.check));
      if (checks.size !== 1) throw new Error(`${transport}: the reads disagree: ${[...checks]}`);
      const result = {
        cold: runs[0].seconds,
        warm: median(runs.slice(1).map((r) => r.seconds)),
        warmCpu: median(runs.slice(1).map((r) => r.cpuSeconds)),
        check: runs[0].check,
      };
      results[transport].push(result);
      loads.push(loadavg()[0]);
      console.log(
        `round ${round + 1} ${transport.padEnd(15)} cold ${result.cold.toFixed(3)} s  warm ${result.warm.toFixed(3)} s  warm CPU ${result.warmCpu.toFixed(3)} s  (${result.check})`,
      );
    }
  }
} finally {
  server.child.kill();
}

const all = new Set(Object.values(results).flatMap((rs) => rs.map((r) => r.check)));
if (all.size !== 1) throw new Error(`the transports read different data: ${[...all]}`);
console.log(
  `\nmedians over ${rounds} rounds (load average ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}):`,
);
console.log("| transport | cold s | warm s | warm CPU s |");
console.log("| --- | ---: | ---: | ---: |");
for (const transport of transports) {
  const rs = results[transport];
  const m = (k) => median(rs.map((r) => r[k])).toFixed(3);
  console.log(`| ${transport} | ${m("cold")} | ${m("warm")} | ${m("warmCpu")} |`);
}
