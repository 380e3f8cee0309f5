import { afterEach, describe, expect, it } from "vitest";
import { HttpStore, HttpStoreError, type HttpStoreOptions } from "@z/store-http";
import { serveBytes, startServer, type Handler, type TestServer } from "./server.js";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server with `handler` and a store on it, retrying fast by default. */
async function setup(handler: Handler, options: HttpStoreOptions = {}): Promise<{ server: TestServer; store: HttpStore }> {
  const server = await startServer(handler);
  servers.push(server);
  return { server, store: new HttpStore(`${server.url}/root/`, { retryDelay: 1, maxRetryDelay: 10, timeout: 2_000, ...options }) };
}

const value = new TextEncoder().encode("the value of the key");
const rejection = (promise: Promise<unknown>) => promise.then(() => expect.unreachable("it succeeded"), (err: unknown) => err as HttpStoreError);

describe("retries", () => {
  it("retries 5xx responses and then succeeds", async () => {
    let calls = 0;
    const { server, store } = await setup((req, res) => {
      if (++calls <= 2) return void res.writeHead(calls === 1 ? 500 : 503).end("oops");
      serveBytes(req, res, value);
    });
    expect(await store.get("k")).toEqual(value);
    expect(server.requests.map((r) => r.path)).toEqual(["/root/k", "/root/k", "/root/k"]);
  });

  it("gives up after `retries`, with an HttpStoreError naming request, status, attempts and key", async () => {
    const { server, store } = await setup((_req, res) => void res.writeHead(502, "Bad Gateway").end(), { retries: 2 });
    const err = await rejection(store.get("a/0.0"));
    expect(err).toBeInstanceOf(HttpStoreError);
    expect(err).toMatchObject({ code: "ZARR_STORE", status: 502, key: "a/0.0", method: "GET", url: `${server.url}/root/a/0.0` });
    expect(err.message).toBe(`GET ${server.url}/root/a/0.0 failed after 3 attempts: 502 Bad Gateway`);
    expect(server.requests).toHaveLength(3);
  });

  it("never retries 4xx", async () => {
    for (const status of [400, 401, 403, 405, 429]) {
      const { server, store } = await setup((_req, res) => void res.writeHead(status).end());
      const err = await rejection(store.get("k"));
      expect(err).toMatchObject({ status, message: expect.stringMatching(new RegExp(`^GET .* failed: ${status}`)) });
      expect(server.requests).toHaveLength(1);
    }
  });

  it("honours Retry-After (up to maxRetryDelay)", async () => {
    let calls = 0;
    const { store } = await setup(
      (req, res) => {
        if (++calls === 1) return void res.writeHead(503, { "retry-after": "1" }).end();
        serveBytes(req, res, value);
      },
      { maxRetryDelay: 5_000 },
    );
    const started = Date.now();
    expect(await store.get("k")).toEqual(value);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("retries network errors: a connection dropped before any response", async () => {
    let calls = 0;
    const { server, store } = await setup((req, res) => {
      if (++calls === 1) return void req.socket.destroy();
      serveBytes(req, res, value);
    });
    expect(await store.get("k")).toEqual(value);
    expect(server.requests).toHaveLength(2);
  });

  it("reports a refused connection after retrying", async () => {
    const { server, store } = await setup((_req, res) => void res.end(), { retries: 1 });
    await server.close();
    const err = await rejection(store.get("k"));
    expect(err).toMatchObject({ code: "ZARR_STORE", status: undefined, message: expect.stringMatching(/failed after 2 attempts: network error: fetch failed/) });
  });

  it("retries PUT and DELETE too (they are idempotent)", async () => {
    let calls = 0;
    const { server, store } = await setup(
      (_req, res) => {
        calls++;
        res.writeHead(calls % 2 === 1 ? 500 : 204).end();
      },
      { writable: true },
    );
    await store.set("k", value);
    await store.delete("k");
    expect(server.requests.map((r) => r.method)).toEqual(["PUT", "PUT", "DELETE", "DELETE"]);
  });
});

describe("truncated and wrong-length responses are errors, never partial data", () => {
  const truncating: Handler = (_req, res) => {
    res.writeHead(200, { "content-length": 100, "content-type": "application/octet-stream" });
    res.write(new Uint8Array(50));
    // End the connection mid-body.
    setTimeout(() => res.socket?.destroy(), 10);
  };

  it("a body cut short is retried, then an error", async () => {
    const { server, store } = await setup(truncating, { retries: 1 });
    const err = await rejection(store.get("k"));
    expect(err).toMatchObject({ code: "ZARR_STORE", key: "k", message: expect.stringMatching(/failed after 2 attempts: network error while reading the response: terminated/) });
    expect(server.requests).toHaveLength(2);
  });

  it("a body cut short once, then whole, is the whole value", async () => {
    let calls = 0;
    const { store } = await setup((req, res, body) => (++calls === 1 ? truncating(req, res, body) : serveBytes(req, res, value)));
    expect(await store.get("k")).toEqual(value);
  });

  it("a body that disagrees with Content-Length (a fetch that does not check)", async () => {
    let calls = 0;
    const store = new HttpStore("http://example.invalid/", {
      retries: 1,
      retryDelay: 1,
      fetch: async () => {
        calls++;
        return new Response(value.slice(0, 5), { status: 200, headers: { "content-length": String(value.length) } });
      },
    });
    const err = await rejection(store.get("k"));
    expect(err.message).toBe(`GET http://example.invalid/k failed after 2 attempts: the body has 5 bytes but Content-Length says ${value.length} (truncated response)`);
    expect(calls).toBe(2);
  });

  it("a 206 whose Content-Range does not match the request or the body", async () => {
    const cases: [string, Record<string, string | number>, Uint8Array][] = [
      ["wrong start", { "content-range": "bytes 0-3/20" }, value.subarray(0, 4)],
      ["longer than asked", { "content-range": "bytes 2-9/20" }, value.subarray(2, 10)],
      ["cut short", { "content-range": "bytes 2-3/20" }, value.subarray(2, 4)],
      ["body length", { "content-range": "bytes 2-5/20" }, value.subarray(2, 5)],
      ["no Content-Range", {}, value.subarray(2, 6)],
    ];
    for (const [name, headers, body] of cases) {
      const { store } = await setup((_req, res) => void res.writeHead(206, { ...headers, "content-length": body.length }).end(body));
      const err = await rejection(store.getRange("k", { offset: 2, length: 4 }));
      expect(err, name).toMatchObject({ code: "ZARR_STORE", status: 206, key: "k", message: expect.stringContaining("(Range: bytes=2-5) answered with") });
    }
  });

  it("a server ignoring Range: the whole body is sliced", async () => {
    const { server, store } = await setup((req, res) => serveBytes(req, res, value, { ignoreRange: true }));
    expect(await store.getRange("k", { offset: 4, length: 5 })).toEqual(value.slice(4, 9));
    expect(await store.getRange("k", { suffixLength: 3 })).toEqual(value.slice(-3));
    expect(await store.getRange("k", { offset: 100 })).toEqual(new Uint8Array(0));
    expect(server.requests.every((r) => r.headers.range !== undefined)).toBe(true);
  });
});

describe("HTML pages", () => {
  const html: Handler = (_req, res) => void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<!doctype html><p>Not found</p>");

  it("are errors by default (a server answering missing paths with a page)", async () => {
    const { server, store } = await setup(html);
    const err = await rejection(store.get("a/0.0"));
    expect(err).toMatchObject({ code: "ZARR_STORE", status: 200, key: "a/0.0" });
    expect(err.message).toBe(
      `GET ${server.url}/root/a/0.0 answered 200 with an HTML page (Content-Type text/html; charset=utf-8) instead of the value of "a/0.0": the server may answer missing paths with a page (pass { rejectHtml: false } to accept HTML values)`,
    );
    await expect(store.getRange("a/0.0", { offset: 0, length: 2 })).rejects.toMatchObject({ status: 200, message: expect.stringContaining("HTML page") });
    expect(server.requests).toHaveLength(2);
  });

  it("are values with rejectHtml: false", async () => {
    const { store } = await setup(html, { rejectHtml: false });
    expect(new TextDecoder().decode(await store.get("index.html"))).toContain("Not found");
  });
});

describe("missing keys", () => {
  it("404 is missing; 403 is an error unless missingStatuses says otherwise (S3)", async () => {
    const { store } = await setup((_req, res) => void res.writeHead(403, { "content-type": "application/xml" }).end("<Error><Code>AccessDenied</Code></Error>"));
    await expect(store.get("k")).rejects.toMatchObject({ status: 403 });
    const s3 = new HttpStore(store.url, { missingStatuses: [403, 404] });
    expect(await s3.get("k")).toBeUndefined();
    expect(await s3.getRange("k", { suffixLength: 4 })).toBeUndefined();
    expect(() => new HttpStore(store.url, { missingStatuses: [200] })).toThrow("invalid missingStatuses: 200 is not a 4xx status");
  });

  it("deleting a missing key is fine; a failing PUT is an error", async () => {
    const { store } = await setup((req, res) => void res.writeHead(req.method === "DELETE" ? 404 : 409).end(), { writable: true });
    await store.delete("k");
    await expect(store.set("k", value)).rejects.toMatchObject({ status: 409, method: "PUT", message: expect.stringMatching(/^PUT .*\/root\/k failed: 409 Conflict$/) });
  });
});

describe("stalls, timeouts and aborts", () => {
  const stall: Handler = () => {
    // never answers
  };

  it("an attempt that takes longer than `timeout` is abandoned and retried, then an error", async () => {
    const { server, store } = await setup(stall, { timeout: 150, retries: 1 });
    const started = Date.now();
    const err = await rejection(store.get("k"));
    expect(err.message).toMatch(/failed after 2 attempts: no complete response within 150 ms \(timeout\)$/);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a body that stalls halfway times out too", async () => {
    const { store } = await setup(
      (_req, res) => {
        res.writeHead(200, { "content-length": 100 });
        res.write(new Uint8Array(10));
      },
      { timeout: 150, retries: 0 },
    );
    await expect(store.get("k")).rejects.toMatchObject({ message: expect.stringMatching(/^GET .* failed: no complete response within 150 ms \(timeout\)$/) });
  });

  it("the caller's signal aborts a stalled request at once, with the signal's reason, and no retry", async () => {
    const { server, store } = await setup(stall, { timeout: 0 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(store.get("k", { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
    const reason = new Error("user went away");
    await expect(store.getRange("k", { offset: 0 }, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it("the caller's signal aborts the wait between retries", async () => {
    const { server, store } = await setup((_req, res) => void res.writeHead(503, { "retry-after": "30" }).end(), { maxRetryDelay: 30_000 });
    const started = Date.now();
    await expect(store.get("k", { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({ name: "TimeoutError" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });
});

describe("requests", () => {
  it("keeps at most `concurrency` requests in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const { store } = await setup(
      (req, res) => {
        most = Math.max(most, ++inFlight);
        setTimeout(() => {
          inFlight--;
          serveBytes(req, res, value);
        }, 20);
      },
      { concurrency: 3 },
    );
    const values = await Promise.all(Array.from({ length: 15 }, (_, i) => store.get(`c/${i}`)));
    expect(values.every((v) => v?.length === value.length)).toBe(true);
    expect(most).toBe(3);
  });

  it("sends custom headers, keeps the base URL's query, and encodes keys", async () => {
    const { server } = await setup((req, res) => serveBytes(req, res, value));
    const store = new HttpStore(`${server.url}/base/path?token=abc%20def`, { headers: { authorization: "Bearer xyz", "x-extra": "1" } });
    await store.get("with space/a#b?c%");
    const request = server.requests.at(-1)!;
    expect(request.path).toBe("/base/path/with%20space/a%23b%3Fc%25?token=abc%20def");
    expect(request.headers).toMatchObject({ authorization: "Bearer xyz", "x-extra": "1" });
    expect(store.keyUrl("a/0.0").href).toBe(`${server.url}/base/path/a/0.0?token=abc%20def`);
  });

  it("uses a custom fetch", async () => {
    const seen: string[] = [];
    const store = new HttpStore("https://example.invalid/data/", {
      fetch: async (input, init) => {
        seen.push(`${init?.method} ${String(input)} ${new Headers(init?.headers).get("range") ?? ""}`.trim());
        return new Response(value, { status: 200 });
      },
    });
    expect(await store.get("a")).toEqual(value);
    expect(await store.getRange("b", { offset: 1, length: 2 })).toEqual(value.slice(1, 3));
    expect(seen).toEqual(["GET https://example.invalid/data/a", "GET https://example.invalid/data/b bytes=1-2"]);
  });

  it("refuses bad URLs, options and ranges", () => {
    expect(() => new HttpStore("not a url")).toThrow(/invalid HttpStore URL "not a url"/);
    expect(() => new HttpStore("file:///tmp/x")).toThrow("only http: and https: are supported");
    expect(() => new HttpStore("http://x/", { concurrency: 0 })).toThrow("invalid HTTP option concurrency");
    expect(() => new HttpStore("http://x/", { retries: 1.5 })).toThrow("invalid HTTP option retries");
    const store = new HttpStore("http://x/");
    return expect(store.getRange("k", { offset: -1 })).rejects.toMatchObject({ code: "ZARR_STORE", message: expect.stringContaining("offset must be a non-negative integer") });
  });
});
