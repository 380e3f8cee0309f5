// Clients that try to hold a server up, run beside the load test's readers: some send a request
// head a byte a second (it never completes), some ask for a large value and never read the body.
// The server's limits (zarr serve's --header-timeout and --idle-timeout) should close them, and
// in the meantime the readers must not notice them.
import { connect } from "node:net";

/**
 * Opens `drips` connections dripping a head and `stalls` connections not reading the answer for
 * `stallKey`, to `url`. `report()` says how each ended so far (closed by the server, and when);
 * `close()` ends those still open.
 */
export function startSlowClients({ url, drips = 4, stalls = 4, stallKey }) {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  const sockets = [];
  const open = (kind, onConnect) => {
    const socket = connect(Number(port), hostname);
    const entry = { kind, socket, closedAfterMs: undefined, bytes: 0 };
    socket.on("error", () => undefined);
    socket.on("close", () => {
      entry.closedAfterMs ??= performance.now() - started;
      clearInterval(entry.timer);
    });
    socket.on("connect", () => onConnect(entry));
    sockets.push(entry);
  };
  const head = `GET /${stallKey} HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: ${"s".repeat(100_000)}\r\n\r\n`;
  for (let i = 0; i < drips; i++)
    open("drip", (entry) => {
      let sent = 0;
      entry.timer = setInterval(() => entry.socket.write(head[sent++ % head.length]), 1000);
    });
  for (let i = 0; i < stalls; i++)
    open("stall", (entry) => {
      entry.socket.write(`GET /${stallKey} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
      // a few bytes of the answer, so the server has begun to send, then nothing is read
      entry.socket.once("data", (chunk) => {
        entry.bytes += chunk.length;
        entry.socket.pause();
      });
    });
  return {
    report: () => {
      const of = (kind) => sockets.filter((s) => s.kind === kind);
      const describe = (list) => {
        const closed = list.filter((s) => s.closedAfterMs !== undefined).map((s) => s.closedAfterMs / 1000);
        if (closed.length === 0) return `${list.length} still open`;
        const range = `${Math.min(...closed).toFixed(1)}–${Math.max(...closed).toFixed(1)} s`;
        return `${closed.length} of ${list.length} closed by the server after ${range}`;
      };
      return { drip: describe(of("drip")), stall: describe(of("stall")) };
    },
    close: () => {
      for (const entry of sockets) {
        clearInterval(entry.timer);
        entry.socket.destroy();
      }
    },
  };
}
