// A small static HTTP server over a directory, with Range requests, counting the requests it is
// sent per path: the reference sets' targets over HTTP.
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";

export interface RangeServer {
  readonly url: string;
  /** Requests per path (`/data.nc`), since start or the last `reset()`. */
  readonly requests: Map<string, number>;
  reset(): void;
  close(): Promise<void>;
}

export async function startRangeServer(dir: string): Promise<RangeServer> {
  const requests = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const file = normalize(join(dir, path));
    let body: Buffer;
    try {
      if (!file.startsWith(dir)) throw new Error("outside");
      body = await readFile(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    if (range === null) {
      res.writeHead(200, { "content-length": body.length, "accept-ranges": "bytes" }).end(body);
      return;
    }
    const start = Number(range[1]);
    const end = Math.min(range[2] === "" ? body.length - 1 : Number(range[2]), body.length - 1);
    if (start >= body.length) {
      res.writeHead(416, { "content-range": `bytes */${body.length}` }).end();
      return;
    }
    res
      .writeHead(206, { "content-length": end - start + 1, "content-range": `bytes ${start}-${end}/${body.length}` })
      .end(body.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    reset: () => requests.clear(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
