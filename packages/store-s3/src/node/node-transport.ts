/// <reference types="node" />
import { Agent as HttpAgent, type IncomingMessage, type ClientRequest, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { promisify } from "node:util";
import { brotliDecompress, gunzip, inflate, inflateRaw } from "node:zlib";
import { StoreError } from "@z/meta";
import { TransientFailure } from "../errors.js";
import type { S3Response, Transport } from "../transport.js";

/**
 * Keep-alive connections shared by every store of the process (each store's `concurrency` bounds
 * how many it uses at once). Idle sockets do not keep the process alive (Node unrefs them).
 */
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * Requests with `node:http`/`node:https`, for Node: a body is copied once, from the socket's
 * buffers into one buffer of its Content-Length, and a PUT's body goes to the socket as it is,
 * where Node's `fetch` (undici) copies both through web streams (the S3 bench measured its CPU at
 * about twice this). Like the `fetch` transport it follows no redirects and undoes a
 * Content-Encoding (S3 serves objects stored with one, e.g. gzip, with that header).
 */
export const nodeTransport: Transport = (request) =>
  new Promise<S3Response>((resolve, reject) => {
    const { method, url, body, signal } = request;
    signal.throwIfAborted();
    const secure = url.protocol === "https:";
    const headers: Record<string, string> = { ...request.headers };
    if (body !== undefined) headers["content-length"] = String(body.length);
    let outgoing: ClientRequest;
    let answer: Answer | undefined;
    const onAbort = () => {
      outgoing.destroy();
      if (answer === undefined) reject(signal.reason);
      else answer.fail(signal.reason);
    };
    outgoing = (secure ? httpsRequest : httpRequest)(url, {
      method,
      headers,
      agent: secure ? agents.https : agents.http,
    });
    signal.addEventListener("abort", onAbort, { once: true });
    outgoing.on("error", (err) => {
      if (answer === undefined) {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      } else answer.fail(err);
    });
    outgoing.on("response", (incoming) => {
      answer = new Answer(incoming, method, () => signal.removeEventListener("abort", onAbort));
      resolve(answer.response());
    });
    outgoing.end(body);
  });

/** One response's body, read on demand into one buffer, or let go of. */
class Answer {
  readonly #incoming: IncomingMessage;
  readonly #method: string;
  readonly #done: () => void;
  #failure: unknown;
  #reading: { resolve: (bytes: Uint8Array) => void; reject: (err: unknown) => void } | undefined;
  #settled = false;

  constructor(incoming: IncomingMessage, method: string, done: () => void) {
    this.#incoming = incoming;
    this.#method = method;
    this.#done = done;
    // A connection lost before the body is asked for: remembered (and no unhandled 'error').
    incoming.on("error", (err) => this.fail(err));
    incoming.on("close", () => {
      if (!incoming.complete) this.fail(new Error("the connection closed before the whole body came"));
    });
  }

  response(): S3Response {
    const incoming = this.#incoming;
    return {
      status: incoming.statusCode ?? 0,
      statusText: incoming.statusMessage ?? "",
      headers: { get: (name) => header(incoming, name) },
      body: () => this.#body(),
      discard: async () => this.#discard(),
    };
  }

  fail(err: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#failure ??= err;
    this.#done();
    this.#incoming.destroy();
    this.#reading?.reject(err);
  }

  #finish(bytes: Uint8Array): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#done();
    this.#reading?.resolve(bytes);
  }

  #body(): Promise<Uint8Array> {
    if (this.#reading !== undefined) return Promise.reject(new Error("the body was read already"));
    const incoming = this.#incoming;
    return new Promise<Uint8Array>((resolve, reject) => {
      this.#reading = { resolve, reject };
      if (this.#settled) {
        reject(this.#failure ?? new Error("the body was discarded"));
        return;
      }
      const status = incoming.statusCode ?? 0;
      // A HEAD's Content-Length is the object's, with no body; 204 and 304 have none either.
      const expected = this.#method === "HEAD" || status === 204 || status === 304 ? 0 : declaredLength(incoming);
      const out = expected === undefined ? undefined : new Uint8Array(expected);
      const pieces: Buffer[] = [];
      let at = 0;
      incoming.on("data", (piece: Buffer) => {
        if (out === undefined) pieces.push(piece);
        else if (piece.length > out.length - at) {
          this.fail(wrongLength(`more than ${out.length}`, out.length, status));
          return;
        } else out.set(piece, at);
        at += piece.length;
      });
      incoming.on("end", () => {
        if (out !== undefined) {
          if (at !== out.length) this.fail(wrongLength(at, out.length, status));
          else this.#finish(out);
          return;
        }
        const whole = Buffer.concat(pieces, at);
        decodeContent(whole, header(incoming, "content-encoding")).then(
          (bytes) => this.#finish(bytes),
          (err: unknown) => this.fail(err),
        );
      });
    });
  }

  #discard(): void {
    if (this.#settled || this.#reading !== undefined) return;
    const incoming = this.#incoming;
    if (incoming.complete) {
      // All of it came (the parser saw its end): read off, the connection serves the next request.
      this.#reading = { resolve: () => undefined, reject: () => undefined };
      incoming.on("end", () => this.#finish(new Uint8Array(0)));
      incoming.resume();
    } else {
      // A body still coming is not waited for (it could be large, or never come: s3rver announces
      // one byte for an empty value's range and sends none): the connection closes.
      this.fail(new Error("the body was discarded"));
    }
  }
}

function header(incoming: IncomingMessage, name: string): string | null {
  const value = incoming.headers[name.toLowerCase()];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The Content-Length of a body that arrives as sent (no Content-Encoding), if the response has one. */
function declaredLength(incoming: IncomingMessage): number | undefined {
  const declared = incoming.headers["content-length"];
  const encoding = incoming.headers["content-encoding"];
  if (declared === undefined || !/^\s*\d+\s*$/.test(declared)) return undefined;
  if (encoding !== undefined && encoding.trim().toLowerCase() !== "identity") return undefined;
  return Number(declared);
}

const wrongLength = (got: number | string, expected: number, status: number): TransientFailure =>
  new TransientFailure(
    `the body has ${got} bytes but Content-Length says ${expected} (${typeof got === "number" && got < expected ? "truncated response" : "longer response"})`,
    status,
  );

const decoders: Record<string, (bytes: Uint8Array) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  "x-gzip": promisify(gunzip),
  // "deflate" should be zlib-wrapped, but some servers send raw DEFLATE (a zlib header's low nibble is 8).
  deflate: (bytes) => ((bytes[0]! & 0x0f) === 8 ? promisify(inflate)(bytes) : promisify(inflateRaw)(bytes)),
  br: promisify(brotliDecompress),
};

/** `bytes` with the Content-Encoding undone, last coding first, as `fetch` does; an unknown coding is an error. */
async function decodeContent(bytes: Buffer, encoding: string | null): Promise<Uint8Array> {
  const codings = (encoding ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  let out: Uint8Array = bytes;
  for (const coding of codings.reverse()) {
    const decode = decoders[coding];
    if (decode === undefined)
      throw new StoreError(
        `an S3 answer with Content-Encoding ${JSON.stringify(encoding)}, which cannot be decoded (known: ${Object.keys(decoders).join(", ")})`,
      );
    out = await decode(out);
  }
  // A plain Uint8Array of its own (a Buffer's slice() shares memory; a small one may sit in Node's pool).
  return out.byteOffset === 0 && out.byteLength === out.buffer.byteLength
    ? new Uint8Array(out.buffer, 0, out.byteLength)
    : new Uint8Array(out);
}
