// The load test (issue 26): N clients reading random values and byte ranges for a while, through
// a proxy that adds latency and cuts responses mid-body, from `zarr serve` with HttpStore or from
// the loopback S3 server (scripts/test-s3/) with S3Store. Everything listens on 127.0.0.1 and
// stops by itself; what it measures is in `runLoad`'s result, `formatTable` prints it.
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpStore } from "@z/store-http";
import { S3Store } from "@z/store-s3";
import { startS3Server } from "../src/s3.mjs";
import { percentile, runClients } from "./clients.mjs";
import { makeValues, writeDirectory, writeStore } from "./dataset.mjs";
import { rssOf, startProxyProcess, startServe } from "./processes.mjs";
import { startSlowClients } from "./slow-clients.mjs";

const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** The key the slow clients ask for: larger than what the kernel buffers, so a stalled reader stalls the server's write. */
const STALL_KEY = "large";
const STALL_SIZE = 32 << 20;

/**
 * One run against `backend` ("http": `zarr serve` + HttpStore; "s3": the S3 test server +
 * S3Store): `clients` clients for `seconds`, `delayMs` added to each response, one successful
 * response in `cutEvery` cut mid-body. With `slowClients` (http only), that many connections
 * drip a head and as many stall a body meanwhile; `serveArgs` go to `zarr serve`. The whole run is bounded: it gives up after
 * its duration and a minute more.
 */
export async function runLoad({
  backend,
  clients = 64,
  seconds = 60,
  delayMs = 20,
  cutEvery = 100,
  slowClients = 4,
  serveArgs = [],
  values = makeValues(),
}) {
  const cleanups = [];
  const watchdog = new Promise((_, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${backend} run did not end in time`)), (seconds + 60) * 1000);
    timer.unref();
    cleanups.push(() => clearTimeout(timer));
  });
  try {
    return await Promise.race([run(), watchdog]);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }

  async function run() {
    const server = backend === "http" ? await serveDirectory() : await s3Bucket();
    const proxy = await startProxyProcess({ upstream: server.upstream, delayMs, cutEvery });
    cleanups.push(() => proxy.close());
    const stores = Array.from({ length: clients }, () => server.client(proxy.url));
    const slow =
      backend === "http" && slowClients > 0
        ? startSlowClients({
            url: server.upstream,
            drips: slowClients,
            stalls: slowClients,
            stallKey: STALL_KEY,
            stallSize: STALL_SIZE,
          })
        : undefined;
    if (slow) cleanups.push(() => slow.close());
    const rssStart = { server: rssOf(server.pid), client: process.memoryUsage().rss };
    const started = performance.now();
    const result = await runClients({
      stores,
      values,
      durationMs: seconds * 1000,
      suffixRanges: backend === "http",
    });
    const elapsed = (performance.now() - started) / 1000;
    const rssEnd = { server: rssOf(server.pid), client: process.memoryUsage().rss };
    const sorted = result.latencies.sort();
    return {
      backend,
      clients,
      seconds,
      delayMs,
      cutEvery,
      operations: result.operations,
      perSecond: result.operations / elapsed,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      errors: result.errors,
      firstErrors: result.firstErrors,
      wrongBytes: result.wrongBytes,
      proxy: await proxy.stats(),
      rssStart,
      rssEnd,
      slow: await slow?.report(),
    };
  }

  /** `zarr serve` of a directory holding `values` (and the slow clients' large value). */
  async function serveDirectory() {
    const dir = await mkdtemp(join(tmpdir(), "z-load-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await writeDirectory(dir, values);
    await writeFile(join(dir, STALL_KEY), "");
    await truncate(join(dir, STALL_KEY), STALL_SIZE); // sparse: zeros that take no disk
    const serve = await startServe(dir, serveArgs);
    cleanups.push(() => serve.close());
    return {
      upstream: serve.url.replace(/\/$/, ""),
      pid: serve.pid,
      client: (proxyUrl) => new HttpStore(`${proxyUrl}/`),
    };
  }

  /** The S3 test server with a new bucket holding `values`. */
  async function s3Bucket() {
    const s3 = await startS3Server();
    cleanups.push(() => s3.close());
    const bucket = `load-${Date.now().toString(36)}`;
    const created = await fetch(`${s3.endpoint}/${bucket}`, { method: "PUT" });
    if (!created.ok) throw new Error(`creating bucket ${bucket}: ${created.status} ${await created.text()}`);
    const options = { bucket, prefix: "data", region: "us-east-1", credentials: CREDENTIALS, environment: {} };
    await writeStore(new S3Store({ ...options, endpoint: s3.endpoint }), values);
    return {
      upstream: s3.endpoint,
      pid: s3.pid,
      client: (proxyUrl) => new S3Store({ ...options, endpoint: proxyUrl, writable: false }),
    };
  }
}

const mib = (bytes) => (bytes === undefined ? "?" : (bytes / 2 ** 20).toFixed(0));

/** The results of `runLoad` as a markdown table, with a line on the slow clients under it. */
export function formatTable(results) {
  const header = [
    "store",
    "clients",
    "seconds",
    "requests",
    "requests / s",
    "p50 ms",
    "p99 ms",
    "errors",
    "wrong bytes",
    "responses cut",
    "server RSS MiB (start → end)",
    "client RSS MiB (start → end)",
  ];
  const rows = results.map((r) => [
    r.backend === "http" ? "HttpStore ← zarr serve" : "S3Store ← s3rver",
    String(r.clients),
    String(r.seconds),
    String(r.operations),
    r.perSecond.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    String(r.errors),
    String(r.wrongBytes),
    `${r.proxy.cut} of ${r.proxy.responses}`,
    `${mib(r.rssStart.server)} → ${mib(r.rssEnd.server)}`,
    `${mib(r.rssStart.client)} → ${mib(r.rssEnd.client)}`,
  ]);
  const line = (cells) => `| ${cells.join(" | ")} |`;
  const table = [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
  const notes = results
    .filter((r) => r.slow !== undefined)
    .map(
      (r) =>
        `Slow clients beside the ${r.backend} run: heads dripped a byte a second: ${r.slow.drip}; bodies never read: ${r.slow.stall}.`,
    );
  const errors = results
    .filter((r) => r.firstErrors.length > 0)
    .map((r) => `First errors of the ${r.backend} run: ${r.firstErrors.join(" | ")}`);
  return [table, ...notes, ...errors].join("\n\n");
}
