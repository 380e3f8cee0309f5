import { describe, expect, it } from "vitest";
import { ChunkedBody } from "../../src/node/chunked-body.js";
import { framing, keepsAlive } from "../../src/node/framing.js";
import { ResponseHeadParser, type ResponseHead } from "../../src/node/response-head.js";

// The HTTP/1.1 client's parsers on their own, fed every split of their input that a connection
// could deliver (http1.test.ts has them over real connections).

const bytes = (s: string) => new TextEncoder().encode(s);
/** `input` in two pieces at every position, and byte by byte. */
function* splits(input: Uint8Array): Generator<Uint8Array[]> {
  for (let at = 0; at <= input.length; at++) yield [input.subarray(0, at), input.subarray(at)];
  yield Array.from(input, (_, i) => input.subarray(i, i + 1));
}

describe("ResponseHeadParser", () => {
  it("finds the head's end and how much of the last piece it took, however the bytes are split", () => {
    const input = bytes("HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-3/10\r\nX-A: 1\r\nx-a: 2\r\n\r\nbody");
    for (const pieces of splits(input)) {
      const parser = new ResponseHeadParser();
      let seen = 0;
      let got: ReturnType<ResponseHeadParser["push"]>;
      for (const piece of pieces) {
        got = parser.push(piece);
        if (got !== undefined) {
          expect(
            new TextDecoder().decode(piece.subarray(got.used)) +
              new TextDecoder().decode(input.subarray(seen + piece.length)),
          ).toBe("body");
          break;
        }
        seen += piece.length;
      }
      expect(got!.head).toEqual({
        minor: 1,
        status: 206,
        statusText: "Partial Content",
        headers: new Map([
          ["content-range", "bytes 0-3/10"],
          ["x-a", "1, 2"],
        ]),
      });
    }
  });
});

describe("ChunkedBody", () => {
  it("decodes chunks, extensions and trailers however the bytes are split, and says when it is done", () => {
    const input = bytes(
      '4;x=1\r\nWiki\r\n5 ; y="a;b"\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nexpires: never\r\n\r\n',
    );
    for (const pieces of splits(input)) {
      const body = new ChunkedBody();
      for (const piece of pieces) {
        if (piece.length > 0) expect(body.done).toBe(false);
        body.push(piece);
      }
      expect(body.done).toBe(true);
      expect(new TextDecoder().decode(body.result())).toBe("Wikipedia in\r\n\r\nchunks.");
    }
  });

  it("an empty body is one last chunk", () => {
    const body = new ChunkedBody();
    body.push(bytes("0\r\n\r\n"));
    expect([body.done, body.result().length]).toEqual([true, 0]);
  });
});

describe("framing", () => {
  const head = (status: number, fields: Record<string, string>, minor: 0 | 1 = 1): ResponseHead => ({
    minor,
    status,
    statusText: "",
    headers: new Map(Object.entries(fields)),
  });

  it("follows RFC 9112's order: no body, Transfer-Encoding, Content-Length, the connection's end", () => {
    expect(framing("HEAD", head(200, { "content-length": "5" }))).toEqual({ kind: "none" });
    expect(framing("GET", head(204, {}))).toEqual({ kind: "none" });
    expect(framing("GET", head(304, { "content-length": "5" }))).toEqual({ kind: "none" });
    expect(framing("GET", head(200, { "transfer-encoding": "gzip, Chunked" }))).toEqual({ kind: "chunked" });
    expect(framing("GET", head(200, { "transfer-encoding": "chunked, gzip" }))).toEqual({ kind: "close" });
    expect(framing("GET", head(200, { "content-length": "007" }))).toEqual({ kind: "length", length: 7 });
    expect(framing("GET", head(404, {}))).toEqual({ kind: "close" });
  });

  it("keeps HTTP/1.1 connections unless told to close, HTTP/1.0 ones only when told to keep them", () => {
    const length = { kind: "length", length: 1 } as const;
    expect(keepsAlive(head(200, {}), length)).toBe(true);
    expect(keepsAlive(head(200, { connection: "close" }), length)).toBe(false);
    expect(keepsAlive(head(200, {}), { kind: "close" })).toBe(false);
    expect(keepsAlive(head(200, {}, 0), length)).toBe(false);
    expect(keepsAlive(head(200, { connection: "Keep-Alive" }, 0), length)).toBe(true);
  });
});
