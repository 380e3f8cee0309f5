// STORE as a zip file, an http(s) URL and a TensorStore URL. test/fixtures/store.zip is zarr-python's
// ZipStore holding a copy of test/fixtures/store (test/python/zip_fixtures.py), so what zarr-python
// says about the directory (store-expected.json) holds for the zip too.

import { readFileSync } from "node:fs";
import { readFile, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocation } from "@z/core/node";
import { isListable, type ByteSource } from "@z/meta";
import { fileByteSource } from "@z/store-fs";
import { parseRange } from "../src/commands/serve.js";
import { FIXTURES, run, STORE, tempDir } from "./helpers.js";

const ZIP = join(FIXTURES, "store.zip");

interface Expected {
  gets: { path: string; selection: string; repr: string; json: string }[];
  digests: Record<string, string>;
  tree: string;
  tree_grp: string;
  npy: Record<string, { path: string; selection: string }>;
}
const expected = JSON.parse(readFileSync(join(FIXTURES, "store-expected.json"), "utf8")) as Expected;

async function ok(args: string[]): Promise<string> {
  const result = await run(args);
  expect(result.code, `zarr ${args.join(" ")}: ${result.err}`).toBe(0);
  return result.out;
}

/** Every key and value of a store, through @z/core's own opening of locations. */
async function contents(location: string): Promise<Map<string, string>> {
  const files: { close(): Promise<void> }[] = [];
  const file = async (path: string): Promise<ByteSource> => {
    const source = await fileByteSource(path);
    files.push(source);
    return source;
  };
  const { store } = await openLocation(location, { openFile: file });
  const out = new Map<string, string>();
  if (!isListable(store)) throw new Error(`${location} cannot list`);
  for (const key of (await store.list()).sort()) out.set(key, Buffer.from((await store.get(key))!).toString("hex"));
  await Promise.all(files.map((f) => f.close())); // ZipStore.close() leaves its byte source open
  return out;
}

describe("a zip file zarr-python wrote", () => {
  it("zarr tree draws what zarr-python's Group.tree() draws", async () => {
    expect(await ok(["tree", ZIP])).toBe(`${expected.tree}\n`);
    expect(await ok(["tree", ZIP, "--path", "grp"])).toBe(`${expected.tree_grp}\n`);
  });

  it("zarr get prints what numpy prints, for every selection", async () => {
    for (const g of expected.gets) {
      const args = ["get", ZIP, "--path", g.path, ...(g.selection === "" ? [] : [g.selection])];
      expect(await ok(args), args.join(" ")).toBe(`${g.repr}\n`);
    }
    const g = expected.gets.find((x) => x.path === "grp/a" && x.selection === "2:5,::3")!;
    expect(await ok(["get", ZIP, "--path", "grp/a", "2:5,::3", "--json"])).toBe(g.json);
  });

  it("zarr info describes it as the directory, and digest and validate agree", async () => {
    for (const path of ["", "grp", "grp/a", "s", "big"]) {
      const flags = path === "" ? [] : ["--path", path];
      expect(await ok(["info", ZIP, ...flags, "--json"])).toBe(await ok(["info", STORE, ...flags, "--json"]));
      expect(await ok(["info", ZIP, ...flags])).toBe(
        (await ok(["info", STORE, ...flags])).replace("DirectoryStore", "ZipStore"),
      );
    }
    expect(await ok(["digest", ZIP, "--path", "grp/a"])).toBe(`${expected.digests["grp/a"]}\n`);
    expect(await ok(["validate", ZIP])).toMatch(/^ok: 12 arrays, 3 groups/);
  });

  it("zarr export writes the .npy file numpy saves", async () => {
    const dir = await tempDir();
    for (const [name, { path, selection }] of Object.entries(expected.npy)) {
      const out = join(dir, `${name}.npy`);
      await ok(["export", ZIP, "--path", path, "--out", out, ...(selection === "" ? [] : ["--selection", selection])]);
      expect(
        Buffer.compare(await readFile(out), await readFile(join(FIXTURES, "store-npy", `${name}.npy`))),
        name,
      ).toBe(0);
    }
  });

  it("takes a TensorStore URL naming a node inside the zip", async () => {
    const url = `${pathToFileURL(ZIP).href}|zarr2:grp`;
    const g = expected.gets.find((x) => x.path === "grp/a" && x.selection === "-3:,1:11:4")!;
    expect(await ok(["get", url, "--path", "a", "-3:,1:11:4"])).toBe(`${g.repr}\n`);
    expect(await ok(["get", `${pathToFileURL(ZIP).href}|zip:grp|zarr2:a`, "-3:,1:11:4"])).toBe(`${g.repr}\n`);
    expect(await ok(["tree", url])).toBe(`${expected.tree_grp}\n`);
  });
});

describe("writing zip files", () => {
  it("zarr import into a new .zip, then more writes into it", async () => {
    const zip = join(await tempDir(), "new.zip");
    await ok([
      "import",
      join(FIXTURES, "store-npy", "grp-a.npy"),
      zip,
      "--path",
      "x/a",
      "--chunks",
      "3,5",
      "--attrs",
      '{"units": "m"}',
    ]);
    const g = expected.gets.find((x) => x.path === "grp/a" && x.selection === "")!;
    expect(await ok(["get", zip, "--path", "x/a"])).toBe(`${g.repr}\n`);
    await ok(["create", zip, "--path", "y", "--shape", "4", "--dtype", "<i2", "--fill-value", "7"]);
    await ok(["attrs", "set", zip, "--path", "y", "scale", "2.0"]);
    await ok(["resize", zip, "--path", "x/a", "--shape", "4,12"]);
    await ok(["consolidate", zip]);
    expect(await ok(["tree", zip])).toBe("/\n ├── x\n │   └── a (4, 12) int32\n └── y (4,) int16\n");
    expect(await ok(["get", zip, "--path", "y"])).toBe("array([7, 7, 7, 7], dtype=int16)\n");
    expect(await ok(["attrs", "get", zip, "--path", "y"])).toBe('{\n    "scale": 2.0\n}\n');
    expect(await ok(["validate", zip])).toMatch(/^ok: 2 arrays, 2 groups, 6 chunks checked; 0 errors, 0 warnings/);
    // what @z/core reads from the file by itself (so the central directory was written)
    const keys = [...(await contents(zip)).keys()];
    expect(keys).toEqual([
      ".zgroup",
      ".zmetadata",
      "x/.zgroup",
      "x/a/.zarray",
      "x/a/.zattrs",
      "x/a/0.0",
      "x/a/0.1",
      "x/a/0.2",
      "x/a/1.0",
      "x/a/1.1",
      "x/a/1.2",
      "y/.zarray",
      "y/.zattrs",
    ]);
  });

  it("zarr copy of a directory into a zip holds what zarr-python's copy_store put into store.zip", async () => {
    const zip = join(await tempDir(), "out.zip");
    const { err } = await run(["copy", STORE, zip]);
    expect(err).toBe(`copied 61 keys (6774 bytes) to ${zip}\n`);
    expect(await contents(zip)).toEqual(await contents(ZIP));
    expect(await ok(["digest", zip])).toBe(await ok(["digest", STORE]));
    // and back out of a zip, into another one at a path
    await ok(["copy", ZIP, zip, "--path", "grp", "--dest-path", "copied/grp"]);
    expect(await ok(["digest", zip, "--path", "copied/grp"])).toBe(await ok(["digest", STORE, "--path", "grp"]));
    expect((await run(["copy", ZIP, zip, "--path", "grp", "--dest-path", "copied/grp"])).code).toBe(1);
    await ok(["copy", STORE, zip, "--path", "nested", "--dest-path", "copied/grp", "--overwrite"]);
    expect(await ok(["tree", zip, "--path", "copied"])).toBe("copied\n └── grp (4, 4) float32\n");
  });

  it("a write that fails before writing leaves no empty zip behind", async () => {
    const zip = join(await tempDir(), "never.zip");
    expect((await run(["copy", STORE, zip, "--path", "no/such/node"])).code).toBe(1);
    await expect(stat(zip)).rejects.toThrow(/ENOENT/);
  });

  it("refuses to read a file that is not a zip", async () => {
    const bad = join(await tempDir(), "bad.zip");
    await writeFile(bad, "not a zip at all");
    expect(await run(["tree", bad])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^zarr tree: .*bad\.zip is not a readable zip file/),
    });
  });
});

describe("http(s) URLs", () => {
  /** Starts `zarr serve` in this process; returns its URL and a way to stop it. */
  async function serve(store: string): Promise<{ url: string; stop: () => Promise<void> }> {
    const controller = new AbortController();
    let found: (url: string) => void;
    const started = new Promise<string>((resolve) => (found = resolve));
    const done = run(["serve", store], {
      signal: controller.signal,
      onOut: (text) => void (/http:\/\/\S+/.exec(text) && found(/http:\/\/\S+/.exec(text)![0])),
    });
    const url = await Promise.race([started, done.then((r) => Promise.reject(new Error(`serve ended: ${r.err}`)))]);
    return {
      url,
      stop: async () => {
        controller.abort();
        expect((await done).code).toBe(0);
      },
    };
  }

  it("zarr get and info read a directory that zarr serve serves", async () => {
    const server = await serve(STORE);
    try {
      for (const g of expected.gets.filter((x) => ["grp/a", "s", "t", "u"].includes(x.path))) {
        const args = ["get", server.url, "--path", g.path, ...(g.selection === "" ? [] : [g.selection])];
        expect(await ok(args), args.join(" ")).toBe(`${g.repr}\n`);
      }
      const g = expected.gets.find((x) => x.path === "nested" && x.selection === "1:3")!;
      expect(await ok(["get", `${server.url}|zarr2:nested`, "1:3"])).toBe(`${g.repr}\n`);
      expect(await ok(["info", server.url, "--path", "grp/a"])).toMatch(
        /^Name +: \/grp\/a\n[\s\S]*Store type +: HttpStore\n/,
      );
      expect(await run(["get", server.url, "--path", "nope"])).toMatchObject({
        code: 1,
        err: expect.stringMatching(/no array or group at path "nope"/),
      });
      expect(await run(["attrs", "set", server.url, "a", "1"])).toMatchObject({
        code: 2,
        err: expect.stringMatching(/HTTP stores are read-only/),
      });
    } finally {
      await server.stop();
    }
  });

  it("zarr serve serves a zip file", async () => {
    const server = await serve(ZIP);
    try {
      const g = expected.gets.find((x) => x.path === "big" && x.selection === "::7,::9")!;
      expect(await ok(["get", `${server.url}|zarr2:big`, "::7,::9"])).toBe(`${g.repr}\n`);
      const response = await fetch(`${server.url}grp/a/.zarray`, { headers: { Range: "bytes=0-0" } });
      expect([response.status, await response.text()]).toEqual([206, "{"]);
    } finally {
      await server.stop();
    }
  });

  describe("a zip file on a web server, read with range requests", () => {
    let server: Server;
    let base: string;
    const zip = readFileSync(ZIP);
    beforeAll(async () => {
      server = createServer((request, response) => {
        if (request.url !== "/data/store.zip") {
          response.writeHead(404).end();
          return;
        }
        const range = request.headers.range === undefined ? undefined : parseRange(request.headers.range, zip.length);
        if (range === "unsatisfiable") {
          response.writeHead(416, { "Content-Range": `bytes */${zip.length}` }).end();
          return;
        }
        const body = range === undefined ? zip : zip.subarray(range[0], range[1] + 1);
        const headers: Record<string, string> = { "Accept-Ranges": "bytes", "Content-Length": String(body.length) };
        if (range !== undefined) headers["Content-Range"] = `bytes ${range[0]}-${range[1]}/${zip.length}`;
        response.writeHead(range === undefined ? 200 : 206, headers);
        response.end(request.method === "HEAD" ? undefined : body);
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("zarr tree, get and digest through a TensorStore URL", async () => {
      expect(await ok(["tree", `${base}/data/store.zip`])).toBe(`${expected.tree}\n`);
      const g = expected.gets.find((x) => x.path === "grp/a" && x.selection === "...,-1")!;
      expect(await ok(["get", `${base}/data/store.zip|zarr2:grp/a`, "...,-1"])).toBe(`${g.repr}\n`);
      expect(await ok(["digest", `${base}/data/store.zip|zarr2:grp/a`])).toBe(`${expected.digests["grp/a"]}\n`);
      expect(await run(["get", `${base}/data/missing.zip`])).toMatchObject({ code: 1 });
    });
  });
});
