import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { afterEach } from "vitest";

// Servers on plain TCP that answer as each test scripts them, down to the byte and the write:
// what node:http servers cannot be made to do.

export interface RawRequest {
  /** The request head as sent, without its final blank line. */
  head: string;
  method: string;
  path: string;
  /** Header values by lower-case name. */
  headers: Record<string, string>;
  body: Buffer;
  /** The how-manyth connection of the server this came on (1, 2, ...). */
  connection: number;
}

export interface RawServer {
  url: string;
  /** Connections accepted so far. */
  connections: () => number;
  requests: RawRequest[];
}

const open: { server: Server; sockets: Set<Socket> }[] = [];
afterEach(async () => {
  for (const { server, sockets } of open.splice(0)) {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * A server on 127.0.0.1 (for this test only) that reads each request (head, and a body of its
 * Content-Length) and calls `answer` with it and the socket to write the response on.
 */
export async function rawServer(answer: (request: RawRequest, socket: Socket) => void): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const requests: RawRequest[] = [];
  let connections = 0;
  const server = createServer((socket) => {
    const connection = ++connections;
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on("error", () => undefined);
    let held = Buffer.alloc(0);
    socket.on("data", (piece: Buffer) => {
      held = Buffer.concat([held, piece]);
      for (;;) {
        const end = held.indexOf("\r\n\r\n");
        if (end === -1) return;
        const head = held.toString("latin1", 0, end);
        const [line, ...fields] = head.split("\r\n");
        const headers = Object.fromEntries(
          fields.map((field) => [
            field.slice(0, field.indexOf(":")).toLowerCase(),
            field.slice(field.indexOf(":") + 1).trim(),
          ]),
        );
        const length = Number(headers["content-length"] ?? 0);
        if (held.length < end + 4 + length) return;
        const [method, path] = line!.split(" ");
        const request = {
          head,
          method: method!,
          path: path!,
          headers,
          body: held.subarray(end + 4, end + 4 + length),
          connection,
        };
        held = held.subarray(end + 4 + length);
        requests.push(request);
        answer(request, socket);
      }
    });
  });
  open.push({ server, sockets });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    connections: () => connections,
    requests,
  };
}

/** Writes `pieces` one by one, each in a write of its own after the last has gone out. */
export async function writeEach(socket: Socket, pieces: (string | Uint8Array)[], pause = 2): Promise<void> {
  for (const piece of pieces) {
    if (socket.destroyed) return;
    await new Promise((resolve) => socket.write(piece, resolve));
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** `HTTP/1.1 200 OK` with `headers` and `body`, as one string of bytes. */
export function response(
  body: string,
  headers: Record<string, string | number> = { "content-length": body.length },
  statusLine = "HTTP/1.1 200 OK",
): string {
  return `${statusLine}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n${body}`;
}
