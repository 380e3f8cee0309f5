import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, group, MemoryStore, parseLocation, type ZarrArray } from "@z/core";
import { openArrayPath, openGroupPath, openLocation, openPath } from "@z/core/node";
import { DirectoryStore, fileByteSource, TempStore } from "@z/store-fs";
import { HttpStore, httpLocations } from "@z/store-http";
import { ZipStore } from "@z/store-zip";

describe("parsing locations", () => {
  it("tells directories, zip files and URLs apart, with TensorStore-style pipelines", () => {
    expect(parseLocation("data/x.zarr")).toEqual({ kind: "directory", path: "data/x.zarr", node: "" });
    expect(parseLocation("file:///data/x.zarr|zarr2:a/b")).toEqual({
      kind: "directory",
      path: "/data/x.zarr",
      node: "a/b",
    });
    expect(parseLocation("/tmp/x.zip|zarr2:g")).toEqual({ kind: "zip", file: "/tmp/x.zip", remote: false, node: "g" });
    expect(parseLocation("https://h/x.zip|zip:inner|zarr2:a")).toEqual({
      kind: "zip",
      file: "https://h/x.zip",
      remote: true,
      node: "inner/a",
    });
    expect(parseLocation("/data/x.zarr|zarr3:a/b")).toEqual({ kind: "directory", path: "/data/x.zarr", node: "a/b" });
    expect(parseLocation("http://h/data.zarr|zarr:a%20b")).toEqual({
      kind: "http",
      url: "http://h/data.zarr",
      node: "a b",
    });
  });

  it("names what is wrong with a bad location", () => {
    expect(() => parseLocation("")).toThrow(expect.objectContaining({ code: "ZARR_LOCATION" }));
    expect(() => parseLocation("gs://bucket/x")).toThrow(/unsupported URL scheme/);
    expect(() => parseLocation("x.zarr|n5:a")).toThrow(/unknown part "n5:a"/);
    expect(() => parseLocation("x.zarr|zarr2:../a")).toThrow(/bad path/);
  });
});

describe("opening locations", () => {
  const temp = new TempStore();
  let server: Server;
  let base = "";
  const requests: string[] = [];
  const headers: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    // A directory hierarchy, and the same hierarchy in a zip file.
    const root = await group({ store: temp, path: "dir.zarr" });
    const a = await root.createDataset("g/a", {
      shape: [6],
      chunks: [4],
      dtype: "<i2",
      compressor: { id: "zlib", level: 1 },
    });
    await a.set(undefined, { data: new Int16Array([1, 2, 3, 4, 5, 6]), shape: [6] });
    const file = await fileByteSource(join(temp.root, "data.zip"), { writable: true });
    const zip = await ZipStore.open(file, { mode: "w" });
    for (const key of await temp.list("dir.zarr/"))
      await zip.set(key.slice("dir.zarr/".length), (await temp.get(key))!);
    await zip.close();
    await file.close();
    // A server that answers range requests for the zip, and logs what it was asked.
    const bytes = await readFile(join(temp.root, "data.zip"));
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.headers.range ?? "all"}`);
      headers.push(req.headers);
      // The directory hierarchy too, as a static server has it.
      if (req.url?.startsWith("/dir.zarr/")) {
        readFile(join(temp.root, decodeURIComponent(req.url))).then(
          (file) => res.writeHead(200, { "content-length": file.length }).end(file),
          () => res.writeHead(404).end(),
        );
        return;
      }
      const match = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
      if (req.method === "HEAD") return res.writeHead(200, { "content-length": bytes.length }).end();
      if (!match) return res.writeHead(200, { "content-length": bytes.length }).end(bytes);
      const [start, end] = [Number(match[1]), Math.min(Number(match[2]), bytes.length - 1)];
      res.writeHead(206, {
        "content-range": `bytes ${start}-${end}/${bytes.length}`,
        "content-length": end - start + 1,
      });
      res.end(bytes.subarray(start, end + 1));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await temp.close();
  });

  const values = async (z: ZarrArray): Promise<number[]> => Array.from((await z.get()).data as Int16Array);

  it("opens a directory, with the node path from the URL", async () => {
    const z = await openArrayPath(`file://${temp.root}/dir.zarr|zarr2:g/a`, { mode: "r" });
    expect(await values(z)).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await openGroupPath(join(temp.root, "dir.zarr"), { mode: "r" })).name).toBe("/");
  });

  it("opens a local zip file", async () => {
    const z = (await openPath(`${join(temp.root, "data.zip")}|zarr2:g/a`, { mode: "r" })) as ZarrArray;
    expect(await values(z)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("reads a remote zip with range requests, never downloading it whole", async () => {
    requests.length = 0;
    const z = await openArrayPath(`${base}/data.zip|zarr2:g/a`, { mode: "r" });
    expect(await values(z)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((r) => r.endsWith(" all") && !r.startsWith("HEAD"))).toEqual([]);
  });

  it("opens a hierarchy over http(s), with @z/store-http imported by itself", async () => {
    const opened = await openLocation(`${base}/dir.zarr|zarr2:g/a`);
    expect(opened.store).toBeInstanceOf(HttpStore);
    expect(await values(await openArrayPath(`${base}/dir.zarr|zarr2:g/a`, { mode: "r" }))).toEqual([1, 2, 3, 4, 5, 6]);
    expect((await openLocation(join(temp.root, "dir.zarr"))).store).toBeInstanceOf(DirectoryStore);
  });

  it("uses the openers it is given, and finds only the others", async () => {
    // A remote zip with HTTP options of the caller's: openZip still comes from @z/store-zip.
    headers.length = 0;
    const z = await openArrayPath(`${base}/data.zip|zarr2:g/a`, {
      mode: "r",
      ...httpLocations({ headers: { "x-caller": "yes" } }),
    });
    expect(await values(z)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(headers.length).toBeGreaterThan(0);
    expect(headers.every((h) => h["x-caller"] === "yes")).toBe(true);
    // A directory opener of the caller's replaces @z/store-fs's.
    const mine = new MemoryStore();
    const opened = await openLocation(join(temp.root, "dir.zarr"), { openDirectory: () => mine });
    expect(opened.store).toBe(mine);
  });

  it("writes through a local zip opened for writing", async () => {
    const opened = await openLocation(join(temp.root, "new.zip"), { writable: true });
    await create({ store: opened.store, shape: [2], compressor: null, dtype: "u1" });
    await opened.close();
    const z = (await openPath(join(temp.root, "new.zip"), { mode: "r" })) as ZarrArray;
    expect(await values(z)).toEqual([0, 0]);
  });
});
