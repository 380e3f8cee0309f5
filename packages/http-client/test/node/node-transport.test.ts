import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readRawBody } from "../../src/node/body.js";
import { redirectHop, type Hop } from "../../src/node/redirect.js";

// The Node transport's own body check and redirect rule; @z/store-http's tests (test/node/)
// check everything a store promises over the transport, against servers.

const value = new TextEncoder().encode("the value of the key");

describe("bodies", () => {
  it("a body longer or shorter than its Content-Length is refused", async () => {
    const body = (pieces: string[], length: number) =>
      readRawBody(
        Object.assign(Readable.from(pieces.map((p) => Buffer.from(p))), {
          headers: { "content-length": String(length) },
          statusCode: 200,
        }) as unknown as IncomingMessage,
      );
    await expect(body(["abc", "de"], 5)).resolves.toEqual(new TextEncoder().encode("abcde"));
    await expect(body(["abc", "def"], 5)).rejects.toMatchObject({
      name: "TransientFailure",
      message: "the body has more than 5 bytes but Content-Length says 5 (longer response)",
    });
    await expect(body(["abc"], 5)).rejects.toMatchObject({
      name: "TransientFailure",
      message: "the body has 3 bytes but Content-Length says 5 (truncated response)",
    });
  });
});

describe("redirects", () => {
  const hop = (method: Hop["method"], body?: Uint8Array): Hop => ({
    method,
    url: new URL("http://a.example/x/k?t=1"),
    headers: { authorization: "Bearer xyz", "content-type": "application/octet-stream", range: "bytes=0-1" },
    body,
  });

  it("are followed as fetch follows them", () => {
    expect(redirectHop(hop("GET"), 200, "/y")).toBeUndefined();
    expect(redirectHop(hop("GET"), 302, undefined)).toBeUndefined();
    expect(redirectHop(hop("GET"), 304, "/y")).toBeUndefined();
    const put = hop("PUT", value);
    expect(redirectHop(put, 308, "../y/k#f")).toEqual({ ...put, url: new URL("http://a.example/y/k") });
    // 303: see the other place with a GET, without the body or what described it.
    expect(redirectHop(put, 303, "/done")).toEqual({
      method: "GET",
      url: new URL("http://a.example/done"),
      headers: { authorization: "Bearer xyz", range: "bytes=0-1" },
      body: undefined,
    });
    expect(redirectHop(hop("HEAD"), 303, "/done")?.method).toBe("HEAD");
    // Another origin (here another port) gets no credentials.
    expect(redirectHop(hop("GET"), 301, "http://a.example:8080/k")?.headers).toEqual({
      "content-type": "application/octet-stream",
      range: "bytes=0-1",
    });
    expect(redirectHop(hop("GET"), 301, "https://a.example/k")?.headers.authorization).toBeUndefined();
  });

  it("only to http(s) URLs", () => {
    expect(() => redirectHop(hop("GET"), 302, "ftp://a.example/k")).toThrow(
      "a 302 redirect to ftp://a.example/k, which is not http(s)",
    );
    expect(() => redirectHop(hop("GET"), 302, "http://[::1")).toThrow('a 302 redirect to an invalid URL "http://[::1"');
  });
});
