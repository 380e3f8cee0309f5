import { afterEach, describe, expect, it } from "vitest";
import { HttpByteSource, HttpStoreError } from "@z/store-http";
import { sessionPool, toBase64, type FaultAction } from "../../../../scripts/test-server/client.js";
import type { TransportUnderTest } from "./transport.js";

/** `@z/store-zip`'s ByteSource, restated: HttpByteSource must fit it (store-http cannot import store-zip). */
interface ByteSource {
  size(options?: { signal?: AbortSignal }): Promise<number>;
  read(offset: number, length: number, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
}

const pool = sessionPool();

const file = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) % 251);
const values = { "/archive.zip": toBase64(file) };
const respond = (status: number, headers: Record<string, string> = {}, body = new Uint8Array(0)): FaultAction => ({
  respond: { status, headers, bodyBase64: toBase64(body) },
});
const shown = (requests: { method: string; headers: Record<string, string> }[]) =>
  requests.map((r) => `${r.method} ${r.headers.range ?? ""}`.trim());

export function byteSourceSuite({ name }: TransportUnderTest): void {
  afterEach(() => pool.endAll());

  describe(`HttpByteSource over ${name}`, () => {
    it("learns the size with one HEAD and reads exactly the ranges asked for", async () => {
      const session = await pool.open({ values });
      const source: ByteSource = new HttpByteSource(`${session.url}archive.zip`, { retryDelay: 1 });
      expect(await source.size()).toBe(100_000);
      expect(await source.size()).toBe(100_000);
      expect(await source.read(99_990, 10)).toEqual(file.slice(99_990));
      expect(await source.read(1234, 4321)).toEqual(file.slice(1234, 1234 + 4321));
      expect(await source.read(5, 0)).toEqual(new Uint8Array(0));
      const { requests } = await session.log();
      expect(shown(requests)).toEqual(["HEAD", "GET bytes=99990-99999", "GET bytes=1234-5554"]);
      expect(requests.map((r) => r.bytes)).toEqual([0, 10, 4321]);
    });

    it("falls back to a one-byte range request when HEAD is refused", async () => {
      const session = await pool.open({ values, faults: [{ methods: ["HEAD"], action: respond(405) }] });
      const source = new HttpByteSource(`${session.url}archive.zip`);
      expect(await source.size()).toBe(100_000);
      expect(shown((await session.log()).requests)).toEqual(["HEAD", "GET bytes=0-0"]);
    });

    it("tolerates a server ignoring Range by slicing the whole body", async () => {
      const session = await pool.open({ values, ignoreRange: true });
      const source = new HttpByteSource(`${session.url}archive.zip`);
      expect(await source.read(10, 5)).toEqual(file.slice(10, 15));
      await expect(source.read(99_999, 5)).rejects.toMatchObject({
        message: expect.stringContaining("fewer than the 100004 needed"),
      });
    });

    it("a missing file, an HTML page or a wrong range is an HttpStoreError", async () => {
      const missing = await pool.open();
      const err = await new HttpByteSource(`${missing.url}f`).read(0, 10).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpStoreError);
      expect(err).toMatchObject({
        code: "ZARR_STORE",
        status: 404,
        message: `GET ${missing.url}f failed: 404 Not Found`,
      });
      await expect(new HttpByteSource(`${missing.url}f`).size()).rejects.toMatchObject({ status: 404 });

      const html = await pool.open({
        faults: [{ action: respond(200, { "content-type": "text/html" }, new TextEncoder().encode("<html>")) }],
      });
      await expect(new HttpByteSource(`${html.url}f`).read(0, 3)).rejects.toMatchObject({
        message: expect.stringContaining("HTML page"),
      });

      const wrong = await pool.open({
        faults: [{ action: respond(206, { "content-range": "bytes 0-9/100" }, new Uint8Array(10)) }],
      });
      await expect(new HttpByteSource(`${wrong.url}f`).read(5, 10)).rejects.toMatchObject({
        status: 206,
        message: expect.stringContaining("answered Range: bytes=5-14 with"),
      });
    });

    it("retries a 503 and a cut-short range, then reads the right bytes", async () => {
      const session = await pool.open({
        values,
        faults: [
          { requests: [1], action: respond(503) },
          { requests: [2], action: { truncate: { bytes: 3, then: "close" } } },
        ],
      });
      const source = new HttpByteSource(`${session.url}archive.zip`, { retryDelay: 1 });
      expect(await source.read(50_000, 100)).toEqual(file.slice(50_000, 50_100));
      expect((await session.log()).requests.map((r) => r.status)).toEqual([503, 200, 206]);
    });
  });
}
