import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize, sep } from "node:path";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
}

export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

/** A `node:http` server on 127.0.0.1 and a free port, recording every request. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
      Promise.resolve(handler(req, res, Buffer.concat(chunks))).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(599).end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Answers a GET or HEAD for `bytes` as a static file server does: a single Range (`a-b`, `a-`,
 * `-n`) gives 206 with Content-Range, an unsatisfiable one 416 with `bytes *\/size`, none 200.
 */
export function serveBytes(req: IncomingMessage, res: ServerResponse, bytes: Uint8Array, options: { ignoreRange?: boolean; contentType?: string } = {}): void {
  const headers = { "content-type": options.contentType ?? "application/octet-stream", "accept-ranges": "bytes" };
  const range = options.ignoreRange === true ? undefined : req.headers.range;
  const body = (status: number, extra: Record<string, string | number>, data: Uint8Array) => {
    res.writeHead(status, { ...headers, ...extra, "content-length": data.length });
    res.end(req.method === "HEAD" ? undefined : data);
  };
  if (range === undefined) return body(200, {}, bytes);
  const match = /^bytes=(\d*)-(\d*)$/.exec(range);
  if (match === null || (match[1] === "" && match[2] === "")) return body(200, {}, bytes);
  const size = bytes.length;
  let start: number;
  let end: number;
  if (match[1] === "") {
    const n = Number(match[2]);
    [start, end] = [Math.max(0, size - n), size - 1];
    if (n === 0) [start, end] = [size, size - 1];
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || end < start) return body(416, { "content-range": `bytes */${size}` }, new Uint8Array(0));
  body(206, { "content-range": `bytes ${start}-${end}/${size}` }, bytes.subarray(start, end + 1));
}

/** Serves the files under `root` at `/<mount>/...`: 404 for anything else. */
export function directoryHandler(mount: string, root: string): Handler {
  return async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    if (!path.startsWith(`/${mount}/`)) return void res.writeHead(404).end();
    const file = normalize(join(root, path.slice(mount.length + 2)));
    if (!file.startsWith(root + sep)) return void res.writeHead(403).end();
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch {
      return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
    serveBytes(req, res, bytes);
  };
}

/**
 * A writable in-memory server: GET/HEAD (with Range), PUT and DELETE of any path; 404 for
 * missing paths. `ignoreRange` makes it answer every GET in full, as some servers do.
 */
export function memoryHandler(options: { ignoreRange?: boolean } = {}): Handler & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  const handler: Handler = (req, res, body) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (req.method === "PUT") {
      files.set(path, new Uint8Array(body));
      return void res.writeHead(201).end();
    }
    if (req.method === "DELETE") {
      const existed = files.delete(path);
      return void res.writeHead(existed ? 204 : 404).end();
    }
    const value = files.get(path);
    if (value === undefined) return void res.writeHead(404, { "content-type": "text/plain" }).end("no such key");
    serveBytes(req, res, value, options);
  };
  return Object.assign(handler, { files });
}
