// A small static file server for H1, H2 and H3: GET and HEAD of files under one directory, with single
// byte ranges (`bytes=a-b`, `bytes=a-`, `bytes=-n`), on 127.0.0.1 only. It counts what it serves
// (`stats()`, cleared by `reset()`, which the bench calls around each runner process), as the S3
// cases' proxy does: how many requests a reader makes per operation is half of what H2 measures.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer } from "node:http";
import { resolve, sep } from "node:path";

/** Parses a Range header against a size: `{start, end}` (end inclusive), "unsatisfiable", or undefined (ignore it). */
export function parseRange(header, size) {
  const m = /^bytes=(\d*)-(\d*)$/.exec(String(header ?? "").trim());
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const n = Number(m[2]);
    if (n === 0) return "unsatisfiable";
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

/**
 * The counts of a fresh period: requests by method, ranged ones (a satisfiable `Range`: 206) and
 * the suffix ranges among them (`bytes=-n`, as a shard's index at the end is read), 404s, body
 * bytes sent, and the most requests in flight at once.
 */
const emptyStats = () => ({
  requests: 0,
  byMethod: {},
  ranged: 0,
  suffixRanged: 0,
  notFound: 0,
  bodyBytes: 0,
  inFlight: 0,
  maxInFlight: 0,
});

/**
 * Starts the server; resolves to `{ url, stats(), reset(), setDelay(ms), close() }`. `setDelay`
 * holds every response back that long before its headers go out (H3's 20 ms, as a server far away
 * adds), as the S3 cases' proxy does.
 */
export async function serveDirectory(root) {
  const base = resolve(root);
  let stats = emptyStats();
  let delayMs = 0;
  const server = createServer(async (request, response) => {
    const mine = stats;
    mine.requests++;
    mine.byMethod[request.method] = (mine.byMethod[request.method] ?? 0) + 1;
    mine.maxInFlight = Math.max(mine.maxInFlight, ++mine.inFlight);
    response.on("close", () => mine.inFlight--);
    if (delayMs > 0) await new Promise((done) => setTimeout(done, delayMs));
    try {
      if (request.method !== "GET" && request.method !== "HEAD") {
        response.writeHead(405, { allow: "GET, HEAD" }).end();
        return;
      }
      const path = resolve(base, `.${decodeURIComponent(new URL(request.url, "http://x").pathname)}`);
      if (path !== base && !path.startsWith(base + sep)) {
        response.writeHead(403).end();
        return;
      }
      const info = await stat(path).catch(() => undefined);
      if (!info?.isFile()) {
        mine.notFound++;
        response.writeHead(404, { "content-length": 0 }).end();
        return;
      }
      const range = parseRange(request.headers.range, info.size);
      if (range === "unsatisfiable") {
        response.writeHead(416, { "content-range": `bytes */${info.size}`, "content-length": 0 }).end();
        return;
      }
      const headers = { "accept-ranges": "bytes", "content-type": "application/octet-stream" };
      const { start, end } = range ?? { start: 0, end: info.size - 1 };
      headers["content-length"] = info.size === 0 ? 0 : end - start + 1;
      if (range) {
        headers["content-range"] = `bytes ${start}-${end}/${info.size}`;
        mine.ranged++;
        if (/^bytes=-/.test(String(request.headers.range).trim())) mine.suffixRanged++;
      }
      response.writeHead(range ? 206 : 200, headers);
      if (request.method === "HEAD" || info.size === 0) {
        response.end();
        return;
      }
      mine.bodyBytes += headers["content-length"];
      createReadStream(path, { start, end })
        .on("error", () => response.destroy())
        .pipe(response);
    } catch {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    }
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((ok, fail) => server.once("error", fail).listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => {
      const { inFlight: _, ...rest } = stats;
      return { ...rest, byMethod: { ...rest.byMethod } };
    },
    reset: () => {
      stats = emptyStats();
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}
