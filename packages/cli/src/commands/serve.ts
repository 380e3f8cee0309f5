import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline } from "node:stream/promises";
import { keyPrefix, StoreError, type Store } from "@z/meta";
import type { Command, Io } from "../command.js";
import { booleanFlag, CommandError, integerFlag, positionals, stringFlag } from "../command.js";
import { isStreamingStore, type OpenedValue, ServedDirectoryStore } from "../served-directory-store.js";
import { limitedServer, SERVE_LIMIT_FLAGS, SERVE_LIMITS_HELP, serveLimits } from "../serve-limits.js";
import { withStore } from "../store-arg.js";

export const serve: Command = {
  name: "serve",
  summary: "serve a store over HTTP on 127.0.0.1 (Range requests, CORS), until Ctrl-C",
  usage: "zarr serve STORE [--path P] [--port N] [--follow-symlinks] [limits]",
  details: `GET and HEAD /KEY answer with the value under KEY (200), a part of it for a Range header
(206; bytes=0-99, bytes=100-, bytes=-100), 404 for a missing key, 416 for an unsatisfiable range.
Every answer allows any origin (CORS), so browsers can read the store. Nothing can be written.
A directory's symbolic links are followed only while they stay inside it: a key reached through
a link to a file or directory outside the store's directory is answered 404, as a missing key.
  --path P            serve only the hierarchy below P, as the root
  --port N            the port (default 0: any free port); the URL is printed on stdout
  --follow-symlinks   follow links wherever they lead (any page in your browser can then read
                      every file they reach)
Limits, so that slow or stuck clients cannot hold up the others:
${SERVE_LIMITS_HELP}`,
  flags: { path: "string", port: "string", "follow-symlinks": "boolean", ...SERVE_LIMIT_FLAGS },
  async run(args, io) {
    const [location] = positionals(args, 1, 1, "STORE");
    const port = integerFlag(args, "port", { max: 65535 }) ?? 0;
    const limits = serveLimits(args);
    const followSymlinks = booleanFlag(args, "follow-symlinks");
    const options = {
      mode: "read" as const,
      path: stringFlag(args, "path"),
      openDirectory: (root: string) => new ServedDirectoryStore(root, { followSymlinks }),
    };
    return withStore(location!, options, async ({ store, path }) => {
      const server = limitedServer(limits, (request, response) => {
        handle(store, keyPrefix(path), request, response).catch((error: unknown) => {
          if (!response.headersSent) send(response, 500, String(error instanceof Error ? error.message : error));
          else response.destroy();
        });
      });
      await listen(server, port);
      const address = server.address() as AddressInfo;
      io.out(
        `serving ${location}${path === "" ? "" : ` (${path})`} at http://127.0.0.1:${address.port}/ (Ctrl-C stops)\n`,
      );
      await untilAborted(io);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      io.err("stopped\n");
      return 0;
    });
  },
};

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        new CommandError(
          `cannot listen on 127.0.0.1:${port}: ${error.code === "EADDRINUSE" ? "the port is in use" : error.message}`,
          { cause: error },
        ),
      );
    });
    server.listen(port, "127.0.0.1", () => resolve());
  });
}

function untilAborted(io: Io): Promise<void> {
  const signal = io.signal;
  if (signal === undefined) return new Promise(() => undefined); // runs until the process ends
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

const CORS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
  "Access-Control-Allow-Headers": "Range",
  "Access-Control-Expose-Headers": "Content-Length, Content-Range, Accept-Ranges",
};

function send(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(`${text}\n`);
  response.writeHead(status, {
    ...CORS,
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": String(body.length),
    ...headers,
  });
  response.end(body);
}

async function handle(store: Store, prefix: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const method = request.method ?? "GET";
  if (method === "OPTIONS") {
    response.writeHead(204, { ...CORS, "Access-Control-Max-Age": "86400" });
    response.end();
    return;
  }
  if (method !== "GET" && method !== "HEAD")
    return send(response, 405, "only GET, HEAD and OPTIONS", { Allow: "GET, HEAD, OPTIONS" });
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  let key: string;
  try {
    key = decodeURIComponent(url.pathname).replace(/^\/+/, "");
  } catch {
    return send(response, 400, "bad percent-encoding in the path");
  }
  if (key === "" || key.endsWith("/")) return send(response, 404, "not a key");
  let value: Uint8Array | OpenedValue | undefined;
  try {
    // a directory's files are streamed, so a client that stops reading holds no whole value
    value = isStreamingStore(store) ? await store.openValue(prefix + key) : await store.get(prefix + key);
  } catch (error) {
    if (error instanceof StoreError) return send(response, 400, error.message);
    throw error;
  }
  if (value === undefined) return send(response, 404, `no key ${key}`);
  const size = value instanceof Uint8Array ? value.length : value.size;
  const opened = value instanceof Uint8Array ? undefined : value;
  let streaming = false;
  try {
    const headers: Record<string, string> = {
      ...CORS,
      "Accept-Ranges": "bytes",
      "Content-Type": "application/octet-stream",
    };
    const rangeHeader = request.headers.range;
    let status = 200;
    let [first, last] = [0, size - 1];
    if (rangeHeader !== undefined) {
      const range = parseRange(rangeHeader, size);
      if (range === "unsatisfiable")
        return send(response, 416, "range not satisfiable", { "Content-Range": `bytes */${size}` });
      if (range !== undefined) {
        status = 206;
        [first, last] = range;
        headers["Content-Range"] = `bytes ${first}-${last}/${size}`;
      }
    }
    headers["Content-Length"] = String(last - first + 1);
    response.writeHead(status, headers);
    if (method === "HEAD" || last < first) return void response.end();
    if (opened === undefined) return void response.end((value as Uint8Array).subarray(first, last + 1));
    streaming = true;
    // A client gone mid-body ends the pipeline with an error: the stream (and its file) is closed.
    await pipeline(opened.stream(first, last), response).catch(() => response.destroy());
  } finally {
    if (opened !== undefined && !streaming) await opened.close();
  }
}

/**
 * One byte range of RFC 9110 (`bytes=a-b`, `bytes=a-`, `bytes=-n`) as inclusive `[first, last]`;
 * `undefined` for a header to ignore (other units, several ranges: the whole value is sent).
 */
export function parseRange(header: string, size: number): [number, number] | "unsatisfiable" | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (m === null || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return [Math.max(0, size - suffix), size - 1];
  }
  const first = Number(m[1]);
  const last = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== "" && Number(m[2]) < first) return undefined; // invalid: ignored, as RFC 9110 says
  if (first >= size) return "unsatisfiable";
  return [first, last];
}
