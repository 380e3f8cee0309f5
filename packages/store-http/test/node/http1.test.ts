import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import "../../src/index-node.js";
import { HttpStore } from "@z/store-http";
import { nodeTransport } from "@z/http-client/node";
import type { TransportRequest } from "../../src/transport.js";
import { rawServer, response, writeEach, type RawRequest } from "./raw-server.js";

// The HTTP/1.1 client that the Node transport uses for http: URLs (src/node/http1.ts and the files
// it uses), against servers that answer byte by byte as each test says.

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytesOf = (s: string) => new TextEncoder().encode(s);

/** One request through the Node transport (no retries, no slots): the response's status and body, or what it threw. */
async function get(
  url: string,
  options: Partial<TransportRequest> = {},
): Promise<{ status: number; body: string; headers: { get(name: string): string | null } }> {
  const response = await nodeTransport({
    method: "GET",
    url: new URL(url),
    headers: {},
    signal: new AbortController().signal,
    ...options,
  });
  return { status: response.status, body: text(await response.body()), headers: response.headers };
}
/** `length` bytes that are not all alike. */
function pattern(length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 7) % 251;
  return bytes;
}
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable("it succeeded"),
    (err: unknown) => err as Error,
  );

/** A server answering every request with `answer(request)`, written in one piece. */
const answering = (answer: (request: RawRequest) => string) =>
  rawServer((request, socket) => socket.write(answer(request)));

describe("requests", () => {
  it("are a request line, Host, the transport's and the request's headers, and a Content-Length for a body", async () => {
    const server = await rawServer((_request, socket) => socket.write(response("")));
    const put = await nodeTransport({
      method: "PUT",
      url: new URL(`${server.url}a/b%20c?x=1#frag`),
      headers: { "x-one": "1", range: "bytes=0-1" },
      body: bytesOf("hello"),
      signal: new AbortController().signal,
    });
    expect(put.status).toBe(200);
    const [request] = server.requests;
    const port = new URL(server.url).port;
    expect(request!.head).toBe(
      `PUT /a/b%20c?x=1 HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\naccept: */*\r\naccept-encoding: gzip, deflate, br\r\nuser-agent: node\r\nx-one: 1\r\nrange: bytes=0-1\r\ncontent-length: 5`,
    );
    expect(text(request!.body)).toBe("hello");
  });

  it("refuses header values that would inject headers, without sending anything", async () => {
    const server = await answering(() => response(""));
    for (const value of ["a\r\nx-injected: 1", "a\nb", "a\rb", "a\0b"]) {
      const err = await failure(get(server.url, { headers: { "x-evil": value } }));
      expect(err).toMatchObject({
        code: "ZARR_STORE",
        message: expect.stringContaining(
          'the value of the header "x-evil" holds a line break or NUL, which would inject headers',
        ),
      });
    }
    await expect(get(server.url, { headers: { "bad name": "1" } })).rejects.toMatchObject({
      message: expect.stringContaining('the header name "bad name" is not a valid token'),
    });
    expect(server.connections()).toBe(0);
  });
});

describe("response heads", () => {
  it("are read however the server splits them, byte by byte included", async () => {
    const whole = response("the body", { "content-length": 8, "x-a": "1", "X-A": "2", "x-b": "  spaced  " });
    const server = await rawServer((_request, socket) => void writeEach(socket, [...whole], 1));
    const got = await get(server.url);
    expect(got.body).toBe("the body");
    // Repeated fields are joined, names in any case, as node:http and fetch do.
    expect([got.headers.get("x-a"), got.headers.get("X-B")]).toEqual(["1, 2", "spaced"]);
  });

  it("skip interim 1xx responses", async () => {
    const server = await answering(
      () => `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\n${response("final")}`,
    );
    expect(await get(server.url)).toMatchObject({ status: 200, body: "final" });
    const split = await rawServer(
      (_request, socket) =>
        void writeEach(socket, [
          "HTTP/1.1 100 Continue\r\n",
          "\r\nHTTP/1.1 2",
          "01 Created\r\ncontent-length: 2\r\n\r\nok",
        ]),
    );
    expect(await get(split.url)).toMatchObject({ status: 201, body: "ok" });
  });

  it("HTTP/1.0 status lines and reason phrases with spaces (or none)", async () => {
    const server = await answering((request) =>
      request.path === "/a"
        ? response("x", { "content-length": 1 }, "HTTP/1.0 200 All Very Fine")
        : "HTTP/1.1 404\r\ncontent-length: 0\r\n\r\n",
    );
    const a = await nodeTransport({
      method: "GET",
      url: new URL(`${server.url}a`),
      headers: {},
      signal: new AbortController().signal,
    });
    expect([a.status, a.statusText, text(await a.body())]).toEqual([200, "All Very Fine", "x"]);
    const b = await nodeTransport({
      method: "GET",
      url: new URL(`${server.url}b`),
      headers: {},
      signal: new AbortController().signal,
    });
    expect([b.status, b.statusText]).toEqual([404, ""]);
  });

  it("that are malformed or too long are errors", async () => {
    const cases: [string, string][] = [
      ["HTTP/2 200 OK\r\n\r\n", "the response does not start with an HTTP/1.x status line"],
      ["ICY 200 OK\r\n\r\n", "the response does not start with an HTTP/1.x status line"],
      ["HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "malformed header line"],
      ["HTTP/1.1 200 OK\r\nname : space before colon\r\n\r\n", "malformed header line"],
      ["HTTP/1.1 200 OK\r\nx-a: 1\r\n folded\r\n\r\n", "malformed header line"],
      ["HTTP/1.1 101 Switching Protocols\r\n\r\n", "the server switched protocols (101)"],
      [`HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(70_000)}\r\n\r\n`, "the response head is longer than 65536 bytes"],
      [`HTTP/1.1 200 OK\r\nx-big: ${"a".repeat(70_000)}`, "the response head is longer than 65536 bytes"],
    ];
    for (const [answer, message] of cases) {
      const server = await answering(() => answer);
      expect(await failure(get(server.url)), answer.slice(0, 40)).toMatchObject({
        message: expect.stringContaining(message),
      });
    }
  });
});

describe("bodies", () => {
  it("of a Content-Length are read whatever the split: with the head, apart, at every byte", async () => {
    const body = "0123456789abcdef";
    const whole = response(body);
    const headEnd = whole.indexOf("\r\n\r\n") + 4;
    const splits: (string | Uint8Array)[][] = [[whole], [whole.slice(0, headEnd), body], [...whole]];
    for (let at = 1; at < whole.length; at++) splits.push([whole.slice(0, at), whole.slice(at)]);
    let next = 0;
    const server = await rawServer((_request, socket) => void writeEach(socket, splits[next++]!, 1));
    for (let i = 0; i < splits.length; i++) expect((await get(server.url)).body, `split ${i}`).toBe(body);
    // All on one connection: each response ended exactly where its Content-Length said.
    expect(server.connections()).toBe(1);
  });

  it("of a Content-Length are plain Uint8Arrays of their own, large ones read in pieces", async () => {
    const big = pattern(3_000_000);
    const server = await rawServer(
      (_request, socket) =>
        void writeEach(socket, [
          `HTTP/1.1 200 OK\r\ncontent-length: ${big.length}\r\n\r\n`,
          big.subarray(0, 1000),
          big.subarray(1000, 1_000_000),
          big.subarray(1_000_000),
        ]),
    );
    const response = await nodeTransport({
      method: "GET",
      url: new URL(server.url),
      headers: {},
      signal: new AbortController().signal,
    });
    const got = await response.body();
    expect(Buffer.from(got).equals(big)).toBe(true);
    expect(Object.getPrototypeOf(got)).toBe(Uint8Array.prototype);
    expect(got.byteLength).toBe(got.buffer.byteLength);
  });

  it("shorter than Content-Length (the server closes) or longer are errors", async () => {
    const short = await rawServer((_request, socket) => socket.end(response("abc", { "content-length": 5 })));
    expect(await failure(get(short.url))).toMatchObject({
      message: "the connection closed after 3 of the 5 bytes of the body (truncated response)",
    });
    const long = await answering(() => response("abcdefgh", { "content-length": 5 }));
    expect(await failure(get(long.url))).toMatchObject({
      name: "TransientFailure",
      message: "the body has more than 5 bytes but Content-Length says 5 (longer response)",
    });
    // Through a store: retried, then an error naming the cause.
    const store = new HttpStore(short.url, { retries: 1, retryDelay: 1 });
    expect(await failure(store.get("k"))).toMatchObject({
      message: expect.stringMatching(
        /failed after 2 attempts: network error while reading the response: the connection closed after 3 of the 5 bytes of the body \(truncated response\)$/,
      ),
    });
  });

  it("with Content-Length repeated take one value; conflicting or invalid ones are errors", async () => {
    const server = await answering(() => "HTTP/1.1 200 OK\r\ncontent-length: 5\r\nContent-Length: 5\r\n\r\nhello");
    expect((await get(server.url)).body).toBe("hello");
    const list = await answering(() => "HTTP/1.1 200 OK\r\ncontent-length: 5, 5\r\n\r\nhello");
    expect((await get(list.url)).body).toBe("hello");
    const cases: [string, string][] = [
      ["content-length: 5\r\ncontent-length: 6", 'invalid Content-Length "5, 6"'],
      ["content-length: 5, 6", 'invalid Content-Length "5, 6"'],
      ["content-length: -5", 'invalid Content-Length "-5"'],
      ["content-length: 0x5", 'invalid Content-Length "0x5"'],
      ["content-length: 5 5", 'invalid Content-Length "5 5"'],
      ["content-length: ", 'invalid Content-Length ""'],
      ["content-length: 5\r\ntransfer-encoding: chunked", "both Transfer-Encoding and Content-Length"],
    ];
    for (const [fields, message] of cases) {
      const bad = await answering(() => `HTTP/1.1 200 OK\r\n${fields}\r\n\r\nhello`);
      expect(await failure(get(bad.url)), fields).toMatchObject({ message: expect.stringContaining(message) });
    }
  });

  it("chunked: several chunks, extensions and trailers", async () => {
    const server = await answering(() =>
      response(
        '5\r\nhello\r\n1;name=value\r\n \r\n6 ; a ; b="q \\" s"\r\nworld!\r\n0;last\r\nx-trailer: 1\r\nx-other: 2\r\n\r\n',
        { "transfer-encoding": "chunked" },
      ),
    );
    expect((await get(server.url)).body).toBe("hello world!");
    expect((await get(server.url)).body).toBe("hello world!");
    expect(server.connections()).toBe(1);
  });

  it("chunked: split at every byte, and large chunks", async () => {
    const encoded = "3\r\nabc\r\nA\r\n0123456789\r\n0\r\nt: 1\r\n\r\n";
    const big = pattern(200_000);
    const bigEncoded = [
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${big.length.toString(16)}\r\n`,
      big.subarray(0, 70_000),
      big.subarray(70_000),
      "\r\n1\r\n!\r\n0\r\n\r\n",
    ];
    let n = 0;
    const server = await rawServer((_request, socket) => {
      if (n++ === 0) void writeEach(socket, [response("", { "transfer-encoding": "chunked" }), ...encoded], 1);
      else void writeEach(socket, bigEncoded);
    });
    expect((await get(server.url)).body).toBe("abc0123456789");
    const response2 = await nodeTransport({
      method: "GET",
      url: new URL(server.url),
      headers: {},
      signal: new AbortController().signal,
    });
    expect(Buffer.from(await response2.body()).equals(Buffer.concat([big, Buffer.from("!")]))).toBe(true);
  });

  it("chunked: malformed sizes, missing CRLFs, bad trailers and early ends are errors", async () => {
    const cases: [string, string][] = [
      ["zz\r\nhello\r\n0\r\n\r\n", 'malformed chunk size line: "zz"'],
      ["-5\r\nhello\r\n0\r\n\r\n", 'malformed chunk size line: "-5"'],
      [" 5\r\nhello\r\n0\r\n\r\n", 'malformed chunk size line: " 5"'],
      ["\r\nhello\r\n0\r\n\r\n", 'malformed chunk size line: ""'],
      ["5;\r\nhello\r\n0\r\n\r\n", 'malformed chunk size line: "5;"'],
      ["5;a=\r\nhello\r\n0\r\n\r\n", 'malformed chunk size line: "5;a="'],
      ['5;a="x\r\nhello\r\n0\r\n\r\n', "malformed chunk size line"],
      ["12345678901234567\r\n", "malformed chunk size line"],
      ["5\nhello\r\n0\r\n\r\n", "a line ending in LF without CR"],
      ["5\r\nhelloXX0\r\n\r\n", "a chunk not followed by CRLF"],
      ["5\r\nhello\nX0\r\n\r\n", "a chunk not followed by CRLF"],
      ["5\r\nhello\r\n0\r\nbad trailer\r\n\r\n", 'malformed trailer line: "bad trailer"'],
      ["5\r\nhello\r\n0\r\n\r\nextra", "the response has 5 bytes after the end of its chunked body"],
    ];
    for (const [body, message] of cases) {
      const server = await answering(() => response(body, { "transfer-encoding": "chunked" }));
      expect(await failure(get(server.url)), body).toMatchObject({ message: expect.stringContaining(message) });
    }
    const early = await rawServer((_request, socket) =>
      socket.end(response("5\r\nhello\r\n3\r\nab", { "transfer-encoding": "chunked" })),
    );
    expect(await failure(get(early.url))).toMatchObject({
      message: "the connection closed after 7 bytes of the chunked body, before its end (truncated response)",
    });
    const long = await answering(() => response(`${"a".repeat(9000)}\r\n`, { "transfer-encoding": "chunked" }));
    expect(await failure(get(long.url))).toMatchObject({
      message: "the chunked body has a line longer than 8192 bytes",
    });
  });

  it("without length or chunks are read until the server closes, and the connection is not reused", async () => {
    const server = await rawServer(
      (_request, socket) =>
        void writeEach(socket, [response("", {}), "until ", "the ", "end"]).then(() => socket.end()),
    );
    expect((await get(server.url)).body).toBe("until the end");
    // A Transfer-Encoding that does not end in chunked is read until the close too.
    const gzip = await rawServer((_request, socket) =>
      socket.end(response("raw bytes", { "transfer-encoding": "gzip" })),
    );
    expect((await get(gzip.url)).body).toBe("raw bytes");
    expect((await get(server.url)).body).toBe("until the end");
    expect(server.connections()).toBe(2);
  });

  it("are absent from HEAD, 204 and 304 responses, whatever their headers say", async () => {
    const server = await answering((request) => {
      if (request.method === "HEAD") return response("", { "content-length": 1234 });
      if (request.path === "/204") return "HTTP/1.1 204 No Content\r\n\r\n";
      if (request.path === "/304")
        return response("", { "content-length": 99, etag: '"x"' }, "HTTP/1.1 304 Not Modified");
      return response("after");
    });
    const head = await nodeTransport({
      method: "HEAD",
      url: new URL(server.url),
      headers: {},
      signal: new AbortController().signal,
    });
    expect([head.status, head.headers.get("content-length"), (await head.body()).length]).toEqual([200, "1234", 0]);
    expect(await get(`${server.url}204`)).toMatchObject({ status: 204, body: "" });
    expect(await get(`${server.url}304`)).toMatchObject({ status: 304, body: "" });
    expect((await get(`${server.url}x`)).body).toBe("after");
    expect(server.connections()).toBe(1);
    // Bytes after a head that has no body: the server framed its response wrong.
    const wrong = await answering(() => "HTTP/1.1 204 No Content\r\n\r\nsurprise");
    expect(await failure(get(wrong.url))).toMatchObject({
      message: "the response to GET has 8 bytes after its head, where it has no body",
    });
  });
});

describe("connections", () => {
  it("are reused for the next request (keep-alive), one per request in flight", async () => {
    const server = await answering(() => response("v"));
    for (let i = 0; i < 5; i++) expect((await get(server.url)).body).toBe("v");
    expect(server.connections()).toBe(1);
    const store = new HttpStore(server.url, { concurrency: 3 });
    await Promise.all(Array.from({ length: 9 }, (_, i) => store.get(`k${i}`)));
    expect(server.connections()).toBeGreaterThanOrEqual(2);
    expect(server.connections()).toBeLessThanOrEqual(4);
  });

  it("are closed after Connection: close, and after HTTP/1.0 responses without keep-alive", async () => {
    const cases: [string, number][] = [
      [response("v", { "content-length": 1, connection: "close" }), 3],
      [response("v", { "content-length": 1, connection: "Keep-Alive, Close" }), 3],
      [response("v", { "content-length": 1 }, "HTTP/1.0 200 OK"), 3],
      [response("v", { "content-length": 1, connection: "keep-alive" }, "HTTP/1.0 200 OK"), 1],
    ];
    for (const [answer, connections] of cases) {
      const server = await answering(() => answer);
      for (let i = 0; i < 3; i++) expect((await get(server.url)).body).toBe("v");
      expect(server.connections(), answer).toBe(connections);
    }
  });

  it("closed by the server while idle are dropped; the next request goes out on a new one, not as a retry", async () => {
    // The server closes each connection 20 ms after answering (a short keep-alive timeout).
    const closed: Promise<void>[] = [];
    const server = await rawServer((_request, socket) => {
      closed.push(new Promise((resolve) => socket.on("close", () => resolve())));
      socket.write(response("v"));
      setTimeout(() => socket.end(), 20);
    });
    const store = new HttpStore(server.url, { retries: 0 });
    expect(text((await store.get("a"))!)).toBe("v");
    // Closed on both sides: the client has seen it.
    await closed[0];
    expect(text((await store.get("b"))!)).toBe("v");
    expect([server.connections(), server.requests.length]).toEqual([2, 2]);
  });

  it("that turn out closed when the request is sent on them are retried at once on a new one", async () => {
    // Each connection answers its first request, then closes on the next one without answering.
    const server = await rawServer((request, socket) => {
      if (server.requests.filter((r) => r.connection === request.connection).length > 1) socket.destroy();
      else socket.write(response("v"));
    });
    const store = new HttpStore(server.url, { retries: 0 });
    for (const key of ["a", "b", "c"]) expect(text((await store.get(key))!)).toBe("v");
    expect(server.connections()).toBe(3);
    // A new connection that closes without an answer is not retried that way: it is a failure.
    const closing = await rawServer((_request, socket) => socket.destroy());
    expect(await failure(new HttpStore(closing.url, { retries: 0 }).get("k"))).toMatchObject({
      message: expect.stringMatching(
        /failed: network error: (the connection closed before a complete response head \(socket hang up\)|read ECONNRESET)$/,
      ),
    });
    expect(closing.connections()).toBe(1);
  });

  it("that receive bytes while idle are closed (the server sent more than it framed)", async () => {
    const closed: Promise<void>[] = [];
    const sockets: Socket[] = [];
    const server = await rawServer((_request, socket) => {
      closed.push(new Promise((resolve) => socket.on("close", () => resolve())));
      sockets.push(socket);
      socket.write(response("v"));
    });
    expect((await get(server.url)).body).toBe("v");
    // Once the client has the answer (sent after it, the junk could come in the same read).
    sockets[0]!.write("junk");
    // The client closes the connection when the junk comes.
    await closed[0];
    expect((await get(server.url)).body).toBe("v");
    expect(server.connections()).toBe(2);
  });

  it("do not keep the process alive while idle", async () => {
    let answer: () => void = () => undefined;
    const server = await rawServer((_request, socket) => {
      socket.unref();
      answer = () => socket.write(response("v"));
    });
    // Sockets that keep the process alive (unreferenced ones are not listed).
    const sockets = () => process.getActiveResourcesInfo().filter((name) => name === "TCPSocketWrap").length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = sockets();
    const pending = get(server.url);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(sockets()).toBe(before + 1);
    answer();
    expect((await pending).body).toBe("v");
    expect(sockets()).toBe(before);
  });

  it("are closed by an abort mid-body: the body rejects with the signal's reason", async () => {
    const closed: Promise<void>[] = [];
    const server = await rawServer((_request, socket) => {
      closed.push(new Promise((resolve) => socket.on("close", () => resolve())));
      socket.write(response("half", { "content-length": 100 }));
    });
    const controller = new AbortController();
    const response1 = await nodeTransport({
      method: "GET",
      url: new URL(server.url),
      headers: {},
      signal: controller.signal,
    });
    const body = response1.body();
    const reason = new Error("no longer needed");
    controller.abort(reason);
    await expect(body).rejects.toBe(reason);
    await closed[0];
    // And a pending send rejects too.
    const stalled = await rawServer(() => undefined);
    const c2 = new AbortController();
    const send = nodeTransport({ method: "GET", url: new URL(stalled.url), headers: {}, signal: c2.signal });
    setTimeout(() => c2.abort(reason), 20);
    await expect(send).rejects.toBe(reason);
  });

  it("discarding a body still to come closes the connection (a stalled one too); a body already read keeps it", async () => {
    const server = await rawServer((request, socket) => {
      if (request.path === "/stalls") socket.write(response("start", { "content-length": 10 }));
      else socket.write(response("v"));
    });
    const stalls = await nodeTransport({
      method: "GET",
      url: new URL(`${server.url}stalls`),
      headers: {},
      signal: new AbortController().signal,
    });
    await stalls.discard();
    await expect(stalls.body()).rejects.toThrow("the body was discarded");
    const read = await nodeTransport({
      method: "GET",
      url: new URL(`${server.url}read`),
      headers: {},
      signal: new AbortController().signal,
    });
    while (server.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await read.discard();
    expect((await get(server.url)).body).toBe("v");
    expect(server.connections()).toBe(2);
  });
});
