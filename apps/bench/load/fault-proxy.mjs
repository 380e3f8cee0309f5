// The load test's network between the clients and a server: an HTTP proxy on 127.0.0.1 that holds
// every response back `delayMs` before its head goes out (what a network between regions adds),
// and cuts one in `cutEvery` successful responses with a body part way through it (the body's
// first half sent, then the connection destroyed: the client sees fewer bytes than Content-Length
// said, as when a connection drops). Which responses are cut is a count, not a draw, so a run
// cuts the same share every time and a retried request is never cut twice running by chance.
// Requests are forwarded untouched (Host included, so S3 signatures still match).
//
// As a process (`node fault-proxy.mjs --upstream URL --delay MS --cut-every N`, started with
// `fork`): prints `{"url": ...}` on stdout, answers the message "stats" with its counts, and
// exits when its parent goes.
import { Agent, createServer, request } from "node:http";

/**
 * Starts the proxy in front of `upstream` (`http://127.0.0.1:port`). Resolves to
 * `{ url, stats(), close() }`; `stats()` counts responses, those cut, and those that failed upstream.
 */
export async function startFaultProxy({ upstream, delayMs = 20, cutEvery = 100 }) {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const stats = { responses: 0, cut: 0, upstreamErrors: 0 };
  let eligible = 0; // successful responses with a body of 2 bytes or more, the ones that can be cut
  const server = createServer((req, res) => {
    const forward = request({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent,
    });
    forward.on("response", (answer) => {
      const length = Number(answer.headers["content-length"] ?? Number.NaN);
      const status = answer.statusCode ?? 502;
      const cut = status >= 200 && status < 300 && length >= 2 && ++eligible % cutEvery === 0;
      setTimeout(() => {
        stats.responses++;
        res.writeHead(status, answer.headers);
        if (!cut) {
          answer.pipe(res);
          return;
        }
        stats.cut++;
        let sent = 0;
        const half = Math.floor(length / 2);
        answer.on("data", (chunk) => {
          if (sent >= half) return;
          const part = chunk.subarray(0, half - sent);
          sent += part.length;
          res.write(part);
          if (sent >= half) {
            // the half on its way, then the connection dropped mid-body
            res.socket?.end(() => res.destroy());
            answer.destroy();
          }
        });
      }, delayMs);
    });
    forward.on("error", () => {
      stats.upstreamErrors++;
      res.destroy();
    });
    req.pipe(forward);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stats: () => ({ ...stats }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `--name value` from argv. */
function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
}

if (process.argv.includes("--upstream") && typeof process.send === "function") {
  const proxy = await startFaultProxy({
    upstream: option("upstream"),
    delayMs: Number(option("delay", "20")),
    cutEvery: Number(option("cut-every", "100")),
  });
  process.on("message", (message) => {
    if (message === "stats") process.send({ stats: proxy.stats() });
  });
  process.on("disconnect", () => void proxy.close().finally(() => process.exit(0)));
  process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`);
}
