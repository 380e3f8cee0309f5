// The viewer page end to end: build it (build.mjs), write datasets with zarr-python, serve both from
// one node:http server (CORS, Range), and drive Debian's headless Chromium with playwright.
//
// The page is loaded from http://127.0.0.1:PORT and reads the data from http://data.test:PORT, which
// Chromium maps to the same server (--host-resolver-rules): the data is cross-origin, as on the web,
// so CORS is exercised, and /nocors/ (the same files without CORS headers) shows a CORS failure.
//
// S3: the test starts its own loopback S3 server (scripts/test-s3/: s3rver behind a SigV4 check), in
// the mode where each bucket's own CORS configuration decides cross-origin requests, as on S3. The
// example dataset is uploaded with credentials into a bucket whose CORS configuration allows GET
// and HEAD from any origin; the page reads it anonymously as s3://bucket/example.zarr from the
// endpoint http://s3.test:PORT (another name for 127.0.0.1, so addressed path-style, as the viewer
// addresses any custom endpoint).
import { execFileSync, execSync, spawnSync } from "node:child_process";
import {
  createReadStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { consolidateMetadata, create, MemoryStore, openArray, openGroup } from "@z/core";
import { S3Store } from "@z/store-s3";
import { openDataset, toZarr } from "@z/xarray";
import { chromium, type Browser, type Page } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3_TEST_CREDENTIALS } from "../../../scripts/test-s3/client.js";
import { type SpawnedS3Server, spawnS3Server } from "../../../scripts/test-s3/spawn.js";
import { colormapTable } from "../src/colormaps.js";
import { MissingToolError, requireTool } from "../../../scripts/test-child/tools.js";
import { refsPython } from "../../../packages/store-reference/test/fixtures.js";

const app = fileURLToPath(new URL("..", import.meta.url));
// Kept after the run for a look, in a directory of this run's own: another checkout's viewer test
// writing the same file at the same time would leave this one a file half written.
let screenshotDir: string | undefined;
const screenshots = (): string => (screenshotDir ??= mkdtempSync(join(tmpdir(), "z-viewer-screenshots-")));
const repo = resolve(app, "../..");
const python = "/usr/bin/python3";
const hasZarr = spawnSync(python, ["-c", "import zarr"], { stdio: "ignore" }).status === 0;

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

interface Expected {
  shape: [number, number, number];
  nanAt: [number, number];
  slices: { p2: number; p98: number }[];
  /** xarray's reading of climate.zarr, when xarray is installed (null otherwise). */
  climate: {
    shape: [number, number, number];
    slices: (number | null)[][][];
    percentiles: [number, number][];
    nanAt: [number, number];
  } | null;
}

/** Every request the server saw, as its path. */
const requests: string[] = [];

/** Serves `/` from dist and `/data/…` (with CORS) and `/nocors/…` (without) from the data directory. */
function serve(dist: string, data: string): Promise<Server> {
  const types: Record<string, string> = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".map": "application/json",
  };
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push(path);
    const cors = !path.startsWith("/nocors/");
    if (cors) {
      res.setHeader("Access-Control-Allow-Origin", "*");
      res.setHeader("Access-Control-Allow-Headers", "Range");
      res.setHeader("Access-Control-Expose-Headers", "Content-Range, Content-Length, Accept-Ranges");
    }
    if (req.method === "OPTIONS") {
      res.setHeader("Access-Control-Allow-Methods", "GET, HEAD");
      res.writeHead(204).end();
      return;
    }
    const [base, rest] = path.startsWith("/data/")
      ? [data, path.slice(6)]
      : path.startsWith("/nocors/")
        ? [data, path.slice(8)]
        : [dist, path === "/" ? "index.html" : path.slice(1)];
    const file = resolve(base, rest);
    let size: number;
    try {
      if (!file.startsWith(base + sep) || !statSync(file).isFile()) throw new Error("not a file");
      size = statSync(file).size;
    } catch {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    res.setHeader("Content-Type", types[extname(file)] ?? "application/octet-stream");
    res.setHeader("Accept-Ranges", "bytes");
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    if (range && (range[1] !== "" || range[2] !== "")) {
      const [start, end] =
        range[1] === ""
          ? [Math.max(0, size - Number(range[2])), size - 1]
          : [Number(range[1]), range[2] === "" ? size - 1 : Math.min(Number(range[2]), size - 1)];
      if (start > end || start >= size) {
        res.writeHead(416, { "Content-Range": `bytes */${size}` }).end();
        return;
      }
      res.writeHead(206, { "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": end - start + 1 });
      if (req.method === "HEAD") res.end();
      else createReadStream(file, { start, end }).pipe(res);
      return;
    }
    res.writeHead(200, { "Content-Length": size });
    if (req.method === "HEAD") res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

/** A bucket's CORS configuration as S3 takes it: anonymous GET and HEAD from any origin, with Range. */
const PUBLIC_READ_CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>Content-Range</ExposeHeader>
    <ExposeHeader>Content-Length</ExposeHeader>
    <ExposeHeader>ETag</ExposeHeader>
  </CORSRule>
</CORSConfiguration>`;

/** Creates `bucket` on the test S3 server (s3rver lets anonymous requests do it), with `cors` as its CORS configuration. */
async function createS3Bucket(endpoint: string, bucket: string, cors?: string): Promise<void> {
  for (const [url, body] of [
    [`${endpoint}/${bucket}`, undefined],
    ...(cors ? [[`${endpoint}/${bucket}?cors`, cors]] : []),
  ]) {
    const response = await fetch(url as string, { method: "PUT", body });
    if (!response.ok) throw new Error(`PUT ${url}: ${response.status} ${await response.text()}`);
  }
}

/** Uploads every file under `dir` into `bucket` under `prefix` (signed requests, as a data owner would). */
async function uploadDirectory(endpoint: string, bucket: string, prefix: string, dir: string): Promise<void> {
  const store = new S3Store({ bucket, prefix, endpoint, credentials: S3_TEST_CREDENTIALS, environment: {} });
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  for (const file of files) {
    const path = join(file.parentPath, file.name);
    await store.set(relative(dir, path).split(sep).join("/"), new Uint8Array(readFileSync(path)));
  }
}

/** A read-only store over a directory zarr-python wrote (what opening a consolidated group needs). */
const directoryReader = (root: string): Parameters<typeof openArray>[0] => ({
  async get(key: string) {
    try {
      return new Uint8Array(readFileSync(join(root, key)));
    } catch {
      return undefined;
    }
  },
});

/** Writes every key of `store` as a file under `dir`. */
async function writeStore(store: MemoryStore, dir: string): Promise<void> {
  for (const key of await store.list("")) {
    const path = join(dir, ...key.split("/"));
    mkdirSync(resolve(path, ".."), { recursive: true });
    writeFileSync(path, (await store.get(key))!);
  }
}

/**
 * Zarr v3 copies of the datasets, written by z: example-v3.zarr (volume and labels/mask as v3
 * arrays, bytes + gzip, no consolidated metadata), example-v3c.zarr (the same, consolidated inline
 * in the root zarr.json) and, when xarray wrote climate.zarr, climate-v3.zarr (that dataset written
 * as xarray on zarr-python 3 writes it, by @z/xarray's toZarr).
 */
async function writeV3Copies(dir: string): Promise<void> {
  const example = directoryReader(join(dir, "example.zarr"));
  for (const [name, consolidated] of [
    ["example-v3.zarr", false],
    ["example-v3c.zarr", true],
  ] as const) {
    const store = new MemoryStore();
    await openGroup(store, { mode: "w", zarrFormat: 3 });
    for (const path of ["volume", "labels/mask"]) {
      const v2 = await openArray(example, { path, mode: "r" });
      const v3 = await create({
        zarrFormat: 3,
        store,
        path,
        shape: v2.shape,
        chunks: v2.chunks,
        dtype: v2.dtype,
        fillValue: v2.fillValue as never,
        compressors: [{ name: "gzip", configuration: { level: 5 } }],
      });
      await v3.set("...", (await v2.get()) as never);
    }
    if (consolidated) await consolidateMetadata(store);
    await writeStore(store, join(dir, name));
  }
  if (statSync(join(dir, "climate.zarr"), { throwIfNoEntry: false }) === undefined) return;
  const climate = new MemoryStore();
  await toZarr(await openDataset(directoryReader(join(dir, "climate.zarr"))), climate, { zarrFormat: 3 });
  await writeStore(climate, join(dir, "climate-v3.zarr"));
}

describe("viewer page in headless Chromium", () => {
  requireTool("zarr-python", hasZarr);
  let dir: string;
  let server: Server;
  let browser: Browser;
  let page: Page;
  let expected: Expected;
  let pageUrl: string;
  let dataUrl: string;
  let s3: SpawnedS3Server;
  let s3Endpoint: string;
  const bucket = "viewer-public";
  const noCorsBucket = "viewer-no-cors";
  const pageErrors: string[] = [];

  beforeAll(async () => {
    execSync("bash scripts/ensure-chromium.sh", { cwd: repo, stdio: "inherit" });
    execFileSync(process.execPath, ["build.mjs"], { cwd: app, stdio: "pipe" });
    dir = mkdtempSync(join(tmpdir(), "z-viewer-test-"));
    expected = JSON.parse(
      execFileSync(python, [join(app, "test/make_dataset.py"), dir], { encoding: "utf8" }),
    ) as Expected;
    await writeV3Copies(dir);
    server = await serve(join(app, "dist"), dir);
    const { port } = server.address() as AddressInfo;
    pageUrl = `http://127.0.0.1:${port}/`;
    dataUrl = `http://data.test:${port}`;
    s3 = await spawnS3Server({ bucketCors: true });
    await createS3Bucket(s3.endpoint, bucket, PUBLIC_READ_CORS);
    await createS3Bucket(s3.endpoint, noCorsBucket);
    for (const name of [bucket, noCorsBucket]) {
      await uploadDirectory(s3.endpoint, name, "example.zarr", join(dir, "example.zarr"));
      await uploadDirectory(s3.endpoint, name, "plain.zarr", join(dir, "plain.zarr"));
    }
    s3Endpoint = `http://s3.test:${new URL(s3.endpoint).port}`;
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [...FLAGS, "--host-resolver-rules=MAP data.test 127.0.0.1, MAP s3.test 127.0.0.1"],
    });
    page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    page.on("pageerror", (error) => pageErrors.push(String(error)));
  });

  afterAll(async () => {
    await browser?.close();
    await s3?.close();
    await new Promise((done) => (server ? server.close(done) : done(undefined)));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const open = async (query: Record<string, string>): Promise<void> => {
    await page.goto(`${pageUrl}?${new URLSearchParams(query)}`);
    await page.waitForSelector("body[data-state=ready], body[data-state=error]");
  };
  const state = () => page.evaluate(() => document.body.dataset.state);
  const messages = () => page.locator("#message").textContent();

  /** RGBA of canvas pixels at [y, x]. */
  const pixels = (at: [number, number][]) =>
    page.evaluate((points) => {
      const canvas = document.getElementById("image") as HTMLCanvasElement;
      const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
      return points.map(([y, x]) => Array.from(data.slice((y * canvas.width + x) * 4, (y * canvas.width + x) * 4 + 4)));
    }, at);

  const value = (k: number, y: number, x: number): number => k * 1000 + y * expected.shape[2] + x;
  const grayLevel = (v: number, low: number, high: number): number =>
    Math.round(Math.min(1, Math.max(0, (v - low) / (high - low))) * 255);
  const points: [number, number][] = [
    [0, 0],
    [0, 31],
    [7, 20],
    [12, 16],
    [23, 0],
    [23, 31],
  ];
  const volumeChunkReads = () => requests.filter((path) => /\/data\/example\.zarr\/volume\/\d+\.\d+\.\d+$/.test(path));

  it("lists the hierarchy from .zmetadata", async () => {
    await open({ url: `${dataUrl}/data/example.zarr` });
    expect(await state()).toBe("ready");
    const paths = await page
      .locator("#hierarchy button")
      .evaluateAll((buttons) => buttons.map((b) => (b as HTMLElement).dataset.path));
    expect(paths).toEqual(["", "labels", "labels/mask", "volume"]);
    expect(await page.locator("#hierarchy").textContent()).toContain("[3,24,32] <f4 blosc");
    // Listing reads the consolidated metadata and nothing else: no per-node metadata document, no
    // chunk. The root's zarr.json is asked first (where a v3 group's would be, as zarr-python 3 looks).
    expect(requests.filter((p) => p.startsWith("/data/example.zarr/"))).toEqual([
      "/data/example.zarr/zarr.json",
      "/data/example.zarr/.zmetadata",
    ]);
  });

  it("draws slice 0 of the blosc array through viridis with 2nd/98th percentile limits", async () => {
    requests.length = 0;
    await page.locator('#hierarchy button[data-path="volume"]').click();
    await page.waitForSelector('#image[data-slice="0"]');
    await page.waitForSelector("body[data-state=ready]");
    expect(new URL(page.url()).searchParams.get("path")).toBe("volume");
    // One get of [0, :, :] reads exactly the four chunks of slice 0.
    expect(volumeChunkReads().sort()).toEqual(
      ["0.0.0", "0.0.1", "0.1.0", "0.1.1"].map((c) => `/data/example.zarr/volume/${c}`),
    );
    const [width, height] = await page.evaluate(() => [
      (document.getElementById("image") as HTMLCanvasElement).width,
      (document.getElementById("image") as HTMLCanvasElement).height,
    ]);
    expect([height, width]).toEqual(expected.shape.slice(1));

    const low = Number(await page.inputValue("#low"));
    const high = Number(await page.inputValue("#high"));
    expect(low).toBeCloseTo(expected.slices[0]!.p2, 4);
    expect(high).toBeCloseTo(expected.slices[0]!.p98, 4);

    const viridis = colormapTable("viridis");
    const rgb = (i: number) => [viridis[i * 3], viridis[i * 3 + 1], viridis[i * 3 + 2], 255];
    const got = await pixels([...points, expected.nanAt]);
    // The ends of viridis (#440154 below the low limit, #fde725 above the high one) …
    expect(got[0]).toEqual([0x44, 0x01, 0x54, 255]);
    expect(got[5]).toEqual([0xfd, 0xe7, 0x25, 255]);
    // … and in between the colour of the value's place between the limits.
    points.forEach(([y, x], i) => expect(got[i]).toEqual(rgb(grayLevel(value(0, y, x), low, high))));
    // NaN is transparent.
    expect(got[6]![3]).toBe(0);
  });

  it("uses the chosen colormap and contrast limits, and the slider shows the next slice", async () => {
    await page.selectOption("#colormap", "gray");
    await page.fill("#low", "0");
    await page.fill("#high", "2767");
    const low = 0;
    const high = 2767;
    const gray = (k: number) =>
      points.map(([y, x]) => {
        const level = grayLevel(value(k, y, x), low, high);
        return [level, level, level, 255];
      });
    expect(await pixels(points)).toEqual(gray(0));

    requests.length = 0;
    await page.locator("#sliders input[type=range]").focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForSelector('#image[data-slice="1"]');
    await page.waitForSelector("body[data-state=ready]");
    expect(await page.locator("#sliders").textContent()).toContain("axis 0: 1 / 2");
    expect(await pixels(points)).toEqual(gray(1));
    expect(gray(1)).not.toEqual(gray(0));
    expect(volumeChunkReads().sort()).toEqual(
      ["1.0.0", "1.0.1", "1.1.0", "1.1.1"].map((c) => `/data/example.zarr/volume/${c}`),
    );
    // The limits stay as set while moving through slices.
    expect(await page.inputValue("#high")).toBe("2767");

    // Back to viridis with the shown slice's percentiles, for the screenshot.
    await page.selectOption("#colormap", "viridis");
    await page.click("#auto-percentile");
    expect(Number(await page.inputValue("#low"))).toBeCloseTo(expected.slices[1]!.p2, 3);
    expect(Number(await page.inputValue("#high"))).toBeCloseTo(expected.slices[1]!.p98, 3);
    const screenshot = join(screenshots(), "z-viewer-screenshot.png");
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`viewer screenshot (example.zarr/volume, slice 1, viridis): ${screenshot}`);
    expect(statSync(screenshot).size).toBeGreaterThan(1000);
  });

  it("opens an array URL directly (no .zmetadata there) and draws it", async () => {
    await open({ url: `${dataUrl}/data/example.zarr/labels/mask`, cmap: "gray" });
    expect(await state()).toBe("ready");
    await page.waitForSelector('#image[data-slice=""]');
    expect(await page.locator("#hierarchy").textContent()).toContain("/ (array)");
    // mask = (y * 32 + x) % 3 in 0..2, limits 0..2 (its 2nd/98th percentiles).
    expect(await page.inputValue("#low")).toBe("0");
    expect(await page.inputValue("#high")).toBe("2");
    expect(
      await pixels([
        [0, 0],
        [0, 1],
        [0, 2],
      ]),
    ).toEqual([
      [0, 0, 0, 255],
      [128, 128, 128, 255],
      [255, 255, 255, 255],
    ]);
  });

  it("explains that a group without .zmetadata cannot be listed, and opens a member by path", async () => {
    await open({ url: `${dataUrl}/data/plain.zarr` });
    expect(await state()).toBe("ready");
    expect(await messages()).toContain("no consolidated metadata");
    await page.fill("#path", "img");
    await page.click("#open-form button[type=submit]");
    await page.waitForSelector('#image[data-slice=""]');
    await page.waitForSelector("body[data-state=ready]");
    expect(await page.evaluate(() => (document.getElementById("image") as HTMLCanvasElement).width)).toBe(10);
  });

  it("shows errors in the page: 404, not an array, unknown codec, CORS", async () => {
    await open({ url: `${dataUrl}/data/missing.zarr` });
    expect(await state()).toBe("error");
    expect(await page.locator("#message .error").textContent()).toContain("Nothing to open");

    await open({ url: `${dataUrl}/data/example.zarr`, path: "labels" });
    expect(await state()).toBe("ready");
    expect(await page.locator("#message .error").textContent()).toContain('"labels" is a group, not an array');

    await open({ url: `${dataUrl}/data/bad.zarr` });
    expect(await state()).toBe("error");
    expect(await page.locator("#message .error").textContent()).toContain(
      'codec the viewer cannot decode ("no-such-codec")',
    );

    await open({ url: `${dataUrl}/nocors/example.zarr` });
    expect(await state()).toBe("error");
    expect(await page.locator("#message .error").textContent()).toContain("CORS");

    await open({ url: `${dataUrl}/data/example.zarr`, path: "nothing/here" });
    expect(await state()).toBe("error");
    expect(await page.locator("#message .error").textContent()).toContain("Nothing to open");
  });

  describe("a dataset xarray wrote", () => {
    const climate = () => {
      if (expected.climate === null) throw new MissingToolError("xarray");
      return expected.climate;
    };
    const viridisAt = (v: number, low: number, high: number) => {
      const viridis = colormapTable("viridis");
      const i = grayLevel(v, low, high);
      return [viridis[i * 3], viridis[i * 3 + 1], viridis[i * 3 + 2], 255];
    };
    const text = (selector: string) => page.locator(selector).textContent();

    for (const store of ["climate.zarr", "climate-plain.zarr", "climate-v3.zarr"]) {
      it(`labels ${store}'s axes and sliders with coordinates and draws xarray's decoded values`, async () => {
        const c = climate();
        await open({ url: `${dataUrl}/data/${store}`, path: "t2m" });
        expect(await state()).toBe("ready");
        await page.waitForSelector('#image[data-slice="0"]');
        expect(await text("#title")).toBe("2 metre temperature [K]");
        expect(await text("#info")).toContain("t2m (time, lat, lon)  shape [4,6,8]");
        // v3: dimensions from dimension_names, the data type and codecs as zarr.json names them.
        expect(await text("#info")).toContain(
          store === "climate-v3.zarr"
            ? "float32 (stored int16)  codecs bytes, zstd"
            : "float32 (stored <i2)  compressor blosc",
        );
        expect(await text("#sliders")).toBe("time: 2000-01-01 (0 / 3)");
        const axis = (id: string) =>
          page.locator(`#${id} span`).evaluateAll((spans) => spans.map((s) => s.textContent));
        expect(await axis("x-axis")).toEqual(["0", "lon (degrees_east)", "315"]);
        expect(await axis("y-axis")).toEqual(["75", "lat (degrees_north)", "-75"]);
        // Limits and colours from the decoded (unpacked, masked) values, as xarray decodes them.
        const [p2, p98] = c.percentiles[0]!;
        const low = Number(await page.inputValue("#low"));
        const high = Number(await page.inputValue("#high"));
        expect(low).toBeCloseTo(p2, 4);
        expect(high).toBeCloseTo(p98, 4);
        const at: [number, number][] = [[0, 0], [1, 5], [4, 7], c.nanAt];
        const got = await pixels(at);
        at.slice(0, 3).forEach(([y, x], i) => expect(got[i]).toEqual(viridisAt(c.slices[0]![y]![x]!, low, high)));
        expect(got[3]![3]).toBe(0);

        await page.locator("#sliders input[type=range]").focus();
        await page.keyboard.press("ArrowRight");
        await page.waitForSelector('#image[data-slice="1"]');
        await page.waitForSelector("body[data-state=ready]");
        expect(await text("#sliders")).toBe("time: 2000-01-02 (1 / 3)");
        const next = await pixels(at.slice(0, 3));
        at.slice(0, 3).forEach(([y, x], i) => expect(next[i]).toEqual(viridisAt(c.slices[1]![y]![x]!, low, high)));
        await page.hover("#image", { position: { x: 2, y: 2 } });
        expect(await text("#readout")).toBe("time=2000-01-02, lat=75, lon=0: 262.76 K");

        if (store === "climate.zarr") {
          const screenshot = join(screenshots(), "z-viewer-dataset.png");
          await page.screenshot({ path: screenshot, fullPage: true });
          console.log(`viewer screenshot (climate.zarr/t2m, time 2000-01-02, labelled axes): ${screenshot}`);
          expect(statSync(screenshot).size).toBeGreaterThan(1000);
        }
      });
    }
  });

  describe("Zarr v3 stores", () => {
    const text = (selector: string) => page.locator(selector).textContent();

    it("lists a v3 hierarchy from the metadata consolidated in its root zarr.json, with data types and codecs", async () => {
      requests.length = 0;
      await open({ url: `${dataUrl}/data/example-v3c.zarr` });
      expect(await state()).toBe("ready");
      const paths = await page
        .locator("#hierarchy button")
        .evaluateAll((buttons) => buttons.map((b) => (b as HTMLElement).dataset.path));
      expect(paths).toEqual(["", "labels", "labels/mask", "volume"]);
      const hierarchy = await text("#hierarchy");
      expect(hierarchy).toContain("(consolidated in zarr.json)");
      expect(hierarchy).toContain("[3,24,32] float32 bytes, gzip");
      expect(hierarchy).toContain("[24,32] uint8 bytes, gzip");
      // Listing reads the root zarr.json and nothing else (a .zmetadata is asked in the same round
      // trip, as openConsolidated asks for either format's consolidation at once; there is none).
      expect(new Set(requests.filter((p) => p.startsWith("/data/example-v3c.zarr/")))).toEqual(
        new Set(["/data/example-v3c.zarr/zarr.json", "/data/example-v3c.zarr/.zmetadata"]),
      );
    });

    it("draws a v3 array's slices from its c/… chunk keys, showing its codecs", async () => {
      await open({ url: `${dataUrl}/data/example-v3c.zarr`, path: "volume", cmap: "gray" });
      await page.waitForSelector('#image[data-slice="0"]');
      await page.waitForSelector("body[data-state=ready]");
      expect(await text("#info")).toBe("volume  shape [3,24,32]  chunks [1,12,16]  dtype float32  codecs bytes, gzip");
      await page.fill("#low", "0");
      await page.fill("#high", "2767");
      const gray = (k: number) =>
        points.map(([y, x]) => {
          const level = grayLevel(value(k, y, x), 0, 2767);
          return [level, level, level, 255];
        });
      expect(await pixels(points)).toEqual(gray(0));
      requests.length = 0;
      await page.locator("#sliders input[type=range]").focus();
      await page.keyboard.press("ArrowRight");
      await page.waitForSelector('#image[data-slice="1"]');
      await page.waitForSelector("body[data-state=ready]");
      expect(await pixels(points)).toEqual(gray(1));
      expect(requests.filter((p) => p.startsWith("/data/example-v3c.zarr/volume/")).sort()).toEqual(
        ["1/0/0", "1/0/1", "1/1/0", "1/1/1"].map((c) => `/data/example-v3c.zarr/volume/c/${c}`),
      );
    });

    it("opens a v3 group without consolidated metadata and a member by path, and a v3 array URL directly", async () => {
      await open({ url: `${dataUrl}/data/example-v3.zarr` });
      expect(await state()).toBe("ready");
      expect(await messages()).toContain("no consolidated metadata");
      await page.fill("#path", "labels/mask");
      await page.click("#open-form button[type=submit]");
      await page.waitForSelector('#image[data-slice=""]');
      await page.waitForSelector("body[data-state=ready]");
      expect(await text("#info")).toContain("dtype uint8  codecs bytes, gzip");

      await open({ url: `${dataUrl}/data/example-v3.zarr/volume` });
      expect(await state()).toBe("ready");
      await page.waitForSelector('#image[data-slice="0"]');
      expect(await text("#hierarchy")).toContain("/ (array)");
      expect(await text("#hierarchy")).toContain("[3,24,32] float32");
    });
  });

  describe("an S3 bucket, read anonymously", () => {
    /** The URLs of the page's requests to the S3 endpoint, while `during` runs. */
    const s3Requests = async (during: () => Promise<void>): Promise<string[]> => {
      const seen: string[] = [];
      const listener = (request: { url(): string }) => {
        if (request.url().startsWith(s3Endpoint)) seen.push(request.url().slice(s3Endpoint.length));
      };
      page.on("request", listener);
      try {
        await during();
      } finally {
        page.off("request", listener);
      }
      return seen;
    };

    it("lists s3://bucket/example.zarr from .zmetadata and draws slice 0 from its chunks", async () => {
      const seen = await s3Requests(async () => {
        await open({ url: `s3://${bucket}/example.zarr`, endpoint: s3Endpoint });
        expect(await state()).toBe("ready");
        expect(await page.locator("#hierarchy").textContent()).toContain("[3,24,32] <f4 blosc");
        await page.locator('#hierarchy button[data-path="volume"]').click();
        await page.waitForSelector('#image[data-slice="0"]');
        await page.waitForSelector("body[data-state=ready]");
      });
      // Path-style requests to the endpoint: the metadata, then exactly the four chunks of slice 0.
      expect(seen.filter((url) => /\/volume\/\d+\.\d+\.\d+$/.test(url)).sort()).toEqual(
        ["0.0.0", "0.0.1", "0.1.0", "0.1.1"].map((c) => `/${bucket}/example.zarr/volume/${c}`),
      );
      expect(seen).toContain(`/${bucket}/example.zarr/.zmetadata`);
      // The location stays in the page's address, endpoint included.
      const query = new URL(page.url()).searchParams;
      expect([query.get("url"), query.get("endpoint"), query.get("path")]).toEqual([
        `s3://${bucket}/example.zarr`,
        s3Endpoint,
        "volume",
      ]);
      expect(await page.locator("#endpoint").isVisible()).toBe(true);

      const low = Number(await page.inputValue("#low"));
      const high = Number(await page.inputValue("#high"));
      expect(low).toBeCloseTo(expected.slices[0]!.p2, 4);
      expect(high).toBeCloseTo(expected.slices[0]!.p98, 4);
      const viridis = colormapTable("viridis");
      const rgb = (i: number) => [viridis[i * 3], viridis[i * 3 + 1], viridis[i * 3 + 2], 255];
      const got = await pixels([...points, expected.nanAt]);
      points.forEach(([y, x], i) => expect(got[i]).toEqual(rgb(grayLevel(value(0, y, x), low, high))));
      expect(got[6]![3]).toBe(0);
    });

    it("lists a group without .zmetadata through S3's listing, and draws a member", async () => {
      await open({ url: `s3://${bucket}/plain.zarr`, endpoint: s3Endpoint });
      expect(await state()).toBe("ready");
      expect(await messages()).not.toContain("no consolidated metadata");
      expect(await page.locator("#hierarchy").textContent()).toContain("(listed)");
      await page.locator('#hierarchy button[data-path="img"]').click();
      await page.waitForSelector('#image[data-slice=""]');
      await page.waitForSelector("body[data-state=ready]");
      // img = linspace(0, 1, 100) in 10x10, drawn between its 2nd and 98th percentiles.
      expect(await page.evaluate(() => (document.getElementById("image") as HTMLCanvasElement).width)).toBe(10);
      const low = Number(await page.inputValue("#low"));
      const high = Number(await page.inputValue("#high"));
      const viridis = colormapTable("viridis");
      const at = (y: number, x: number) => {
        const i = grayLevel((y * 10 + x) / 99, low, high);
        return [viridis[i * 3], viridis[i * 3 + 1], viridis[i * 3 + 2], 255];
      };
      expect(
        await pixels([
          [0, 0],
          [4, 5],
          [9, 9],
        ]),
      ).toEqual([at(0, 0), at(4, 5), at(9, 9)]);
    });

    it("explains a bucket whose CORS configuration does not allow the page", async () => {
      await open({ url: `s3://${noCorsBucket}/example.zarr`, endpoint: s3Endpoint });
      expect(await state()).toBe("error");
      expect(await page.locator("#message .error").textContent()).toContain("CORS configuration must allow");
    });
  });

  describe("kerchunk reference sets (?url= of a reference file)", () => {
    // A NetCDF4 file and its references as kerchunk makes them, JSON and Parquet
    // (packages/store-reference/test/python/make_refs.py), and what xarray reads through fsspec's
    // ReferenceFileSystem (packages/xarray/test/python/xarray_refs.py): `temp` decoded.
    let temp: Float32Array;
    let tempShape: number[];
    beforeAll(() => {
      const refs = join(dir, "refs");
      const py = refsPython();
      for (const script of [
        "packages/store-reference/test/python/make_refs.py",
        "packages/xarray/test/python/xarray_refs.py",
      ])
        execFileSync(py, [join(repo, script), refs], { stdio: "pipe" });
      const read = JSON.parse(readFileSync(join(refs, "xarray.json"), "utf8")) as Record<
        string,
        { variables: Record<string, { shape: number[]; values: { base64: string } }> }
      >;
      const want = read.parquet!.variables.temp!;
      const bytes = Buffer.from(want.values.base64, "base64");
      temp = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
      tempShape = want.shape;
    });
    const text = (selector: string) => page.locator(selector).textContent();

    for (const file of ["refs-v0.json", "refs.parq"]) {
      it(`lists ${file}'s hierarchy and draws temp's first time step as xarray decodes it`, async () => {
        await open({ url: `${dataUrl}/data/refs/${file}` });
        expect(await state()).toBe("ready");
        const paths = await page
          .locator("#hierarchy button")
          .evaluateAll((buttons) => buttons.map((b) => (b as HTMLElement).dataset.path));
        for (const path of ["", "area", "grp", "grp/a", "lat", "precip", "temp", "time"]) expect(paths).toContain(path);
        expect(await text("#hierarchy")).toContain("(listed)");

        requests.length = 0;
        await page.locator('#hierarchy button[data-path="temp"]').click();
        await page.waitForSelector('#image[data-slice="0"]');
        await page.waitForSelector("body[data-state=ready]");
        expect(await text("#title")).toBe("temp [K]");
        expect(await text("#info")).toContain("temp (time, lat, lon)  shape [10,30,40]");
        expect(await text("#sliders")).toBe("time: 2000-01-01 (0 / 9)");
        const [rows, cols] = tempShape.slice(1) as [number, number];
        const low = Number(await page.inputValue("#low"));
        const high = Number(await page.inputValue("#high"));
        const viridis = colormapTable("viridis");
        const at: [number, number][] = [
          [0, 0],
          [5, 17],
          [29, 39],
        ];
        const got = await pixels(at);
        at.forEach(([y, x], i) => {
          const level = grayLevel(temp[y * cols + x]!, low, high);
          expect(got[i], `pixel ${y}, ${x}`).toEqual([
            viridis[level * 3],
            viridis[level * 3 + 1],
            viridis[level * 3 + 2],
            255,
          ]);
        });
        expect(rows).toBe(30);
        // The slice's chunks are ranged reads of data.nc; a Parquet set reads only the record files
        // of the arrays it draws or labels with (never precip's).
        expect(requests.filter((p) => p === "/data/refs/data.nc").length).toBeGreaterThan(0);
        expect(requests.filter((p) => p.startsWith("/data/refs/refs.parq/precip/"))).toEqual([]);
        if (file === "refs.parq") expect(requests).toContain("/data/refs/refs.parq/temp/refs.0.parq");

        // The time step where the file holds the fill value (-999): transparent.
        await page.locator("#sliders input[type=range]").focus();
        await page.keyboard.press("ArrowRight");
        await page.keyboard.press("ArrowRight");
        await page.waitForSelector('#image[data-slice="2"]');
        await page.waitForSelector("body[data-state=ready]");
        expect(Number.isNaN(temp[2 * rows * cols + 1 * cols + 3])).toBe(true);
        expect((await pixels([[1, 3]]))[0]![3]).toBe(0);
      });
    }
  });

  it("raised no uncaught errors in the page", () => {
    expect(pageErrors).toEqual([]);
  });
});
