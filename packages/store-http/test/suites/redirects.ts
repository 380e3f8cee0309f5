import { afterEach, describe, expect, it } from "vitest";
import { HttpStore } from "@z/store-http";
import type { Session } from "../../../../scripts/test-server/client.js";
import { always, holding, on, pool, rejection, requests, respond, setup, value } from "./helpers.js";
import type { TransportUnderTest } from "./transport.js";

// Redirects are followed as fetch follows them (`redirect: "follow"`), whatever the transport.

export function redirectsSuite({ name }: TransportUnderTest): void {
  afterEach(() => pool.endAll());

  describe(`redirects over ${name}`, () => {
    it("a GET follows 301, 302, 307 and 308 to a relative Location", async () => {
      for (const status of [301, 302, 307, 308]) {
        const { session, store } = await setup({
          values: holding("/root/moved/k"),
          faults: [on([1], respond(status, { location: "moved/k" }))],
        });
        expect(await store.get("k"), String(status)).toEqual(value);
        expect((await requests(session)).map((r) => `${r.status} ${r.path}`)).toEqual([
          `${status} /root/k`,
          "200 /root/moved/k",
        ]);
      }
    });

    it("a Range request keeps its Range on the way", async () => {
      const { session, store } = await setup({
        values: holding("/elsewhere/k"),
        faults: [on([1], respond(302, { location: "../elsewhere/k" }))],
      });
      expect(await store.getRange("k", { offset: 4, length: 5 })).toEqual(value.slice(4, 9));
      expect((await requests(session)).map((r) => `${r.status} ${r.path} ${r.headers.range}`)).toEqual([
        "302 /root/k bytes=4-8",
        "206 /elsewhere/k bytes=4-8",
      ]);
    });

    it("credentials stay with their origin: Authorization is not sent on to another one", async () => {
      // The same server under another name is another origin.
      const target = await pool.open({ values: holding("/root/k2") });
      const elsewhere = `${target.url.replace("127.0.0.1", "localhost")}root/k2`;
      const source = await pool.open({
        values: holding("/root/k2"),
        faults: [on([1], respond(302, { location: elsewhere })), on([2], respond(302, { location: "k2" }))],
      });
      const store = new HttpStore(`${source.url}root/`, { headers: { authorization: "Bearer xyz" }, retryDelay: 1 });
      expect(await store.get("k")).toEqual(value);
      expect(await store.get("k")).toEqual(value);
      const shown = async (session: Session) =>
        (await requests(session)).map((r) => `${r.status} ${r.path} ${r.headers.authorization ?? "-"}`);
      expect(await shown(target)).toEqual(["200 /root/k2 -"]);
      expect(await shown(source)).toEqual([
        "302 /root/k Bearer xyz",
        "302 /root/k Bearer xyz",
        "200 /root/k2 Bearer xyz",
      ]);
    });

    it("a redirect without Location is the answer (an error)", async () => {
      const { session, store } = await setup({ faults: [always(respond(302))] });
      const err = await rejection(store.get("k"));
      expect(err).toMatchObject({
        code: "ZARR_STORE",
        status: 302,
        message: `GET ${session.url}root/k failed: 302 Found`,
      });
    });

    it("more than 20 redirects is a network error, retried like one", async () => {
      const { session, store } = await setup({ faults: [always(respond(302, { location: "k" }))] }, { retries: 0 });
      const err = await rejection(store.get("k"));
      expect(err).toMatchObject({
        code: "ZARR_STORE",
        status: undefined,
        message: expect.stringMatching(/^GET .* failed: network error: /),
      });
      expect(await requests(session)).toHaveLength(21);
    });
  });
}
