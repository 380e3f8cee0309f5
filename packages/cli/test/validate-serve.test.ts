import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRange } from "../src/commands/serve.js";
import { FIXTURES, fixtureCopy, run, STORE } from "./helpers.js";

describe("zarr validate", () => {
  it("passes a store zarr-python wrote", async () => {
    expect(await run(["validate", STORE])).toEqual({ code: 0, out: "ok: 12 arrays, 3 groups, 44 chunks checked; 0 errors, 0 warnings\n", err: "" });
  });

  it("reports each problem with its key and fails", async () => {
    const store = await fixtureCopy();
    await writeFile(join(store, "grp/a/0.0"), "not zlib");
    await writeFile(join(store, "c/0.0"), new Uint8Array(3));
    await writeFile(join(store, "b/.zattrs"), "[1, 2]");
    await writeFile(join(store, "u/.zarray"), '{"zarr_format": 2}');
    await writeFile(join(store, "grp/a/9.9"), "outside");
    await writeFile(join(store, "grp/a/notes.txt"), "hello");
    await writeFile(join(store, "stray"), "x");
    await mkdir(join(store, "orphan/deep"), { recursive: true });
    await writeFile(join(store, "orphan/deep/.zgroup"), '{"zarr_format": 2}');
    const { code, out } = await run(["validate", store]);
    expect(code).toBe(1);
    const lines = out.trim().split("\n");
    expect(lines.slice(0, -1)).toEqual([
      expect.stringMatching(/^error: b\/\.zattrs: "b\/\.zattrs" must hold a JSON object/),
      expect.stringMatching(/^error: c\/0\.0: .*(gzip|decode|chunk c\/0\.0)/),
      expect.stringMatching(/^error: grp\/a\/0\.0: .*/),
      "warning: grp/a/9.9: chunk outside the grid of \"grp/a\" (shape [10, 12], chunks [4, 5])",
      "warning: grp/a/notes.txt: not a chunk key of array \"grp/a\"",
      'warning: orphan/deep/.zgroup: its parent "orphan" is not a group',
      "warning: stray: belongs to no array (not inside an array's directory)",
      expect.stringMatching(/^error: u\/\.zarray: "u\/\.zarray" misses the required field "shape"/),
    ]);
    expect(lines.at(-1)).toBe("FAILED: 12 arrays, 4 groups, 42 chunks checked; 4 errors, 4 warnings");
  });

  it("warnings fail only with --strict", async () => {
    const store = await fixtureCopy();
    await writeFile(join(store, "stray"), "x");
    expect((await run(["validate", store])).code).toBe(0);
    expect((await run(["validate", store, "--strict"])).code).toBe(1);
  });

  it("decodes zarr-python's default blosc chunks", async () => {
    expect(await run(["validate", join(FIXTURES, "store-blosc")])).toMatchObject({ code: 0, out: "ok: 1 arrays, 0 groups, 2 chunks checked; 0 errors, 0 warnings\n" });
  });

  it("reports arrays whose codecs this build lacks", async () => {
    const store = await fixtureCopy("store-blosc");
    const zarray = join(store, ".zarray");
    await writeFile(zarray, (await readFile(zarray, "utf8")).replace('"id": "blosc"', '"id": "nope"'));
    const { code, out } = await run(["validate", store]);
    expect(code).toBe(1);
    expect(out).toMatch(/^error: \.zarray: cannot decode this array's chunks: unknown codec "nope"/);
  });

  it("reports stale consolidated metadata", async () => {
    const store = await fixtureCopy();
    expect((await run(["consolidate", store])).code).toBe(0);
    expect((await run(["validate", store])).code).toBe(0);
    expect((await run(["attrs", "set", store, "--path", "grp/a", "units", '"km"'])).code).toBe(0);
    await rm(join(store, "grp/sub"), { recursive: true });
    const { code, out } = await run(["validate", store, "--json"]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as { ok: boolean; problems: { level: string; key: string; message: string }[] };
    expect(report.ok).toBe(false);
    expect(report.problems.map((p) => p.message)).toEqual([
      'stale: it has "grp/sub/.zgroup", which the store does not (run `zarr consolidate`)',
      'stale: its "grp/a/.zattrs" differs from grp/a/.zattrs (run `zarr consolidate`)',
    ]);
    expect(report.problems.every((p) => p.key === ".zmetadata" && p.level === "error")).toBe(true);
  });
});

describe("zarr serve", () => {
  async function serving(args: string[], test: (base: string) => Promise<void>): Promise<string> {
    const controller = new AbortController();
    let resolveUrl: (url: string) => void;
    const url = new Promise<string>((resolve) => (resolveUrl = resolve));
    const done = run(["serve", STORE, ...args], { signal: controller.signal, onOut: (text) => resolveUrl(/http:\/\/\S+/.exec(text)![0]) });
    try {
      await test(await url);
    } finally {
      controller.abort();
    }
    const result = await done;
    expect(result.code).toBe(0);
    return result.out;
  }

  it("serves keys with Range support, 404s and CORS until aborted", async () => {
    const out = await serving([], async (base) => {
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const zarray = await fetch(`${base}grp/a/.zarray`);
      expect(zarray.status).toBe(200);
      expect(zarray.headers.get("access-control-allow-origin")).toBe("*");
      expect(zarray.headers.get("accept-ranges")).toBe("bytes");
      const full = await zarray.text();
      expect(JSON.parse(full)).toMatchObject({ shape: [10, 12] });
      const part = await fetch(`${base}grp/a/.zarray`, { headers: { Range: "bytes=2-6" } });
      expect(part.status).toBe(206);
      expect(part.headers.get("content-range")).toBe(`bytes 2-6/${full.length}`);
      expect(await part.text()).toBe(full.slice(2, 7));
      const suffix = await fetch(`${base}grp/a/.zarray`, { headers: { Range: "bytes=-3" } });
      expect(await suffix.text()).toBe(full.slice(-3));
      const open = await fetch(`${base}grp/a/.zarray`, { headers: { Range: "bytes=10-" } });
      expect(await open.text()).toBe(full.slice(10));
      const beyond = await fetch(`${base}grp/a/.zarray`, { headers: { Range: "bytes=100000-" } });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get("content-range")).toBe(`bytes */${full.length}`);
      expect((await fetch(`${base}nested/1/0`)).status).toBe(200);
      expect((await fetch(`${base}grp/a/3.0`)).status).toBe(404);
      expect((await fetch(`${base}missing/.zarray`)).status).toBe(404);
      expect((await fetch(`${base}`)).status).toBe(404);
      expect((await fetch(`${base}grp/a/.zarray`, { method: "PUT", body: "x" })).status).toBe(405);
      expect((await fetch(`${base}grp%5C..%5C..%5Cx`)).status).toBe(400); // keys that could leave the store
      const head = await fetch(`${base}grp/a/.zarray`, { method: "HEAD" });
      expect(head.headers.get("content-length")).toBe(String(full.length));
      const preflight = await fetch(`${base}grp/a/.zarray`, { method: "OPTIONS" });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-headers")).toBe("Range");
    });
    expect(out).toMatch(/^serving .* \(Ctrl-C stops\)\n$/);
  });

  it("serves a node as the root with --path", async () => {
    await serving(["--path", "grp"], async (base) => {
      expect((await fetch(`${base}a/.zarray`)).status).toBe(200);
      expect((await fetch(`${base}b/.zarray`)).status).toBe(404);
    });
  });

  it("parses byte ranges as RFC 9110 says", () => {
    expect(parseRange("bytes=0-0", 10)).toEqual([0, 0]);
    expect(parseRange("bytes=5-100", 10)).toEqual([5, 9]);
    expect(parseRange("bytes=-100", 10)).toEqual([0, 9]);
    expect(parseRange("bytes=-0", 10)).toBe("unsatisfiable");
    expect(parseRange("bytes=10-", 10)).toBe("unsatisfiable");
    expect(parseRange("bytes=5-2", 10)).toBeUndefined();
    expect(parseRange("bytes=0-1,3-4", 10)).toBeUndefined();
    expect(parseRange("items=0-1", 10)).toBeUndefined();
  });

  it("fails cleanly when the port is taken", async () => {
    await serving([], async (base) => {
      const port = new URL(base).port;
      const result = await run(["serve", STORE, "--port", port]);
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/cannot listen on 127\.0\.0\.1:\d+: the port is in use/);
    });
  });
});
