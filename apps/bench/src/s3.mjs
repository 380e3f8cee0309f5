// The S3 cases' server side (issue 20): the repository's loopback S3 server (scripts/test-s3/:
// s3rver behind a SigV4 check, in a process of its own), and in front of it a proxy in the bench's
// process that every runner talks to. The proxy adds a fixed delay to every response (S3's 20 ms
// case: what a cloud region adds, which only concurrency hides) and counts what the clients send:
// requests, the bytes of each request's line and headers (the per-request overhead, signature
// included) and of its body, and the most requests in flight at once (the concurrency a client
// really used, whatever it was configured to).
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import { join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = fileURLToPath(new URL("../../../", import.meta.url));

/** The one account the test server knows (scripts/test-s3/client.ts). */
export const S3_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/**
 * Starts scripts/test-s3/server.ts as the tests do (spawn.ts: bundled, run with
 * --openssl-legacy-provider). spawn.ts is TypeScript, so it is bundled here first, its
 * `import.meta.url` kept pointing at its source (it finds server.ts and the workspace from it).
 * Resolves to `{ endpoint, close() }`.
 */
export async function startS3Server() {
  const { build } = await import("esbuild");
  const spawnSource = join(repo, "scripts/test-s3/spawn.ts");
  const dir = join(repo, "node_modules/.cache/z-bench-s3");
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `spawn-${process.pid}.mjs`);
  await build({
    entryPoints: [spawnSource],
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
    define: { "import.meta.url": JSON.stringify(pathToFileURL(spawnSource).href) },
  });
  try {
    const { spawnS3Server } = await import(pathToFileURL(outfile).href);
    return await spawnS3Server();
  } finally {
    rmSync(outfile, { force: true });
  }
}

/** Creates `bucket` (s3rver lets anonymous requests create buckets) and uploads every file under `dir` to `prefix/`. */
export async function uploadDirectory(endpoint, bucket, prefix, dir) {
  const created = await fetch(`${endpoint}/${bucket}`, { method: "PUT" });
  if (!created.ok && created.status !== 409)
    throw new Error(`creating bucket ${bucket}: ${created.status} ${await created.text()}`);
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  for (const file of files) {
    const path = join(file.parentPath, file.name);
    const key = `${prefix}/${relative(dir, path).split(sep).join("/")}`;
    const response = await fetch(`${endpoint}/${bucket}/${key}`, { method: "PUT", body: readFileSync(path) });
    if (!response.ok) throw new Error(`uploading ${key}: ${response.status} ${await response.text()}`);
  }
  return files.length;
}

/** The bytes of a request's line and headers as the client sent them (HTTP/1.1). */
export function requestHeadBytes(method, url, rawHeaders) {
  let bytes = Buffer.byteLength(`${method} ${url} HTTP/1.1\r\n`) + 2;
  for (let i = 0; i < rawHeaders.length; i += 2)
    bytes += Buffer.byteLength(rawHeaders[i]) + 2 + Buffer.byteLength(rawHeaders[i + 1]) + 2;
  return bytes;
}

/**
 * A proxy on 127.0.0.1 forwarding to `upstream` (headers untouched, `Host` included, so signatures
 * still match), holding each response back `delayMs` before its headers go out. `stats()` and
 * `reset()` read and clear the counts.
 */
export async function startProxy(upstream) {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  let delayMs = 0;
  let stats;
  const reset = () => {
    stats = { requests: 0, headBytes: 0, bodyBytes: 0, responseBytes: 0, inFlight: 0, maxInFlight: 0, byMethod: {} };
  };
  reset();
  const server = createServer((req, res) => {
    const mine = stats;
    mine.requests++;
    mine.byMethod[req.method] = (mine.byMethod[req.method] ?? 0) + 1;
    mine.headBytes += requestHeadBytes(req.method, req.url, req.rawHeaders);
    mine.maxInFlight = Math.max(mine.maxInFlight, ++mine.inFlight);
    let done = false;
    const finish = () => {
      if (!done) mine.inFlight--;
      done = true;
    };
    res.on("close", finish);
    req.on("data", (chunk) => (mine.bodyBytes += chunk.length));
    const forward = request({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent,
    });
    forward.on("response", (answer) => {
      const send = () => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on("data", (chunk) => (mine.responseBytes += chunk.length));
        answer.pipe(res);
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((ok, fail) => server.once("error", fail).listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    setDelay: (ms) => {
      delayMs = ms;
    },
    stats: () => {
      const { inFlight: _, ...rest } = stats;
      return { ...rest, byMethod: { ...rest.byMethod } };
    },
    reset,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        agent.destroy();
        server.close(() => ok());
      }),
  };
}

/** Deletes every object under `prefix/` in `bucket` (anonymous listings and DELETEs, which s3rver allows). */
export async function deletePrefix(endpoint, bucket, prefix) {
  for (;;) {
    const listing = await fetch(`${endpoint}/${bucket}?list-type=2&prefix=${encodeURIComponent(`${prefix}/`)}`);
    const keys = [...(await listing.text()).matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1]);
    if (keys.length === 0) return;
    for (const key of keys) await fetch(`${endpoint}/${bucket}/${key}`, { method: "DELETE" });
  }
}

/**
 * The S3 table: per case and implementation, medians over rounds of what the proxy counted for the
 * runner's process, per operation (each process runs `--repeat` operations): requests, requests
 * per second of the operations' time, bytes of request line and headers per request (the overhead
 * a chunk's request carries: the signature and the rest), body bytes sent, and the most requests
 * in flight at once.
 */
export function formatS3Table(runs, cases, impls, { markdownTable, median }) {
  const rows = [];
  for (const c of cases) {
    if (!c.kind.startsWith("s3")) continue;
    for (const impl of impls) {
      const mine = runs.filter((r) => r.case === c.id && r.impl === impl && r.status === "ok" && r.s3);
      if (mine.length === 0) continue;
      const per = (f) => median(mine.map(f));
      const ops = (r) => r.opSeconds?.length ?? 1;
      const requests = per((r) => r.s3.requests / ops(r));
      const perSecond = per((r) => r.s3.requests / r.opSeconds.reduce((a, b) => a + b, 0));
      const head = per((r) => r.s3.headBytes / r.s3.requests);
      const body = per((r) => r.s3.bodyBytes / ops(r));
      const inFlight = per((r) => r.s3.maxInFlight);
      const methods = Object.entries(mine[0].s3.byMethod)
        .map(([m, n]) => `${m} ${Math.round(n / ops(mine[0]))}`)
        .join(", ");
      rows.push([
        c.id,
        impl,
        `${c.delayMs ?? 0} ms`,
        requests.toFixed(0),
        methods,
        perSecond.toFixed(0),
        head.toFixed(0),
        body > 0 ? `${(body / 2 ** 20).toFixed(1)} MiB` : "0",
        inFlight.toFixed(0),
      ]);
    }
  }
  if (rows.length === 0) return undefined;
  return markdownTable(
    [
      "case",
      "impl",
      "added delay",
      "requests / op",
      "by method / op",
      "requests / s",
      "bytes sent / request (line + headers)",
      "body sent / op",
      "most in flight",
    ],
    rows,
  );
}
