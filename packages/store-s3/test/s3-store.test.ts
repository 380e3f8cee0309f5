// S3Store against the loopback S3 server (s3rver behind a SigV4 check), directly and through the
// fault-injecting test server as a proxy: what it sends, what it makes of S3's answers, its faults.
// Everything runs twice: over `fetch` (browsers, and Node when given a `fetch`) and over the Node
// entry's `node:http` transport.
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createBucket,
  EXPIRED_SESSION_TOKEN,
  S3_TEST_CREDENTIALS,
  s3Endpoint,
} from "../../../scripts/test-s3/client.js";
import { type SessionConfig, sessionPool } from "../../../scripts/test-server/client.js";
import { S3Store, S3StoreError, type S3StoreOptions, s3Locations } from "../src/index.js";
import { nodeTransport } from "../src/node/node-transport.js";
import { globalFetchTransport, setDefaultTransport, type Transport } from "../src/transport.js";

const sessions = sessionPool();
afterEach(() => sessions.endAll());

let bucket = "";
beforeAll(async () => {
  bucket = await createBucket("store");
});

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);
const ten = (): Uint8Array => bytes(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
let prefixes = 0;

/** A store on a fresh prefix of the shared bucket. */
function store(options: Partial<S3StoreOptions> = {}): S3Store {
  return new S3Store({
    bucket,
    prefix: `t/${++prefixes}.zarr`,
    endpoint: s3Endpoint(),
    credentials: S3_TEST_CREDENTIALS,
    environment: {},
    ...options,
  });
}

/** A store whose requests go through the fault-injecting test server to the S3 server. */
async function proxied(config: Omit<SessionConfig, "proxy"> = {}, options: Partial<S3StoreOptions> = {}) {
  const session = await sessions.open({ ...config, proxy: s3Endpoint() });
  const s = store({ endpoint: session.url, retryDelay: 1, ...options });
  return { store: s, session };
}

/** The same prefix, written directly (faults count the proxied store's requests only). */
function direct(s: S3Store): S3Store {
  return new S3Store({
    bucket: s.bucket,
    prefix: s.prefix,
    endpoint: s3Endpoint(),
    credentials: S3_TEST_CREDENTIALS,
    environment: {},
  });
}

const transports: [string, Transport][] = [
  ["fetch", globalFetchTransport],
  ["node:http", nodeTransport],
];

describe.each(transports)("over %s", (_, transport) => {
  // Stores take the default transport when they are made.
  beforeAll(() => setDefaultTransport(transport));
  afterAll(() => setDefaultTransport(undefined));

  describe("requests", () => {
    it("addresses the bucket in the path on an IP endpoint, and signs every request", async () => {
      const { store: s, session } = await proxied();
      await s.set("a/0.0", ten());
      expect(await s.get("a/0.0")).toEqual(ten());
      const { requests } = await session.log();
      expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        `PUT /${bucket}/${s.prefix}a/0.0`,
        `GET /${bucket}/${s.prefix}a/0.0`,
      ]);
      for (const r of requests) {
        expect(r.headers.authorization).toMatch(
          /^AWS4-HMAC-SHA256 Credential=S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request/,
        );
        expect(r.headers["x-amz-content-sha256"]).toBe("UNSIGNED-PAYLOAD");
      }
    });

    it("reads a range with one ranged GET", async () => {
      const { store: s, session } = await proxied();
      await direct(s).set("k", ten());
      expect(await s.getRange("k", { offset: 2, length: 3 })).toEqual(bytes(2, 3, 4));
      expect(await s.getRange("k", { offset: 7 })).toEqual(bytes(7, 8, 9));
      const { requests } = await session.log();
      expect(requests.map((r) => r.headers.range)).toEqual(["bytes=2-4", "bytes=7-"]);
    });

    it("asks again by offsets when a suffix range is answered with other bytes (s3rver's bytes=-n)", async () => {
      const { store: s, session } = await proxied();
      await direct(s).set("k", ten());
      expect(await s.getRange("k", { suffixLength: 4 })).toEqual(bytes(6, 7, 8, 9));
      const { requests } = await session.log();
      // s3rver answers bytes=-4 with bytes 0-4 of 10: the Content-Range shows it, and the size.
      expect(requests.map((r) => [r.headers.range, r.status])).toEqual([
        ["bytes=-4", 206],
        ["bytes=6-9", 206],
      ]);
    });

    it("takes a server's 200 to a range request as the whole value and cuts it", async () => {
      const { store: s } = await proxied({
        faults: [{ requests: [1], action: { respond: { status: 200, body: "0123456789" } } }],
      });
      expect(new TextDecoder().decode(await s.getRange("k", { suffixLength: 3 }))).toBe("789");
    });

    it("reads a value stored with Content-Encoding gzip decoded, as fetch does", async () => {
      const { store: s } = await proxied({
        faults: [
          {
            requests: [1],
            action: {
              respond: {
                status: 200,
                headers: { "content-encoding": "gzip" },
                bodyBase64: gzipSync(ten()).toString("base64"),
              },
            },
          },
        ],
      });
      expect(await s.get("k")).toEqual(ten());
    });

    it("never returns bytes a 206 says are another range", async () => {
      const { store: s } = await proxied({
        faults: [
          {
            requests: [1],
            action: { respond: { status: 206, headers: { "content-range": "bytes 3-5/10" }, body: "345" } },
          },
        ],
      });
      const error = await s.getRange("k", { offset: 2, length: 3 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(S3StoreError);
      expect((error as S3StoreError).message).toContain("Content-Range bytes 3-5/10");
    });

    it("follows continuation tokens through every page of a listing", async () => {
      const { store: s, session } = await proxied({}, { listPageSize: 2 });
      const keys = [".zgroup", "a/.zarray", "a/0.0", "a/0.1", "a/1.0", "a/1.1", "b/.zgroup"];
      for (const key of keys) await direct(s).set(key, ten());
      expect((await s.list()).sort()).toEqual([...keys].sort());
      expect(await s.listDir("a/")).toEqual({ keys: [".zarray", "0.0", "0.1", "1.0", "1.1"], prefixes: [] });
      const { requests } = await session.log();
      const lists = requests.filter((r) => r.path.includes("list-type=2"));
      expect(lists.length).toBeGreaterThanOrEqual(4 + 3);
      expect(lists.filter((r) => r.path.includes("continuation-token=")).length).toBe(lists.length - 2);
    });

    it("signs the payload's SHA-256 when asked (and the server checks it)", async () => {
      const { store: s, session } = await proxied({}, { signPayload: true });
      await s.set("k", ten());
      expect(await s.get("k")).toEqual(ten());
      const { requests } = await session.log();
      expect(requests[0]?.headers["x-amz-content-sha256"]).toBe(
        "1f825aa2f0020ef7cf91dfa30da4668d791c5d4824fc8e41354b89ec05795ab3",
      );
      expect(requests[1]?.headers["x-amz-content-sha256"]).toBe(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      );
    });

    it("agrees to pay for a Requester Pays bucket's requests when asked, in the signature too", async () => {
      const { store: s, session } = await proxied({}, { requesterPays: true });
      await s.set("k", ten());
      expect(await s.get("k")).toEqual(ten());
      expect(await s.list()).toEqual(["k"]);
      const { requests } = await session.log();
      expect(requests).toHaveLength(3);
      for (const r of requests) {
        expect(r.headers["x-amz-request-payer"]).toBe("requester");
        expect(r.headers.authorization).toMatch(/SignedHeaders=[^,]*x-amz-request-payer/);
      }
      const anonymous = await proxied({}, { requesterPays: true, credentials: undefined, anonymous: true });
      await anonymous.store.get("k").catch(() => undefined);
      expect((await anonymous.session.log()).requests[0]?.headers["x-amz-request-payer"]).toBe("requester");
      // Not sent unless asked.
      const plain = await proxied();
      await plain.store.get("k");
      expect((await plain.session.log()).requests[0]?.headers["x-amz-request-payer"]).toBeUndefined();
    });

    it("keys with characters URLs encode are signed and stored as they are", async () => {
      const s = store();
      const keys = ["with space/0.0", "plus+sign/=@,;:$&", "tilde~/é ü 日本", "percent%20/(x)!*'"];
      for (const key of keys) await s.set(key, new TextEncoder().encode(key));
      for (const key of keys) expect(new TextDecoder().decode(await s.get(key))).toBe(key);
      expect((await s.list()).sort()).toEqual([...keys].sort());
      expect(await s.listDir("")).toEqual({ keys: [], prefixes: ["percent%20", "plus+sign", "tilde~", "with space"] });
    });

    it("has is one HEAD", async () => {
      const { store: s, session } = await proxied();
      await direct(s).set("k", ten());
      expect(await s.has("k")).toBe(true);
      expect(await s.has("missing")).toBe(false);
      expect(await s.has("missing/too")).toBe(false);
      const { requests } = await session.log();
      expect(requests.map((r) => r.method)).toEqual(["HEAD", "HEAD", "HEAD"]);
    });

    it("rmdir removes a subtree and nothing else", async () => {
      const s = store();
      for (const key of ["a/.zarray", "a/0.0", "a/b/0", "ab/.zgroup", ".zgroup"]) await s.set(key, ten());
      await s.rmdir("a");
      expect((await s.list()).sort()).toEqual([".zgroup", "ab/.zgroup"]);
    });

    it("a read-only store refuses to write", async () => {
      const s = store({ writable: false });
      await expect(s.set("k", ten())).rejects.toMatchObject({ code: "ZARR_STORE", key: "k" });
      await expect(s.delete("k")).rejects.toThrow(/read-only/);
    });
  });

  describe("anonymous access", () => {
    it("reads without signing (a public bucket)", async () => {
      const writer = store();
      await writer.set("public/0", ten());
      const { store: reader, session } = await proxied(
        {},
        { anonymous: true, credentials: undefined, prefix: writer.prefix },
      );
      expect(reader.signed).toBe(false);
      expect(await reader.get("public/0")).toEqual(ten());
      expect(await reader.get("public/1")).toBeUndefined();
      const { requests } = await session.log();
      expect(requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    });
  });

  describe("errors", () => {
    it("a bucket that does not exist is NoSuchBucket, never an empty store", async () => {
      const s = store({ bucket: "no-such-bucket-here" });
      for (const call of [
        () => s.get("k"),
        () => s.getRange("k", { offset: 1 }),
        () => s.list(),
        () => s.set("k", ten()),
      ]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(S3StoreError);
        expect(error).toMatchObject({
          code: "ZARR_STORE",
          s3Code: "NoSuchBucket",
          bucket: "no-such-bucket-here",
          status: 404,
        });
        expect((error as Error).message).toContain("NoSuchBucket");
        expect((error as Error).message).toContain("s3://no-such-bucket-here/");
      }
      // A HEAD's 404 has no body: the store asks once more to tell a missing bucket from a missing key.
      await expect(s.has("k")).rejects.toMatchObject({ s3Code: "NoSuchBucket" });
    });

    it("a wrong secret is SignatureDoesNotMatch, not retried", async () => {
      const { store: s, session } = await proxied(
        {},
        { credentials: { accessKeyId: S3_TEST_CREDENTIALS.accessKeyId, secretAccessKey: "wrong" } },
      );
      const error = await s.get("k").catch((e: unknown) => e);
      expect(error).toMatchObject({ s3Code: "SignatureDoesNotMatch", status: 403, key: "k", bucket });
      expect((error as S3StoreError).objectKey).toBe(`${s.prefix}k`);
      expect((await session.log()).requests).toHaveLength(1);
    });

    it("expired temporary credentials are ExpiredToken, not retried", async () => {
      const { store: s, session } = await proxied(
        {},
        { credentials: { ...S3_TEST_CREDENTIALS, sessionToken: EXPIRED_SESSION_TOKEN } },
      );
      await expect(s.getRange("k", { offset: 0, length: 4 })).rejects.toMatchObject({
        s3Code: "ExpiredToken",
        status: 400,
        key: "k",
      });
      const { requests } = await session.log();
      expect(requests.map((r) => r.headers["x-amz-security-token"])).toEqual([EXPIRED_SESSION_TOKEN]);
      expect(requests[0]?.headers.authorization).toMatch(/SignedHeaders=[^,]*x-amz-security-token/);
    });

    it("an unknown access key is InvalidAccessKeyId", async () => {
      const s = store({ credentials: { accessKeyId: "AKIANOTAKEY", secretAccessKey: "x" } });
      await expect(s.set("k", ten())).rejects.toMatchObject({ s3Code: "InvalidAccessKeyId", status: 403 });
      await expect(s.list()).rejects.toMatchObject({ s3Code: "InvalidAccessKeyId" });
    });
  });

  describe("faults", () => {
    it("503 SlowDown is retried, and the value is the stored one", async () => {
      const slowDown = {
        status: 503,
        headers: { "content-type": "application/xml" },
        body: "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>",
      };
      const { store: s, session } = await proxied({ faults: [{ requests: [1, 2], action: { respond: slowDown } }] });
      await direct(s).set("k", ten());
      expect(await s.get("k")).toEqual(ten());
      expect((await session.log()).requests.map((r) => r.status)).toEqual([503, 503, 200]);
    });

    it("SlowDown on every attempt is an error naming it, after retries + 1 attempts", async () => {
      const body = "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
      const { store: s, session } = await proxied(
        { faults: [{ action: { respond: { status: 503, body } } }] },
        { retries: 2 },
      );
      const error = await s.set("k", ten()).catch((e: unknown) => e);
      expect(error).toMatchObject({ s3Code: "SlowDown", status: 503, key: "k", method: "PUT" });
      expect((error as Error).message).toMatch(/after 3 attempts: 503 .*SlowDown/);
      expect((await session.log()).requests).toHaveLength(3);
    });

    it("a dropped connection is retried", async () => {
      const { store: s, session } = await proxied({ faults: [{ requests: [1], action: { drop: true } }] });
      await direct(s).set("k", ten());
      expect(await s.getRange("k", { offset: 1, length: 2 })).toEqual(bytes(1, 2));
      expect((await session.log()).requests).toHaveLength(2);
    });

    it("a truncated body is never returned: retried, then an error", async () => {
      const { store: s } = await proxied({
        faults: [{ requests: [1], action: { truncate: { bytes: 5, then: "close" } } }],
      });
      await direct(s).set("k", ten());
      expect(await s.get("k")).toEqual(ten());

      const { store: broken } = await proxied(
        { faults: [{ action: { truncate: { bytes: 5, then: "close" } } }] },
        { retries: 1, prefix: s.prefix },
      );
      await expect(broken.get("k")).rejects.toMatchObject({ code: "ZARR_STORE", key: "k" });
    });

    it("a body that stalls part way times out and is retried", async () => {
      const { store: s, session } = await proxied(
        { faults: [{ requests: [1], action: { truncate: { bytes: 3, then: "stall" } } }] },
        // Long enough for the retry to answer in time on a loaded machine (300 ms was not).
        { timeout: 3000 },
      );
      await direct(s).set("k", ten());
      expect(await s.get("k")).toEqual(ten());
      // The first stalled after 3 bytes; a retry that took longer than the timeout on a loaded
      // machine was retried in its turn, so the count is not asserted, only how it ended.
      const { requests } = await session.log();
      expect(requests[0]).toMatchObject({ status: 200, bytes: 3 });
      expect(requests.at(-1)).toMatchObject({ status: 200, bytes: 10 });
    });

    it("an abort stops a request in flight with the signal's reason", async () => {
      const { store: s } = await proxied({ faults: [{ action: { stall: true } }] });
      const controller = new AbortController();
      const reason = new Error("stop");
      const pending = s.get("k", { signal: controller.signal });
      setTimeout(() => controller.abort(reason), 50);
      await expect(pending).rejects.toBe(reason);
    });

    it("keeps at most `concurrency` requests in flight", async () => {
      // The proxy answers once three are in flight at once (however slowly a loaded machine sends
      // them), then holds each answer a while, so that a fourth would overlap too.
      const { store: s, session } = await proxied({ overlap: 3, delay: 30 }, { concurrency: 3 });
      await Promise.all(Array.from({ length: 12 }, (_, i) => s.get(`missing/${i}`)));
      const log = await session.log();
      expect(log.requests).toHaveLength(12);
      expect(log.maxInFlight).toBe(3);
    });
  });

  describe("options", () => {
    it("reads credentials, region, endpoint and path style from the environment given", async () => {
      const s = new S3Store({
        bucket,
        environment: {
          AWS_ACCESS_KEY_ID: "S3RVER",
          AWS_SECRET_ACCESS_KEY: "S3RVER",
          AWS_REGION: "eu-west-3",
          AWS_ENDPOINT_URL_S3: s3Endpoint(),
        },
      });
      expect(s.signed).toBe(true);
      expect(s.region).toBe("eu-west-3");
      expect(s.endpoint.href).toBe(`${s3Endpoint()}/`);
      await s.set("env/k", ten());
      expect(await s.get("env/k")).toEqual(ten());
    });

    it("an environment with half a key is an error, not anonymous access", () => {
      expect(() => new S3Store({ bucket, environment: { AWS_ACCESS_KEY_ID: "x" } })).toThrow(
        /AWS_ACCESS_KEY_ID but no AWS_SECRET_ACCESS_KEY/,
      );
    });

    it("addresses buckets by host name on AWS, by path on IP addresses, localhost and when forced", () => {
      const aws = new S3Store({ bucket: "my-bucket", prefix: "/data/x.zarr/", region: "eu-west-1", environment: {} });
      expect(aws.objectUrl(aws.objectKey("a b/0.0")).href).toBe(
        "https://my-bucket.s3.eu-west-1.amazonaws.com/data/x.zarr/a%20b/0.0",
      );
      expect(aws.pathStyle).toBe(false);
      const forced = new S3Store({ bucket: "b", forcePathStyle: true, environment: {} });
      expect(forced.objectUrl("k").href).toBe("https://s3.us-east-1.amazonaws.com/b/k");
      const fromEnv = new S3Store({ bucket: "bucket", environment: { AWS_S3_FORCE_PATH_STYLE: "true" } });
      expect(fromEnv.pathStyle).toBe(true);
      const local = new S3Store({ bucket: "bucket", endpoint: "http://localhost:9000", environment: {} });
      expect(local.objectUrl("k").href).toBe("http://localhost:9000/bucket/k");
      const ip6 = new S3Store({ bucket: "bucket", endpoint: "http://[::1]:9000/gateway/", environment: {} });
      expect(ip6.objectUrl("k").href).toBe("http://[::1]:9000/gateway/bucket/k");
      const dotted = new S3Store({ bucket: "my.bucket", environment: {} });
      expect(dotted.pathStyle).toBe(true);
    });

    it("refuses options that cannot name a bucket or an endpoint", () => {
      expect(() => new S3Store({ bucket: "a/b", environment: {} })).toThrow(/invalid S3 bucket name/);
      expect(() => new S3Store({ bucket: "b", prefix: "../x", environment: {} })).toThrow(/invalid S3 prefix/);
      expect(() => new S3Store({ bucket: "b", endpoint: "ftp://x", environment: {} })).toThrow(/invalid S3 endpoint/);
      expect(() => new S3Store({ bucket: "b", concurrency: 0, environment: {} })).toThrow(/concurrency/);
      expect(
        () => new S3Store({ bucket: "b", anonymous: true, credentials: S3_TEST_CREDENTIALS, environment: {} }),
      ).toThrow(/not both/);
    });
  });

  describe("s3Locations", () => {
    it("opens a URL with the options given for it over the opener's, an undefined one leaving the opener's", () => {
      const opener = s3Locations({ region: "eu-west-1", endpoint: "http://127.0.0.1:9", environment: {} });
      const plain = opener.openS3("s3://bucket/a/b.zarr") as S3Store;
      expect([plain.bucket, plain.prefix, plain.region, plain.endpoint.href]).toEqual([
        "bucket",
        "a/b.zarr/",
        "eu-west-1",
        "http://127.0.0.1:9/",
      ]);
      const given = opener.openS3("s3://bucket/a", { region: "us-west-2", endpoint: undefined, forcePathStyle: true });
      expect([(given as S3Store).region, (given as S3Store).endpoint.href, (given as S3Store).pathStyle]).toEqual([
        "us-west-2",
        "http://127.0.0.1:9/",
        true,
      ]);
    });
  });
});
