import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpStore, HttpStoreError } from "@z/store-http";
import { testServer, type Fault, type FaultAction } from "../../../../scripts/test-server/client.js";
import { always, holding, logged, on, pool, rejection, requests, respond, setup, value } from "./helpers.js";
import type { TransportUnderTest } from "./transport.js";

// Against the shared test server (scripts/test-server/): each test opens a session that fails,
// stalls or truncates the requests it names.

export function misbehavingSuite(transport: TransportUnderTest): void {
  afterEach(() => pool.endAll());

  describe("retries", () => {
    it("retries 5xx responses and then succeeds", async () => {
      const { session, store } = await setup({
        values: holding(),
        faults: [on([1], respond(500)), on([2], respond(503))],
      });
      expect(await store.get("k")).toEqual(value);
      expect((await requests(session)).map((r) => `${r.status} ${r.path}`)).toEqual([
        "500 /root/k",
        "503 /root/k",
        "200 /root/k",
      ]);
    });

    it("gives up after `retries`, with an HttpStoreError naming request, status, attempts and key", async () => {
      const { session, store } = await setup({ faults: [always(respond(502))] }, { retries: 2 });
      const err = await rejection(store.get("a/0.0"));
      expect(err).toBeInstanceOf(HttpStoreError);
      expect(err).toMatchObject({
        code: "ZARR_STORE",
        status: 502,
        key: "a/0.0",
        method: "GET",
        url: `${session.url}root/a/0.0`,
      });
      expect(err.message).toBe(`GET ${session.url}root/a/0.0 failed after 3 attempts: 502 Bad Gateway`);
      expect(await requests(session)).toHaveLength(3);
    });

    it("never retries other 4xx", async () => {
      for (const status of [400, 401, 403, 405, 410]) {
        const { session, store } = await setup({ faults: [always(respond(status))] });
        const err = await rejection(store.get("k"));
        expect(err).toMatchObject({ status, message: expect.stringMatching(new RegExp(`^GET .* failed: ${status}`)) });
        expect(await requests(session)).toHaveLength(1);
      }
    });

    it("honours Retry-After on a 503 (up to maxRetryDelay)", async () => {
      const { store } = await setup(
        { values: holding(), faults: [on([1], respond(503, { "retry-after": "1" }))] },
        { maxRetryDelay: 5_000 },
      );
      const started = performance.now();
      expect(await store.get("k")).toEqual(value);
      expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    });

    it("retries network errors: a connection dropped before any response", async () => {
      const { session, store } = await setup({ values: holding(), faults: [on([1], { drop: true })] });
      expect(await store.get("k")).toEqual(value);
      // Chromium may itself resend a request whose reused connection closed without an answer.
      expect((await requests(session)).length).toBeGreaterThanOrEqual(2);
    });

    it("reports a refused connection after retrying", async () => {
      const store = new HttpStore(`${testServer().refusedUrl}/root/`, { retries: 1, retryDelay: 1 });
      const err = await rejection(store.get("k"));
      expect(err).toMatchObject({
        code: "ZARR_STORE",
        status: undefined,
        key: "k",
        message: expect.stringMatching(transport.refused),
      });
    });

    it("retries PUT and DELETE too (they are idempotent)", async () => {
      const { session, store } = await setup(
        { writable: true, faults: [on([1, 3], respond(500))] },
        { writable: true },
      );
      await store.set("k", value);
      await store.delete("k");
      expect((await requests(session)).map((r) => `${r.method} ${r.status}`)).toEqual([
        "PUT 500",
        "PUT 201",
        "DELETE 500",
        "DELETE 204",
      ]);
    });
  });

  describe("429 Too Many Requests", () => {
    it("is retried after the Retry-After seconds", async () => {
      const { session, store } = await setup(
        { values: holding(), faults: [on([1], respond(429, { "retry-after": "1" }))] },
        { maxRetryDelay: 5_000 },
      );
      const started = performance.now();
      expect(await store.get("k")).toEqual(value);
      expect(performance.now() - started).toBeGreaterThanOrEqual(950);
      expect((await requests(session)).map((r) => r.status)).toEqual([429, 200]);
    });

    it("is retried after a Retry-After HTTP date", async () => {
      // HTTP dates have whole seconds: 3 s from now, cut to the second, is 2 s away or more. The
      // retry waits until then, however long the session and the first answer took.
      const started = Date.now();
      const when = new Date(started + 3_000).toUTCString();
      const { store } = await setup(
        { values: holding(), faults: [on([1], respond(429, { "retry-after": when }))] },
        { maxRetryDelay: 10_000 },
      );
      expect(await store.get("k")).toEqual(value);
      // Against the wall clock, as the date is. Not more than the date: the test's timeout says that.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_990);
    }, 15_000);

    it("waits at most maxRetryDelay, however long the server asks", async () => {
      const { session, store } = await setup(
        { values: holding(), faults: [on([1, 2], respond(429, { "retry-after": "3600" }))] },
        { maxRetryDelay: 200 },
      );
      const started = performance.now();
      // Not an hour: the test's timeout says that, however loaded the machine.
      expect(await store.get("k")).toEqual(value);
      expect(performance.now() - started).toBeGreaterThanOrEqual(2 * 190);
      expect(await requests(session)).toHaveLength(3);
    });

    it("without Retry-After backs off as for a 5xx; when retries run out it is an HttpStoreError with status 429", async () => {
      const { session, store } = await setup({ faults: [always(respond(429))] }, { retries: 2 });
      const err = await rejection(store.getRange("k", { offset: 0, length: 4 }));
      expect(err).toMatchObject({
        code: "ZARR_STORE",
        status: 429,
        key: "k",
        message: `GET ${session.url}root/k failed after 3 attempts: 429 Too Many Requests`,
      });
      expect(await requests(session)).toHaveLength(3);
    });
  });

  describe("truncated and wrong-length responses are errors, never partial data", () => {
    const truncate = (then: "close" | "stall"): FaultAction => ({ truncate: { bytes: 5, then } });

    it("a body cut short is retried, then an error", async () => {
      const { session, store } = await setup(
        { values: holding(), faults: [always(truncate("close"))] },
        { retries: 1 },
      );
      const err = await rejection(store.get("k"));
      expect(err).toMatchObject({
        code: "ZARR_STORE",
        key: "k",
        message: expect.stringMatching(/failed after 2 attempts: network error while reading the response: /),
      });
      expect(await requests(session)).toHaveLength(2);
      expect((await requests(session)).map((r) => r.bytes)).toEqual([5, 5]);
    });

    it("a body cut short once, then whole, is the whole value", async () => {
      const { store } = await setup({ values: holding(), faults: [on([1], truncate("close"))] });
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
      expect(err.message).toBe(
        `GET http://example.invalid/k failed after 2 attempts: the body has 5 bytes but Content-Length says ${value.length} (truncated response)`,
      );
      expect(calls).toBe(2);
    });

    it("a body longer than Content-Length says is an error too", async () => {
      const store = new HttpStore("http://example.invalid/", {
        retries: 0,
        fetch: async () => new Response(value, { status: 200, headers: { "content-length": "5" } }),
      });
      const err = await rejection(store.get("k"));
      expect(err.message).toBe(
        "GET http://example.invalid/k failed: the body has more than 5 bytes but Content-Length says 5 (longer response)",
      );
    });

    it("a 206 whose Content-Range does not match the request or the body", async () => {
      const cases: [string, Record<string, string>, Uint8Array][] = [
        ["wrong start", { "content-range": "bytes 0-3/20" }, value.subarray(0, 4)],
        ["longer than asked", { "content-range": "bytes 2-9/20" }, value.subarray(2, 10)],
        ["cut short", { "content-range": "bytes 2-3/20" }, value.subarray(2, 4)],
        ["body length", { "content-range": "bytes 2-5/20" }, value.subarray(2, 5)],
        ["no Content-Range", {}, value.subarray(2, 6)],
      ];
      for (const [name, headers, body] of cases) {
        const { store } = await setup({ faults: [always(respond(206, headers, body))] });
        const err = await rejection(store.getRange("k", { offset: 2, length: 4 }));
        expect(err, name).toMatchObject({
          code: "ZARR_STORE",
          status: 206,
          key: "k",
          message: expect.stringContaining("(Range: bytes=2-5) answered with"),
        });
      }
    });

    it("a server ignoring Range: the whole body is sliced", async () => {
      const { session, store } = await setup({ values: holding(), ignoreRange: true });
      expect(await store.getRange("k", { offset: 4, length: 5 })).toEqual(value.slice(4, 9));
      expect(await store.getRange("k", { suffixLength: 3 })).toEqual(value.slice(-3));
      expect(await store.getRange("k", { offset: 100 })).toEqual(new Uint8Array(0));
      const log = await requests(session);
      expect(log.map((r) => `${r.status} ${r.headers.range}`)).toEqual([
        "200 bytes=4-8",
        "200 bytes=-3",
        "200 bytes=100-",
      ]);
    });
  });

  describe("HTML pages", () => {
    const html = respond(
      200,
      { "content-type": "text/html; charset=utf-8" },
      new TextEncoder().encode("<!doctype html><p>Not found</p>"),
    );

    it("are errors by default (a server answering missing paths with a page)", async () => {
      const { session, store } = await setup({ faults: [always(html)] });
      const err = await rejection(store.get("a/0.0"));
      expect(err).toMatchObject({ code: "ZARR_STORE", status: 200, key: "a/0.0" });
      expect(err.message).toBe(
        `GET ${session.url}root/a/0.0 answered 200 with an HTML page (Content-Type text/html; charset=utf-8) instead of the value of "a/0.0": the server may answer missing paths with a page (pass { rejectHtml: false } to accept HTML values)`,
      );
      await expect(store.getRange("a/0.0", { offset: 0, length: 2 })).rejects.toMatchObject({
        status: 200,
        message: expect.stringContaining("HTML page"),
      });
      expect(await requests(session)).toHaveLength(2);
    });

    it("are values with rejectHtml: false", async () => {
      const { store } = await setup({ faults: [always(html)] }, { rejectHtml: false });
      expect(new TextDecoder().decode(await store.get("index.html"))).toContain("Not found");
    });
  });

  describe("missing keys and writes", () => {
    it("404 is missing; 403 is an error unless missingStatuses says otherwise (S3)", async () => {
      const { store } = await setup({
        faults: [
          always(
            respond(
              403,
              { "content-type": "application/xml" },
              new TextEncoder().encode("<Error><Code>AccessDenied</Code></Error>"),
            ),
          ),
        ],
      });
      await expect(store.get("k")).rejects.toMatchObject({ status: 403 });
      const s3 = new HttpStore(store.url, { missingStatuses: [403, 404] });
      expect(await s3.get("k")).toBeUndefined();
      expect(await s3.getRange("k", { suffixLength: 4 })).toBeUndefined();
      expect(() => new HttpStore(store.url, { missingStatuses: [200] })).toThrow(
        "invalid missingStatuses: 200 is not a 4xx status",
      );
      const plain = (await setup({})).store;
      expect(await plain.get("k")).toBeUndefined();
      expect(await plain.getRange("k", { offset: 1, length: 2 })).toBeUndefined();
    });

    it("PUT and DELETE against a server that allows them", async () => {
      const { session, store } = await setup({ writable: true }, { writable: true });
      await store.set("a/0.0", value);
      expect(await store.get("a/0.0")).toEqual(value);
      expect(await store.getRange("a/0.0", { offset: 4, length: 5 })).toEqual(value.slice(4, 9));
      await store.delete("a/0.0");
      await store.delete("a/0.0"); // a missing key is fine
      expect(await store.get("a/0.0")).toBeUndefined();
      expect((await requests(session)).map((r) => `${r.method} ${r.status}`)).toEqual([
        "PUT 201",
        "GET 200",
        "GET 206",
        "DELETE 204",
        "DELETE 404",
        "GET 404",
      ]);
    });

    it("a server refusing writes gives an HttpStoreError; a read-only store refuses without asking", async () => {
      const { session, store } = await setup({ values: holding() }, { writable: true });
      await expect(store.set("k", value)).rejects.toMatchObject({
        code: "ZARR_STORE",
        status: 405,
        method: "PUT",
        key: "k",
        message: `PUT ${session.url}root/k failed: 405 Method Not Allowed`,
      });
      await expect(store.delete("k")).rejects.toMatchObject({ status: 405, method: "DELETE" });
      const readOnly = new HttpStore(store.url);
      await expect(readOnly.set("k", value)).rejects.toMatchObject({
        code: "ZARR_STORE",
        key: "k",
        message: `cannot write "k": the HttpStore at ${store.url.href} is read-only (pass { writable: true } to PUT and DELETE)`,
      });
      await expect(readOnly.delete("k")).rejects.toMatchObject({ message: expect.stringContaining("is read-only") });
      expect((await requests(session)).map((r) => r.method)).toEqual(["PUT", "DELETE"]);
      expect(await readOnly.get("k")).toEqual(value);
    });

    it("a failing PUT is an error; deleting a missing key is fine", async () => {
      const { store } = await setup(
        {
          faults: [
            { methods: ["DELETE"], action: respond(404) },
            { methods: ["PUT"], action: respond(409) },
          ],
        },
        { writable: true },
      );
      await store.delete("k");
      await expect(store.set("k", value)).rejects.toMatchObject({
        status: 409,
        method: "PUT",
        message: expect.stringMatching(/^PUT .*\/root\/k failed: 409 Conflict$/),
      });
    });
  });

  describe("stalls, timeouts and aborts", () => {
    const stall: Fault = always({ stall: true });

    it("an attempt that takes longer than `timeout` is abandoned and retried, then an error", async () => {
      // Without the timeout the stalled request would never end (the test's timeout would fail it).
      // How many of the attempts reached the server in 150 ms is the machine's load, not the store's.
      const { store } = await setup({ faults: [stall] }, { timeout: 150, retries: 1 });
      const err = await rejection(store.get("k"));
      expect(err.message).toMatch(/failed after 2 attempts: no complete response within 150 ms \(timeout\)$/);
    });

    it("a body that stalls halfway times out too", async () => {
      const { store } = await setup(
        { values: holding(), faults: [always({ truncate: { bytes: 10, then: "stall" } })] },
        { timeout: 150, retries: 0 },
      );
      await expect(store.get("k")).rejects.toMatchObject({
        message: expect.stringMatching(/^GET .* failed: no complete response within 150 ms \(timeout\)$/),
      });
    });

    it("the caller's signal aborts a stalled request at once, with the signal's reason, and no retry", async () => {
      // No timeout: without the abort the request would never end (the test's timeout would fail it).
      const { session, store } = await setup({ faults: [stall] }, { timeout: 0 });
      const controller = new AbortController();
      const pending = store.get("k", { signal: controller.signal });
      await logged(session, (log) => log.length === 1);
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: "AbortError" });
      const reason = new Error("user went away");
      await expect(store.getRange("k", { offset: 0 }, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
      expect(await requests(session)).toHaveLength(1);
    });

    it("the caller's signal aborts a body that stalls halfway, with the signal's reason", async () => {
      const { session, store } = await setup(
        { values: holding(), faults: [always({ truncate: { bytes: 10, then: "stall" } })] },
        { timeout: 0 },
      );
      const reason = new Error("user went away");
      const controller = new AbortController();
      const pending = store.get("k", { signal: controller.signal });
      await logged(session, (log) => log[0]?.bytes === 10);
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      expect((await requests(session)).map((r) => r.bytes)).toEqual([10]);
    });

    it("the caller's signal aborts the wait for a free slot, and the request is never sent", async () => {
      const { session, store } = await setup(
        { values: holding(), faults: [on([1], { stall: true })] },
        { concurrency: 1, timeout: 0 },
      );
      const firstController = new AbortController();
      const first = store.get("k", { signal: firstController.signal }).catch((err: unknown) => err);
      const reason = new Error("no longer needed");
      const controller = new AbortController();
      const second = store.get("k", { signal: controller.signal });
      // The first holds the one slot, stalled at the server; the second waits for it.
      await logged(session, (log) => log.length === 1);
      controller.abort(reason);
      await expect(second).rejects.toBe(reason);
      const gone = new Error("the first too");
      firstController.abort(gone);
      expect(await first).toBe(gone);
      // The slot is free again: a third request goes out and is answered.
      expect(await store.get("k")).toEqual(value);
      expect((await requests(session)).map((r) => r.status)).toEqual([0, 200]);
    });

    it("the caller's signal aborts the wait between retries", async () => {
      // A 30 s wait: without the abort the test's timeout would fail it.
      const { session, store } = await setup(
        { faults: [always(respond(503, { "retry-after": "30" }))] },
        { maxRetryDelay: 30_000 },
      );
      const controller = new AbortController();
      const reason = new Error("no longer needed");
      const pending = store.get("k", { signal: controller.signal });
      await logged(session, (log) => log[0]?.status === 503);
      controller.abort(reason);
      await expect(pending).rejects.toBe(reason);
      expect(await requests(session)).toHaveLength(1);
    });
  });

  describe("requests", () => {
    it("keeps at most `concurrency` requests in flight", async () => {
      // The server answers once three requests are in flight at once, however slowly a loaded
      // machine sends them, then holds each answer a while, so that a fourth would overlap too.
      const keys = Array.from({ length: 9 }, (_, i) => `c/${i}`);
      const { session, store } = await setup(
        { values: holding(...keys.map((key) => `/root/${key}`)), overlap: 3, delay: 50 },
        { concurrency: 3 },
      );
      const values = await Promise.all(keys.map((key) => store.get(key)));
      expect(values).toEqual(keys.map(() => value));
      expect((await session.log()).maxInFlight).toBe(3);
    });

    it("sends custom headers, keeps the base URL's query, and encodes keys", async () => {
      const session = await pool.open({ faults: [always(respond(200, {}, value))] });
      const store = new HttpStore(`${session.url}base/path?token=abc%20def`, {
        headers: { authorization: "Bearer xyz", "x-extra": "1" },
      });
      expect(await store.get("with space/a#b?c%")).toEqual(value);
      const [request] = await requests(session);
      expect(request!.path).toBe("/base/path/with%20space/a%23b%3Fc%25?token=abc%20def");
      expect(request!.headers).toMatchObject({ authorization: "Bearer xyz", "x-extra": "1" });
      expect(store.keyUrl("a/0.0").href).toBe(`${session.url}base/path/a/0.0?token=abc%20def`);
    });

    it("takes headers as a record, pairs or Headers, as fetch does: names in any case, repeats joined", async () => {
      const session = await pool.open({ faults: [always(respond(200, {}, value))] });
      const forms: HeadersInit[] = [
        { "X-A": " 1 ", "x-b": "2" },
        [
          ["X-A", "1"],
          ["x-b", "2"],
        ],
        new Headers({ "X-A": "1", "x-b": "2" }),
      ];
      for (const headers of forms) expect(await new HttpStore(session.url, { headers }).get("k")).toEqual(value);
      expect(
        await new HttpStore(session.url, {
          headers: [
            ["x-a", "1"],
            ["X-A", "2"],
          ],
        }).get("k"),
      ).toEqual(value);
      const sent = (await requests(session)).map((r) => `${r.headers["x-a"]}|${r.headers["x-b"]}`);
      expect(sent).toEqual(["1|2", "1|2", "1|2", "1, 2|undefined"]);
    });

    it(`sends with ${transport.name}`, async () => {
      const { session, store } = await setup({ values: holding() });
      const spy = vi.spyOn(globalThis, "fetch");
      try {
        expect(await store.get("k")).toEqual(value);
        expect(await store.getRange("k", { offset: 1, length: 2 })).toEqual(value.slice(1, 3));
        const fetched = spy.mock.calls.filter(([input]) => String(input).startsWith(session.url));
        expect(fetched).toHaveLength(transport.name === "fetch" ? 2 : 0);
      } finally {
        spy.mockRestore();
      }
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
      expect(() => new HttpStore("http://x/", { headers: { "bad name": "1" } })).toThrow(
        'invalid HTTP option headers: "bad name": "1" is not a valid header',
      );
      expect(() => new HttpStore("http://x/", { headers: { x: "a\r\nb: c" } })).toThrow("invalid HTTP option headers");
      const store = new HttpStore("http://x/");
      return expect(store.getRange("k", { offset: -1 })).rejects.toMatchObject({
        code: "ZARR_STORE",
        message: expect.stringContaining("offset must be a non-negative integer"),
      });
    });
  });
}
