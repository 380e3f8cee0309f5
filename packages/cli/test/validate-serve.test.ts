import { execFileSync, spawnSync } from "node:child_process";
import { cp, mkdir, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRange } from "../src/commands/serve.js";
import { FIXTURES, fixtureCopy, run, serving as servingStore, STORE, tempDir } from "./helpers.js";

describe("zarr validate", () => {
  it("passes a store zarr-python wrote", async () => {
    expect(await run(["validate", STORE])).toEqual({
      code: 0,
      out: "ok: 12 arrays, 3 groups, 44 chunks checked; 0 errors, 0 warnings\n",
      err: "",
    });
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
      'warning: grp/a/9.9: chunk outside the grid of "grp/a" (shape [10, 12], chunks [4, 5])',
      'warning: grp/a/notes.txt: not a chunk key of array "grp/a"',
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
    expect(await run(["validate", join(FIXTURES, "store-blosc")])).toMatchObject({
      code: 0,
      out: "ok: 1 arrays, 0 groups, 2 chunks checked; 0 errors, 0 warnings\n",
    });
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

describe("zarr validate: temporary files of killed writes", () => {
  const HEX = "0123456789abcdef0123456789abcdef";
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const hasZarrPython = spawnSync("/usr/bin/python3", ["-c", "import zarr"], { stdio: "ignore" }).status === 0;
  /** zarr-python's nchunks_initialized of the arrays grp/a and nested (chunk keys "i/j") in the store at `root`. */
  const nchunks = (root: string): number[] => {
    const script = `
import json, sys, zarr
a = zarr.open_array(zarr.DirectoryStore(sys.argv[1]), path="grp/a", mode="r")
n = zarr.open_array(zarr.DirectoryStore(sys.argv[1], dimension_separator="/"), path="nested", mode="r")
print(json.dumps([a.nchunks_initialized, n.nchunks_initialized]))`;
    return JSON.parse(execFileSync("/usr/bin/python3", ["-c", script, root], { encoding: "utf8" })) as number[];
  };

  it("reports them in both namings, and --fix removes those a minute old, only them, saying which", async () => {
    const store = await fixtureCopy();
    const chunksBefore = hasZarrPython ? nchunks(store) : [];
    const stale = {
      // z's naming, in the array's directory; zarr-python's (and z's before), next to the chunk;
      // z's for metadata; zarr-python's in a numbered directory of a nested array.
      ours: `grp/a/.0.0.${HEX}.partial`,
      zarrPython: `grp/a/1.1.${HEX}.partial`,
      metadata: `grp/..zattrs.${HEX}.partial`,
      nested: `nested/0/1.${HEX}.partial`,
    };
    const young = `grp/a/.1.2.${HEX}.partial`;
    for (const name of Object.values(stale)) {
      await writeFile(join(store, name), "half");
      await utimes(join(store, name), minutesAgo(2), minutesAgo(2));
    }
    await writeFile(join(store, young), "in progress");
    const files = async () => (await readdirRecursive(store)).sort();
    const before = await files();
    // zarr-python counts zarr-python's naming as chunks; z's naming it does not.
    if (hasZarrPython) expect(nchunks(store)).toEqual([chunksBefore[0]! + 1, chunksBefore[1]! + 1]);

    const report = await run(["validate", store]);
    expect(report.code).toBe(0);
    const lines = report.out.trim().split("\n");
    expect(lines.filter((line) => line.includes("temporary file"))).toEqual([
      expect.stringMatching(
        /^warning: grp\/\.\.zattrs\.[0-9a-f]{32}\.partial: temporary file left by a write killed part way \(4 bytes, last written .*Z\); zarr validate --fix removes it$/,
      ),
      expect.stringMatching(
        /^warning: grp\/a\/\.0\.0\.[0-9a-f]{32}\.partial: temporary file left by a write killed part way/,
      ),
      expect.stringMatching(
        /^warning: grp\/a\/\.1\.2\.[0-9a-f]{32}\.partial: temporary file of a write in progress, or of one killed less than 60 s ago \(11 bytes\); --fix leaves it until then$/,
      ),
      expect.stringMatching(
        /^warning: grp\/a\/1\.1\.[0-9a-f]{32}\.partial: temporary file left by a write killed part way/,
      ),
      expect.stringMatching(
        /^warning: nested\/0\/1\.[0-9a-f]{32}\.partial: temporary file left by a write killed part way/,
      ),
    ]);
    expect(lines.at(-1)).toBe("ok: 12 arrays, 3 groups, 44 chunks checked; 0 errors, 5 warnings");
    expect((await run(["validate", store, "--strict"])).code).toBe(1);
    expect(await files()).toEqual(before);

    const fixed = await run(["validate", store, "--fix"]);
    expect(fixed.code).toBe(0);
    expect(fixed.out.trim().split("\n")).toEqual([
      `removed: ${stale.metadata}: temporary file of a killed write (4 bytes)`,
      `removed: ${stale.ours}: temporary file of a killed write (4 bytes)`,
      `removed: ${stale.zarrPython}: temporary file of a killed write (4 bytes)`,
      `removed: ${stale.nested}: temporary file of a killed write (4 bytes)`,
      expect.stringMatching(/^warning: grp\/a\/\.1\.2\.[0-9a-f]{32}\.partial: temporary file of a write in progress/),
      "ok: 12 arrays, 3 groups, 44 chunks checked; 0 errors, 1 warning; removed 4 temporary files",
    ]);
    expect(await files()).toEqual(before.filter((name) => !Object.values(stale).includes(name)));
    if (hasZarrPython) expect(nchunks(store)).toEqual(chunksBefore);
    const json = JSON.parse((await run(["validate", store, "--fix", "--json"])).out) as {
      removed: string[];
      problems: { key: string }[];
    };
    expect(json.removed).toEqual([]);
    expect(json.problems.map((p) => p.key)).toEqual([young]);
  }, 30_000);

  it("--path limits them to the hierarchy below it", async () => {
    const store = await fixtureCopy();
    for (const name of [`grp/a/.0.0.${HEX}.partial`, `b/.0.${HEX}.partial`]) {
      await writeFile(join(store, name), "half");
      await utimes(join(store, name), minutesAgo(2), minutesAgo(2));
    }
    const { out } = await run(["validate", store, "--path", "grp", "--fix"]);
    expect(out).toContain(`removed: grp/a/.0.0.${HEX}.partial: temporary file of a killed write (4 bytes)`);
    expect(out).not.toContain("b/.0.");
    expect(await readdirRecursive(join(store, "b"))).toContain(`.0.${HEX}.partial`);
  });

  it("reports and removes the working copy a killed write to a zip file left beside it", async () => {
    const dir = await tempDir();
    const zip = join(dir, "store.zip");
    await cp(join(FIXTURES, "store.zip"), zip);
    const copy = join(dir, `.store.zip.${HEX}.partial`);
    const other = join(dir, `.other.zip.${HEX}.partial`); // another file's: not this store's
    for (const path of [copy, other]) {
      await cp(zip, path);
      await utimes(path, minutesAgo(5), minutesAgo(5));
    }
    const { out } = await run(["validate", zip]);
    expect(out).toContain(`warning: ${copy}: temporary file left by a write killed part way`);
    expect(out).not.toContain(other);
    const fixed = await run(["validate", zip, "--fix"]);
    expect(fixed.out).toMatch(
      new RegExp(`^removed: ${copy.replaceAll(".", "\\.")}: temporary file of a killed write \\(\\d+ bytes\\)\n`),
    );
    expect((await readdirRecursive(dir)).sort()).toEqual([`.other.zip.${HEX}.partial`, "store.zip"]);
  });
});

/** The files under `root`, relative and `/`-separated. */
async function readdirRecursive(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) =>
      relative(root, join(entry.parentPath ?? entry.path, entry.name))
        .split(sep)
        .join("/"),
    );
}

describe("zarr serve", () => {
  async function serving(args: string[], test: (base: string) => Promise<void>): Promise<string> {
    const result = await servingStore(STORE, args, test);
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

  it("streams a directory's files whole and in ranges, empty ones too", async () => {
    const store = await fixtureCopy();
    const big = new Uint8Array(3 << 20).map((_, i) => (i * 7 + (i >> 12)) & 255);
    await writeFile(join(store, "big-value"), big);
    await writeFile(join(store, "empty"), new Uint8Array(0));
    // compared as Buffers: toEqual walks a typed array element by element, slowly
    const same = (bytes: ArrayBuffer, expected: Uint8Array) => Buffer.from(bytes).equals(expected);
    const result = await servingStore(store, [], async (base) => {
      expect(same(await (await fetch(`${base}big-value`)).arrayBuffer(), big)).toBe(true);
      const part = await fetch(`${base}big-value`, { headers: { Range: "bytes=1000000-2999999" } });
      expect(part.headers.get("content-range")).toBe(`bytes 1000000-2999999/${big.length}`);
      expect(same(await part.arrayBuffer(), big.subarray(1_000_000, 3_000_000))).toBe(true);
      const tail = await fetch(`${base}big-value`, { headers: { Range: "bytes=-5" } });
      expect(new Uint8Array(await tail.arrayBuffer())).toEqual(big.subarray(-5));
      const empty = await fetch(`${base}empty`);
      expect([empty.status, empty.headers.get("content-length"), await empty.text()]).toEqual([200, "0", ""]);
      expect((await fetch(`${base}empty`, { headers: { Range: "bytes=0-" } })).status).toBe(416);
      expect((await fetch(`${base}big-value`, { method: "HEAD" })).headers.get("content-length")).toBe(
        String(big.length),
      );
    });
    expect(result.code).toBe(0);
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
