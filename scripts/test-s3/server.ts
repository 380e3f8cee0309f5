// The S3 server store tests run against: s3rver 3.7.1 (an S3 implementation on the local file
// system, from npm) on 127.0.0.1, behind a front that checks every SigV4 signature with the AWS
// SDK's own signer (@smithy/signature-v4), which s3rver does not (it checks only that the access
// key exists). It runs in a process of its own (global-setup.ts bundles this file and starts it
// with --openssl-legacy-provider: s3rver's continuation tokens are DES-encrypted, which OpenSSL 3
// offers only so, and without them every truncated listing is a 500), and prints its endpoint. So a wrong secret is `403 SignatureDoesNotMatch` as on S3, and a request our store
// signed wrongly fails the test. Requests may come through the fault-injecting test server
// (scripts/test-server, session option `proxy`), which forwards them without its `/s/<id>`
// prefix and names it in `X-Forwarded-Prefix`: the signature covers the path the client sent.
import { createHash, createHmac } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignatureV4 } from "@smithy/signature-v4";
import S3rver from "s3rver";

const cors = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers":
    "content-range, content-length, content-type, etag, retry-after, x-amz-request-id, x-amz-bucket-region",
};

/** The one account s3rver knows. */
export const S3_TEST_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

/** A session token the front answers as S3 answers one that has expired (`400 ExpiredToken`). */
export const EXPIRED_SESSION_TOKEN = "expired-session-token";

const secrets = new Map<string, string>([[S3_TEST_CREDENTIALS.accessKeyId, S3_TEST_CREDENTIALS.secretAccessKey]]);

export interface S3TestServer {
  /** `http://127.0.0.1:<port>`: the S3 endpoint (path-style, any region). */
  endpoint: string;
  close(): Promise<void>;
}

export interface S3TestServerOptions {
  /**
   * `false` (the default): the front answers CORS itself, for every bucket, allowing any origin.
   * `true`: as S3 does, each bucket's own CORS configuration (`PUT /<bucket>?cors`, which s3rver
   * keeps and applies to object requests) decides: preflights and `Origin` go on to s3rver, and a
   * bucket without one refuses cross-origin reads.
   */
  bucketCors?: boolean;
}

export async function startS3Server(options: S3TestServerOptions = {}): Promise<S3TestServer> {
  const bucketCors = options.bucketCors ?? false;
  const directory = await mkdtemp(join(tmpdir(), "z-s3rver-"));
  const s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, vhostBuckets: false });
  const { port: backPort } = await s3.run();

  const front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      handle(req, res, Buffer.concat(chunks)).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(err));
        else res.destroy();
      });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    // CORS for the browser tests, answered here for every bucket (s3rver refuses any request with
    // an Origin to a bucket without a CORS configuration, which S3 can be given; this is the same).
    if (req.method === "OPTIONS" && !bucketCors) {
      return void res
        .writeHead(204, {
          ...cors,
          "access-control-allow-methods": "GET, HEAD, PUT, DELETE, POST",
          "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
          "access-control-max-age": "600",
        })
        .end();
    }
    // A preflight carries no signature (S3 answers it from the bucket's CORS configuration).
    const refusal = req.method === "OPTIONS" ? undefined : await checkSignature(req, body);
    if (refusal !== undefined)
      return errorAnswer(res, refusal.status, refusal.code, refusal.message, bucketCors ? {} : cors);
    // s3rver writes an object's file in place: two PUTs of one key at once can leave a mix of both,
    // and a GET during a PUT can read half of it. S3 replaces objects whole (a reader sees the old
    // or the new value), so requests for one object take turns here.
    const object = /^\/[^/?]+\/[^?]+/.exec(req.url ?? "")?.[0];
    const release = object === undefined ? () => {} : await turn(object);
    res.on("close", release);
    const { origin: _, ...withoutOrigin } = req.headers;
    const headers = bucketCors ? req.headers : withoutOrigin;
    const upstream = request({ host: "127.0.0.1", port: backPort, method: req.method, path: req.url, headers });
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, bucketCors ? answer.headers : { ...answer.headers, ...cors });
      // Headers at once, as S3 sends them: s3rver's answer to a range of an empty object declares
      // one byte and never sends it, and a client must see its headers to know the range is empty.
      res.flushHeaders();
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    upstream.end(body);
  }

  /** The previous request's end, per object (see handle). */
  const turns = new Map<string, Promise<void>>();
  async function turn(object: string): Promise<() => void> {
    const previous = turns.get(object) ?? Promise.resolve();
    let done = () => {};
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    const chained = previous.then(() => mine);
    turns.set(object, chained);
    await previous;
    return () => {
      done();
      if (turns.get(object) === chained) turns.delete(object);
    };
  }

  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const { port } = front.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      s3.httpServer.closeAllConnections?.();
      await s3.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** Checks a SigV4 `Authorization` header the way S3 does; anonymous requests pass. */
async function checkSignature(req: IncomingMessage, body: Buffer): Promise<Refusal | undefined> {
  const authorization = req.headers.authorization;
  if (authorization === undefined) return undefined;
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (match === null)
    return { status: 400, code: "AuthorizationHeaderMalformed", message: "The authorization header is malformed." };
  const [, accessKeyId = "", , region = "", service = "", signedHeaders = "", signature] = match;
  const secretAccessKey = secrets.get(accessKeyId);
  if (secretAccessKey === undefined)
    return {
      status: 403,
      code: "InvalidAccessKeyId",
      message: "The AWS Access Key Id you provided does not exist in our records.",
    };
  // s3rver ignores session tokens; this one stands for temporary credentials that have run out.
  if (req.headers["x-amz-security-token"] === EXPIRED_SESSION_TOKEN)
    return { status: 400, code: "ExpiredToken", message: "The provided token has expired." };
  const date = req.headers["x-amz-date"];
  const payloadHash = req.headers["x-amz-content-sha256"];
  if (typeof date !== "string" || typeof payloadHash !== "string")
    return { status: 400, code: "InvalidRequest", message: "Missing x-amz-date or x-amz-content-sha256." };
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== createHash("sha256").update(body).digest("hex"))
    return {
      status: 400,
      code: "XAmzContentSHA256Mismatch",
      message: "The provided 'x-amz-content-sha256' header does not match what was computed.",
    };
  const names = signedHeaders.split(";");
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = req.headers[name];
    if (value === undefined)
      return { status: 403, code: "SignatureDoesNotMatch", message: `signed header ${name} is missing` };
    headers[name] = Array.isArray(value) ? value.join(",") : value;
  }
  const url = new URL(req.url ?? "/", "http://x");
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const seen = query[name];
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  const prefix = req.headers["x-forwarded-prefix"];
  const signer = new SignatureV4({
    credentials: { accessKeyId, secretAccessKey },
    region,
    service,
    sha256: NodeSha256,
    uriEscapePath: false,
  });
  const signed = await signer.sign(
    {
      method: req.method ?? "GET",
      protocol: "http:",
      hostname: headers.host ?? "",
      path: (typeof prefix === "string" ? prefix : "") + url.pathname,
      query,
      headers,
    },
    { signingDate: parseAmzDate(date), signableHeaders: new Set(names) },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(signed.headers.authorization))?.[1];
  if (expected !== signature)
    return {
      status: 403,
      code: "SignatureDoesNotMatch",
      message: "The request signature we calculated does not match the signature you provided.",
    };
  return undefined;
}

function parseAmzDate(text: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (m === null) return new Date(Number.NaN);
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
}

function errorAnswer(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  corsHeaders: Record<string, string>,
): void {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res
    .writeHead(status, { ...corsHeaders, "content-type": "application/xml", "content-length": Buffer.byteLength(xml) })
    .end(xml);
}

/** The hash class @smithy/signature-v4 asks for (SHA-256, or HMAC-SHA256 with a secret), over node:crypto. */
class NodeSha256 {
  readonly #hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    const key =
      secret === undefined
        ? undefined
        : typeof secret === "string"
          ? secret
          : ArrayBuffer.isView(secret)
            ? new Uint8Array(secret.buffer, secret.byteOffset, secret.byteLength)
            : new Uint8Array(secret);
    this.#hash = key === undefined ? createHash("sha256") : createHmac("sha256", key);
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#hash.update(
      typeof data === "string"
        ? data
        : ArrayBuffer.isView(data)
          ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
          : new Uint8Array(data),
    );
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.#hash.digest());
  }
  reset(): void {
    throw new Error("not used");
  }
}

// Run as a process: print the endpoint, serve until SIGTERM or the parent goes.
if (process.argv.includes("--serve")) {
  const server = await startS3Server({ bucketCors: process.argv.includes("--bucket-cors") });
  const stop = () => void server.close().finally(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.stdin.on("end", stop).resume();
  process.stdout.write(`${JSON.stringify({ endpoint: server.endpoint })}\n`);
}
