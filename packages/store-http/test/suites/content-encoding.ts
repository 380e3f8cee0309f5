import { afterEach, describe, expect, it } from "vitest";
import { always, pool, rejection, requests, respond, setup, value } from "./helpers.js";
import type { TransportUnderTest } from "./transport.js";

// A server may send a value compressed for the trip (Content-Encoding): it is decoded, as fetch
// decodes it, whatever the transport. Ranges are asked for unencoded, since they count stored bytes.

const compressed = async (format: "gzip" | "deflate", bytes: Uint8Array) =>
  new Uint8Array(
    await new Response(
      new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream(format)),
    ).arrayBuffer(),
  );

export function contentEncodingSuite({ name }: TransportUnderTest): void {
  afterEach(() => pool.endAll());

  describe(`Content-Encoding over ${name}`, () => {
    it("gzip and deflate bodies are decoded", async () => {
      for (const coding of ["gzip", "deflate"] as const) {
        const { session, store } = await setup({
          faults: [always(respond(200, { "content-encoding": coding }, await compressed(coding, value)))],
        });
        expect(await store.get("k"), coding).toEqual(value);
        expect((await requests(session))[0]!.headers["accept-encoding"]).toMatch(/\bgzip\b/);
      }
    });

    it("a Range request asks for the bytes as stored", async () => {
      const { session, store } = await setup({
        faults: [always(respond(206, { "content-range": "bytes 0-3/20" }, value.subarray(0, 4)))],
      });
      expect(await store.getRange("k", { offset: 0, length: 4 })).toEqual(value.subarray(0, 4));
      // Node's fetch adds its own "identity" to a Range request's (the Fetch standard says to append it).
      expect((await requests(session))[0]!.headers["accept-encoding"]).toMatch(/^identity(, identity)?$/);
    });

    it("a body that does not decode is retried, then an error", async () => {
      const { session, store } = await setup(
        { faults: [always(respond(200, { "content-encoding": "gzip" }, value))] },
        { retries: 1 },
      );
      const err = await rejection(store.get("k"));
      expect(err).toMatchObject({
        code: "ZARR_STORE",
        key: "k",
        message: expect.stringMatching(/^GET .* failed after 2 attempts: network error/),
      });
      expect(await requests(session)).toHaveLength(2);
    });
  });
}
