import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { differingBytes, percentile } from "../load/clients.mjs";
import { makeValues } from "../load/dataset.mjs";
import { startFaultProxy } from "../load/fault-proxy.mjs";
import { formatTable, runLoad } from "../load/load.mjs";

// The load test's short form (apps/bench/load/, `pnpm load` for the full one): 8 clients for 3 s
// through the fault proxy (20 ms added, one response in 100 cut mid-body). It asserts only what
// must hold however loaded the machine: no error after the clients' retries, no wrong byte.
// Requests per second, latencies and memory are printed, never asserted.

describe("load test, short form", () => {
  const values = makeValues({ count: 64 });
  for (const backend of ["http", "s3"] as const) {
    it(`${backend}: 8 clients for 3 s read every byte right, with no error`, async () => {
      const result = await runLoad({ backend, clients: 8, seconds: 3, slowClients: 2, values });
      console.log(formatTable([result]));
      expect(result.firstErrors).toEqual([]);
      expect(result.errors).toBe(0);
      expect(result.wrongBytes).toBe(0);
      expect(result.operations).toBeGreaterThan(0);
      // the faults were injected: responses were cut, and the clients got past them
      expect(result.proxy.responses).toBeGreaterThanOrEqual(result.operations);
    }, 120_000);
  }
});

describe("load test helpers", () => {
  it("the fault proxy cuts every n-th successful response mid-body, and only those", async () => {
    const body = Buffer.alloc(1000, 1);
    const upstream = createServer((req, res) => {
      if (req.url === "/missing") res.writeHead(404, { "content-length": 7 }).end("missing");
      else res.writeHead(200, { "content-length": body.length }).end(body);
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const proxy = await startFaultProxy({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      delayMs: 0,
      cutEvery: 3,
    });
    try {
      const lengths: (number | string)[] = [];
      for (const path of ["/a", "/missing", "/b", "/c", "/d", "/e", "/f"]) {
        const response = await fetch(proxy.url + path);
        lengths.push(
          await response.arrayBuffer().then(
            (b) => b.byteLength,
            () => "cut",
          ),
        );
      }
      // the 404 is not counted; the 3rd and 6th successful responses are cut
      expect(lengths).toEqual([1000, 7, 1000, "cut", 1000, 1000, "cut"]);
      expect(proxy.stats()).toEqual({ responses: 7, cut: 2, upstreamErrors: 0 });
    } finally {
      await proxy.close();
      await new Promise((resolve) => upstream.close(resolve));
    }
  });

  it("counts differing bytes, a length difference byte by byte", () => {
    const a = Uint8Array.of(1, 2, 3, 4);
    expect(differingBytes(a, a)).toBe(0);
    expect(differingBytes(Uint8Array.of(1, 9, 3, 4), a)).toBe(1);
    expect(differingBytes(Uint8Array.of(1, 2), a)).toBe(2);
    expect(differingBytes(undefined, undefined)).toBe(0);
    expect(differingBytes(undefined, a)).toBe(4);
    expect(differingBytes(a, undefined)).toBe(4);
  });

  it("takes percentiles by nearest rank", () => {
    const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
  });

  it("makes the same values from the same seed", () => {
    const a = makeValues({ seed: 3, count: 4 });
    const b = makeValues({ seed: 3, count: 4 });
    expect([...a.keys()]).toEqual(["chunks/0", "chunks/1", "chunks/2", "chunks/3"]);
    for (const [key, bytes] of a) expect(differingBytes(b.get(key), bytes)).toBe(0);
    expect(differingBytes(makeValues({ seed: 4, count: 1 }).get("chunks/0"), a.get("chunks/0"))).toBeGreaterThan(0);
  });
});
