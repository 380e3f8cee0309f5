// `pnpm load`: the load test's full form (64 clients, 60 s, HttpStore then S3Store) unless told
// otherwise, printing a markdown table. Options: --clients N, --seconds S, --stores http,s3,
// --delay MS, --cut-every N, --slow-clients N, --idle-timeout MS (zarr serve's, default 20000 here
// so that a body left unread is cut within a 60 s run). Exits 1 when a run had errors or wrong bytes.
import { formatTable, runLoad } from "./load.mjs";

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}

const clients = Number(option("clients", "64"));
const seconds = Number(option("seconds", "60"));
const delayMs = Number(option("delay", "20"));
const cutEvery = Number(option("cut-every", "100"));
const slowClients = Number(option("slow-clients", "4"));
const backends = option("stores", "http,s3").split(",");
const serveArgs = ["--idle-timeout", option("idle-timeout", "20000")];

const results = [];
for (const backend of backends) {
  process.stderr.write(`load: ${backend}, ${clients} clients, ${seconds} s …\n`);
  results.push(await runLoad({ backend, clients, seconds, delayMs, cutEvery, slowClients, serveArgs }));
}
process.stdout.write(
  `${clients} clients for ${seconds} s each, ${delayMs} ms added to every response, one successful response in ${cutEvery} cut mid-body, zarr serve ${serveArgs.join(" ")} (node ${process.version}, load average ${(
    await import("node:os")
  )
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")})\n\n${formatTable(results)}\n`,
);
process.exitCode = results.some((r) => r.errors > 0 || r.wrongBytes > 0) ? 1 : 0;
