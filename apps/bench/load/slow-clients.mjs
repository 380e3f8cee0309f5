// Clients that try to hold a server up, run beside the load test's readers: some send a request
// head a byte a second (it never completes), some ask for a large value and never read the body.
// The server's limits (zarr serve's --header-timeout and --idle-timeout) should close them, and
// in the meantime the readers must not notice them.
import { connect } from "node:net";

/**
 * Opens `drips` connections dripping a head and `stalls` connections not reading the answer for
 * `stallKey` (of `stallSize` bytes), to `url`. `report()` says how they ended: the drips closed by
 * the server (and when), the stalls cut by it. A paused socket sees no close, so `report()` reads
 * what the stalled ones still have buffered: a body the server cut ends short, one it still sends
 * would go on to the end. `close()` ends those still open.
 */
export function startSlowClients({ url, drips = 4, stalls = 4, stallKey, stallSize }) {
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
      entry.socket.on("data", (chunk) => (entry.bytes += chunk.length));
      entry.socket.once("data", () => entry.socket.pause());
    });
  /** Reads a stalled socket again until it closes, or until it has had the whole body (not cut). */
  const drain = (entry) =>
    new Promise((resolve) => {
      if (entry.closedAfterMs !== undefined) return resolve();
      const check = () => {
        if (entry.bytes >= stallSize) resolve();
      };
      entry.socket.on("data", check);
      entry.socket.on("close", () => resolve());
      entry.socket.resume();
    });
  return {
    report: async () => {
      const of = (kind) => sockets.filter((s) => s.kind === kind);
      const closed = of("drip")
        .filter((s) => s.closedAfterMs !== undefined)
        .map((s) => s.closedAfterMs / 1000);
      const drip =
        closed.length === 0
          ? `${drips} still open`
          : `${closed.length} of ${drips} closed by the server after ${Math.min(...closed).toFixed(1)}–${Math.max(...closed).toFixed(1)} s`;
      await Promise.all(of("stall").map(drain));
      const cut = of("stall").filter((s) => s.closedAfterMs !== undefined && s.bytes < stallSize);
      const stall = `${cut.length} of ${stalls} cut by the server${cut.length > 0 ? ` (${cut.map((s) => (s.bytes / 2 ** 20).toFixed(1)).join(", ")} of ${(stallSize / 2 ** 20).toFixed(0)} MiB received)` : ""}`;
      return { drip, stall };
    },
    close: () => {
      for (const entry of sockets) {
        clearInterval(entry.timer);
        entry.socket.destroy();
      }
    },
  };
}
