import { createServer as createHttpServer } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from "node:net";
import { brotliCompressSync, deflateRawSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import "../../src/index-node.js";
import { HttpStore } from "@z/store-http";
import { always, holding, on, pool, rejection, requests, respond, setup, value } from "../suites/helpers.js";

// What only the node:http transport has: its connections, its own body reading and decoding, its
// redirect rule. Everything a store promises is checked over it by the other files in this folder.

afterEach(() => pool.endAll());

const servers: { server: Server; sockets: Set<Socket> }[] = [];
afterEach(async () => {
  for (const { server, sockets } of servers.splice(0)) {
    // The transport keeps connections open for the next request.
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});
/** Starts `server` on 127.0.0.1, for this test only; its URL. */
async function listen(server: Server): Promise<string> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => sockets.add(socket));
  servers.push({ server, sockets });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const isPlain = (bytes: Uint8Array | undefined) =>
  bytes !== undefined &&
  Object.getPrototypeOf(bytes) === Uint8Array.prototype &&
  bytes.byteOffset === 0 &&
  bytes.byteLength === bytes.buffer.byteLength;

describe("connections", () => {
  it("are kept open and reused (keep-alive)", async () => {
    const { session, store } = await setup({ values: holding() });
    for (let i = 0; i < 5; i++) expect(await store.get("k")).toEqual(value);
    const ports = new Set((await requests(session)).map((r) => r.clientPort));
    expect(ports.size).toBe(1);
  });

  it("a request on an idle connection the server has closed goes out again on a new one, not counting as a retry", async () => {
    // The first request on a connection is answered, the next one finds it closed (as when a
    // server's keep-alive timeout passes while the client holds the connection).
    let connections = 0;
    const url = await listen(
      createTcpServer((socket) => {
        connections++;
        let answered = 0;
        socket.on("data", () => {
          if (answered++ > 0) return void socket.destroy();
          socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${value.length}\r\nConnection: keep-alive\r\n\r\n`);
          socket.write(value);
        });
      }),
    );
    const store = new HttpStore(url, { retries: 0 });
    expect(await store.get("a")).toEqual(value);
    expect(await store.get("b")).toEqual(value);
    expect(connections).toBe(2);
  });
});

describe("bodies", () => {
  it("are plain Uint8Arrays over buffers of their own, whatever their size or framing", async () => {
    const big = new Uint8Array(300_000);
    for (let i = 0; i < big.length; i++) big[i] = i % 251;
    // Buffer.equals, not toEqual: comparing 300,000 elements one by one takes seconds.
    const same = (got: Uint8Array | undefined) =>
      got !== undefined && Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(big);
    const { store } = await setup({
      values: {
        "/root/small": Buffer.from(value).toString("base64"),
        "/root/big": Buffer.from(big).toString("base64"),
      },
    });
    const small = await store.get("small");
    const large = await store.get("big");
    expect(small).toEqual(value);
    expect(same(large)).toBe(true);
    expect([small, large, await store.getRange("big", { offset: 5, length: 10 })].map(isPlain)).toEqual([
      true,
      true,
      true,
    ]);

    // Chunked, without Content-Length: the pieces are joined.
    const url = await listen(
      createHttpServer((_req, res) => {
        res.write(big.subarray(0, 100_000));
        setTimeout(() => res.end(big.subarray(100_000)), 5);
      }),
    );
    const chunked = await new HttpStore(url).get("x");
    expect(same(chunked)).toBe(true);
    expect(isPlain(chunked)).toBe(true);
  });
});

describe("Content-Encoding", () => {
  it("decodes br, x-gzip, raw deflate and several codings in a row, into plain Uint8Arrays", async () => {
    const cases: [string, Uint8Array][] = [
      ["br", brotliCompressSync(value)],
      ["x-gzip", gzipSync(value)],
      ["deflate", deflateRawSync(value)],
      ["gzip, br", brotliCompressSync(gzipSync(value))],
      ["identity", value],
    ];
    for (const [coding, body] of cases) {
      const { session, store } = await setup({ faults: [always(respond(200, { "content-encoding": coding }, body))] });
      const got = await store.get("k");
      expect(got, coding).toEqual(value);
      expect(isPlain(got), coding).toBe(true);
      expect((await requests(session))[0]!.headers["accept-encoding"]).toBe("gzip, deflate, br");
    }
  });

  it("a coding it cannot decode is an error at once, not garbage and not a retry", async () => {
    const { session, store } = await setup({ faults: [always(respond(200, { "content-encoding": "zstd" }, value))] });
    const err = await rejection(store.get("k"));
    expect(err).toMatchObject({
      code: "ZARR_STORE",
      message: `GET ${session.url}root/k answered with Content-Encoding "zstd", which cannot be decoded (known: gzip, x-gzip, deflate, br)`,
    });
    expect(await requests(session)).toHaveLength(1);
  });
});

describe("redirects", () => {
  it("a PUT redirected with 307 is sent again, with its body, to the new place (Node 20's fetch fails: undici cannot resend a typed array body)", async () => {
    const { session, store } = await setup(
      { writable: true, faults: [on([1], respond(307, { location: "k2" }))] },
      { writable: true },
    );
    await store.set("k", value);
    expect(await store.get("k2")).toEqual(value);
    expect((await requests(session)).map((r) => `${r.method} ${r.status} ${r.path}`)).toEqual([
      "PUT 307 /root/k",
      "PUT 201 /root/k2",
      "GET 200 /root/k2",
    ]);
  });
});
