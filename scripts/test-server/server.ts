// The HTTP server store tests run against, in Node and in Chromium alike: started once per vitest
// project by global-setup.ts on 127.0.0.1, with CORS (the browser tests' page is another origin)
// and Range support. Each test opens a session (POST /__sessions with a SessionConfig) and gets a
// base URL whose behaviour it chose: static files, a writable memory, faults on given requests
// (errors, dropped connections, stalls, truncated bodies); GET /__sessions/<id>/log tells what
// was requested and how many bytes were served.
import { readFile } from "node:fs/promises";
import {
  type ClientRequest,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Fault, LoggedRequest, SessionConfig, SessionLog, TestServerInfo } from "./sessions.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));

interface Session {
  config: SessionConfig;
  files: Map<string, Uint8Array>;
  log: LoggedRequest[];
  inFlight: number;
  maxInFlight: number;
  /** Responses left hanging on purpose, ended with the session. */
  stalled: Set<ServerResponse>;
  /** Answers waiting for `config.overlap` requests in flight. */
  overlapping: (() => void)[];
}

const cors = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "content-range, content-length, content-type, content-encoding, retry-after, accept-ranges",
};

export interface TestServer extends TestServerInfo {
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const sessions = new Map<string, Session>();
  let next = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(599, cors).end(String(err));
      });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "OPTIONS") {
      // CORS preflight: allow whatever the test's request wants (Range, Authorization, PUT, ...).
      return void res
        .writeHead(204, {
          ...cors,
          "access-control-allow-methods": "GET, HEAD, PUT, DELETE, POST",
          "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
          "access-control-max-age": "600",
        })
        .end();
    }
    if (url.pathname === "/__sessions" && req.method === "POST") {
      const id = String(++next);
      const config = JSON.parse(body.toString("utf8") || "{}") as SessionConfig;
      const files = new Map(
        Object.entries(config.values ?? {}).map(([path, data]) => [path, new Uint8Array(Buffer.from(data, "base64"))]),
      );
      sessions.set(id, { config, files, log: [], inFlight: 0, maxInFlight: 0, stalled: new Set(), overlapping: [] });
      return json(res, { id });
    }
    const control = /^\/__sessions\/(\d+)(\/log)?$/.exec(url.pathname);
    if (control !== null) {
      const session = sessions.get(control[1]!);
      if (session === undefined) return void res.writeHead(404, cors).end();
      if (control[2] !== undefined)
        return json(res, { requests: session.log, maxInFlight: session.maxInFlight } satisfies SessionLog);
      for (const stalled of session.stalled) stalled.socket?.destroy();
      sessions.delete(control[1]!);
      return void res.writeHead(204, cors).end();
    }
    const match = /^\/s\/(\d+)(\/.*)$/.exec(url.pathname);
    const session = match === null ? undefined : sessions.get(match[1]!);
    if (match === null || session === undefined) return void res.writeHead(404, cors).end("no such session");
    const path = decodeURIComponent(match[2]!);
    const entry: LoggedRequest = {
      method: req.method ?? "",
      path: match[2]! + url.search,
      headers: flatHeaders(req),
      status: 0,
      bytes: 0,
      clientPort: req.socket.remotePort ?? 0,
    };
    session.log.push(entry);
    count(res, entry, req.method === "HEAD");
    session.maxInFlight = Math.max(session.maxInFlight, ++session.inFlight);
    res.on("close", () => session.inFlight--);
    const { overlap } = session.config;
    if (overlap !== undefined && session.maxInFlight < overlap) {
      // Left hanging like a stall if the session ends first.
      session.stalled.add(res);
      await new Promise<void>((resolve) => session.overlapping.push(resolve));
      session.stalled.delete(res);
    } else if (overlap !== undefined) {
      for (const release of session.overlapping.splice(0)) release();
    }
    if (session.config.delay !== undefined) await new Promise((resolve) => setTimeout(resolve, session.config.delay));
    const fault = session.config.faults?.find((f) => matches(f, session.log.length, entry.method));
    if (fault !== undefined && (await misbehave(fault, req, res, body, session, path))) return;
    await answer(req, res, body, session, path);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusedUrl: await refusedUrl(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function matches(fault: Fault, index: number, method: string): boolean {
  if (fault.methods !== undefined && !fault.methods.includes(method)) return false;
  if (fault.requests !== undefined && !fault.requests.includes(index)) return false;
  if (fault.every !== undefined && index % fault.every !== 0) return false;
  return true;
}

/** Carries out `fault`; false when it leaves the answer to the normal handler. */
async function misbehave(
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
  requestBody: Buffer,
  session: Session,
  path: string,
): Promise<boolean> {
  const action = fault.action;
  if ("respond" in action) {
    const { status, headers = {}, body, bodyBase64 } = action.respond;
    const data = bodyBase64 !== undefined ? Buffer.from(bodyBase64, "base64") : Buffer.from(body ?? "", "utf8");
    res.writeHead(status, { ...cors, "content-length": data.length, ...headers });
    res.end(req.method === "HEAD" ? undefined : data);
  } else if ("drop" in action) {
    req.socket.destroy();
  } else if ("stall" in action) {
    session.stalled.add(res);
  } else if (session.config.proxy !== undefined) {
    const { status, headers, body } = await forwardWhole(req, requestBody, session.config.proxy);
    res.writeHead(status, { ...headers, ...cors, "content-length": body.length });
    res.write(body.subarray(0, action.truncate.bytes));
    if (action.truncate.then === "close") setTimeout(() => res.socket?.destroy(), 10);
    else session.stalled.add(res);
  } else {
    const value = session.files.get(path) ?? (await readStatic(session, path)) ?? new Uint8Array(100);
    res.writeHead(200, { ...cors, "content-type": "application/octet-stream", "content-length": value.length });
    res.write(value.subarray(0, action.truncate.bytes));
    // Let the bytes reach the client before the connection goes.
    if (action.truncate.then === "close") setTimeout(() => res.socket?.destroy(), 10);
    else session.stalled.add(res);
  }
  return true;
}

/** The normal answer: memory first, then static files; PUT/DELETE when writable. */
async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  session: Session,
  path: string,
): Promise<void> {
  const method = req.method ?? "GET";
  if (session.config.proxy !== undefined) return relay(req, res, body, session.config.proxy);
  if (method === "PUT" || method === "DELETE") {
    if (session.config.writable !== true) return void res.writeHead(405, { ...cors, allow: "GET, HEAD" }).end();
    if (method === "PUT") {
      session.files.set(path, new Uint8Array(body));
      return void res.writeHead(201, cors).end();
    }
    return void res.writeHead(session.files.delete(path) ? 204 : 404, cors).end();
  }
  if (method !== "GET" && method !== "HEAD") return void res.writeHead(405, cors).end();
  const value = session.files.get(path) ?? (await readStatic(session, path));
  if (value === undefined) return void res.writeHead(404, { ...cors, "content-type": "text/plain" }).end("not found");
  serveBytes(req, res, value, session.config.ignoreRange === true);
}

async function readStatic(session: Session, path: string): Promise<Uint8Array | undefined> {
  if (session.config.files === undefined) return undefined;
  const root = normalize(join(repo, session.config.files));
  const file = normalize(join(root, path));
  if (!file.startsWith(root + sep)) return undefined;
  try {
    return new Uint8Array(await readFile(file));
  } catch {
    return undefined;
  }
}

/**
 * Answers a GET or HEAD for `bytes` as a static file server does: a single Range (`a-b`, `a-`,
 * `-n`) gives 206 with Content-Range, an unsatisfiable one 416 with `bytes *\/size`, none 200.
 */
function serveBytes(req: IncomingMessage, res: ServerResponse, bytes: Uint8Array, ignoreRange: boolean): void {
  const headers = { ...cors, "content-type": "application/octet-stream", "accept-ranges": "bytes" };
  const body = (status: number, extra: Record<string, string>, data: Uint8Array) => {
    res.writeHead(status, { ...headers, ...extra, "content-length": data.length });
    res.end(req.method === "HEAD" ? undefined : data);
  };
  const range = ignoreRange ? undefined : req.headers.range;
  const match = range === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(range);
  if (match === null || (match[1] === "" && match[2] === "")) return body(200, {}, bytes);
  const size = bytes.length;
  let [start, end] = [0, size - 1];
  if (match[1] === "") {
    const n = Number(match[2]);
    [start, end] = n === 0 ? [size, size - 1] : [Math.max(0, size - n), size - 1];
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || end < start) return body(416, { "content-range": `bytes */${size}` }, new Uint8Array(0));
  body(206, { "content-range": `bytes ${start}-${end}/${size}` }, bytes.subarray(start, end + 1));
}

/** A request to the session's `proxy` origin: its path below the session, its prefix in X-Forwarded-Prefix. */
function upstreamRequest(req: IncomingMessage, target: string): ClientRequest {
  const [, prefix = "", rest = "/"] = /^(\/s\/\d+)(\/.*)?$/.exec(req.url ?? "/") ?? [];
  const origin = new URL(target);
  return request({
    host: origin.hostname,
    port: origin.port,
    method: req.method,
    path: rest,
    headers: { ...req.headers, "x-forwarded-prefix": prefix },
  });
}

/** Forwards the request and relays the answer as it comes (headers at once, the body as it streams). */
function relay(req: IncomingMessage, res: ServerResponse, body: Buffer, target: string): Promise<void> {
  return new Promise((resolve) => {
    const upstream = upstreamRequest(req, target);
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...cors });
      res.flushHeaders();
      answer.pipe(res);
      answer.on("end", resolve);
      answer.on("error", () => resolve(void res.destroy()));
    });
    upstream.on("error", () => resolve(void res.destroy()));
    upstream.end(body);
  });
}

/** Forwards the request and reads the whole answer. */
function forwardWhole(
  req: IncomingMessage,
  body: Buffer,
  target: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const upstream = upstreamRequest(req, target);
    upstream.on("response", (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () =>
        resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }),
      );
      answer.on("error", reject);
    });
    upstream.on("error", reject);
    upstream.end(body);
  });
}

/** Counts the body bytes written into the log entry, and records the status. */
function count(res: ServerResponse, entry: LoggedRequest, head: boolean): void {
  const write = res.write.bind(res) as (chunk: unknown, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => ServerResponse;
  const add = (chunk: unknown) => {
    if (!head && (chunk instanceof Uint8Array || typeof chunk === "string"))
      entry.bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    add(chunk);
    return write(chunk, ...rest);
  }) as ServerResponse["write"];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== "function") add(chunk);
    return end(chunk, ...rest);
  }) as ServerResponse["end"];
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    entry.status = status;
    return writeHead(status, ...rest);
  }) as ServerResponse["writeHead"];
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  return out;
}

function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { ...cors, "content-type": "application/json" }).end(JSON.stringify(value));
}

/** A URL on 127.0.0.1 whose port was free a moment ago and is closed now. */
async function refusedUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
