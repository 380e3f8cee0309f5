import { afterEach, describe, expect, it } from "vitest";
import { HttpByteSource, HttpStoreError } from "@z/store-http";
import { serveBytes, startServer, type Handler, type TestServer } from "./server.js";

/** `@z/store-zip`'s ByteSource, restated: HttpByteSource must fit it (store-http cannot import store-zip). */
interface ByteSource {
  size(options?: { signal?: AbortSignal }): Promise<number>;
  read(offset: number, length: number, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
}

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

const file = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) % 251);

describe("HttpByteSource", () => {
  it("learns the size with one HEAD and reads exactly the ranges asked for", async () => {
    const server = await serve((req, res) => serveBytes(req, res, file));
    const source: ByteSource = new HttpByteSource(`${server.url}/archive.zip`, { retryDelay: 1 });
    expect(await source.size()).toBe(100_000);
    expect(await source.size()).toBe(100_000);
    expect(await source.read(99_990, 10)).toEqual(file.slice(99_990));
    expect(await source.read(1234, 4321)).toEqual(file.slice(1234, 1234 + 4321));
    expect(await source.read(5, 0)).toEqual(new Uint8Array(0));
    expect(server.requests.map((r) => `${r.method} ${r.headers.range ?? ""}`.trim())).toEqual(["HEAD", "GET bytes=99990-99999", "GET bytes=1234-5554"]);
  });

  it("falls back to a one-byte range request when HEAD is refused", async () => {
    const server = await serve((req, res) => (req.method === "HEAD" ? void res.writeHead(405).end() : serveBytes(req, res, file)));
    const source = new HttpByteSource(`${server.url}/f`);
    expect(await source.size()).toBe(100_000);
    expect(server.requests.map((r) => `${r.method} ${r.headers.range ?? ""}`.trim())).toEqual(["HEAD", "GET bytes=0-0"]);
  });

  it("tolerates a server ignoring Range by slicing the whole body", async () => {
    const server = await serve((req, res) => serveBytes(req, res, file, { ignoreRange: true }));
    const source = new HttpByteSource(`${server.url}/f`);
    expect(await source.read(10, 5)).toEqual(file.slice(10, 15));
    await expect(source.read(99_999, 5)).rejects.toMatchObject({ message: expect.stringContaining("fewer than the 100004 needed") });
  });

  it("a missing file, an HTML page or a wrong range is an HttpStoreError", async () => {
    const missing = await serve((_req, res) => void res.writeHead(404, "Not Found").end());
    const err = await new HttpByteSource(`${missing.url}/f`).read(0, 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpStoreError);
    expect(err).toMatchObject({ code: "ZARR_STORE", status: 404, message: `GET ${missing.url}/f failed: 404 Not Found` });
    await expect(new HttpByteSource(`${missing.url}/f`).size()).rejects.toMatchObject({ status: 404 });

    const html = await serve((_req, res) => void res.writeHead(200, { "content-type": "text/html" }).end("<html>"));
    await expect(new HttpByteSource(`${html.url}/f`).read(0, 3)).rejects.toMatchObject({ message: expect.stringContaining("HTML page") });

    const wrong = await serve((_req, res) => void res.writeHead(206, { "content-range": "bytes 0-9/100" }).end(new Uint8Array(10)));
    await expect(new HttpByteSource(`${wrong.url}/f`).read(5, 10)).rejects.toMatchObject({ status: 206, message: expect.stringContaining("answered Range: bytes=5-14 with") });
  });
});
