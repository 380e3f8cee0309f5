import { Connection } from "./connection.js";

// Idle connections by origin (host:port), the most recently used last. No limit on how many are
// open: the stores' own concurrency limits bound that.
const idle = new Map<string, Connection[]>();

/** An idle connection to the origin of `url` (`reused`), or else a new one. */
export function acquire(url: URL): Connection {
  const port = url.port === "" ? 80 : Number(url.port);
  const origin = `${url.hostname}:${port}`;
  const connections = idle.get(origin);
  const connection = connections?.pop();
  if (connection !== undefined) {
    if (connections!.length === 0) idle.delete(origin);
    connection.reused = true;
    return connection;
  }
  // An IPv6 literal's brackets belong to the URL, not to the address.
  const fresh = new Connection(origin, url.hostname.replace(/^\[(.*)\]$/, "$1"), port);
  fresh.onClose = () => forget(fresh);
  return fresh;
}

/** Puts `connection` back for the next request to its origin. */
export function release(connection: Connection): void {
  if (connection.closed) return;
  connection.idle();
  const connections = idle.get(connection.origin);
  if (connections === undefined) idle.set(connection.origin, [connection]);
  else connections.push(connection);
}

function forget(connection: Connection): void {
  const connections = idle.get(connection.origin);
  const at = connections?.indexOf(connection) ?? -1;
  if (at === -1) return;
  connections!.splice(at, 1);
  if (connections!.length === 0) idle.delete(connection.origin);
}
