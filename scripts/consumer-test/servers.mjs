// The HTTP servers of the consumer test, on 127.0.0.1:
// - the repository's test server (scripts/test-server/server.ts, Range and CORS), serving the
//   fixtures zarr-python wrote (packages/core/test/fixtures/http), the datasets xarray wrote
//   (packages/xarray/test/fixtures) and a URL answered 403;
// - a static server for the consumers' pages, on another port (so the page reads the data across
//   origins, as a site reading a public bucket does);
// - the loopback S3 server (scripts/test-s3: s3rver behind a SigV4 check), started as the
//   packages' vitest runs start it, with s3rver from the workspace's node_modules.
import { readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { XARRAY_FIXTURES } from "./dataset.mjs";
import { root } from "./lib.mjs";

/** The fixtures, as the test server's sessions name them (relative to the repository). */
export const FIXTURES = "packages/core/test/fixtures/http";

/**
 * Starts the test server (bundled from its TypeScript into `dir` first: Node 20 runs no .ts) and
 * opens its sessions; returns `{ session, logUrl, dataUrl, xarrayUrl, forbiddenUrl, close }`.
 */
export async function startDataServer(dir) {
  const source = join(root, "scripts/test-server/server.ts");
  const out = join(dir, "test-server.mjs");
  const bundled = await build({
    entryPoints: [source],
    bundle: true,
    platform: "node",
    format: "esm",
    write: false,
    logLevel: "silent",
    // It finds the fixtures relative to its own file.
    define: { "import.meta.url": JSON.stringify(pathToFileURL(source).href) },
  });
  await writeFile(out, bundled.outputFiles[0].contents);
  const { startTestServer } = await import(pathToFileURL(out).href);
  const server = await startTestServer();
  const session = async (config) => {
    // A connection reset before any answer (seen once on a loaded CI machine, at the first POST)
    // is set-up failing, not a check: try again, twice at most. A session made twice is unused.
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await fetch(`${server.url}/__sessions`, { method: "POST", body: JSON.stringify(config) });
        const { id } = await response.json();
        return `${server.url}/s/${id}/`;
      } catch (error) {
        if (attempt === 3 || !(error instanceof TypeError)) throw error;
      }
    }
  };
  return {
    /** A session of its own (`SessionConfig`: `values` serves files from memory); its URL. */
    session,
    /** The log of the session at `url` (its requests, GET `/__sessions/<id>/log`). */
    logUrl: (url) => `${server.url}/__sessions/${/\/s\/(\d+)\//.exec(url)[1]}/log`,
    dataUrl: await session({ files: FIXTURES }),
    xarrayUrl: await session({ files: XARRAY_FIXTURES }),
    forbiddenUrl: `${await session({ faults: [{ action: { respond: { status: 403, body: "forbidden" } } }] })}data.zarr`,
    close: () => server.close(),
  };
}

/** The one account the test S3 server knows (scripts/test-s3/server.ts). */
export const S3_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/**
 * Starts the test S3 server with scripts/test-s3/spawn.ts, as the packages' vitest globalSetup
 * does: spawn.ts is bundled (Node 20 runs no .ts) next to the workspace's node_modules, where it
 * finds esbuild, and bundles server.ts there in turn, so the server's s3rver and
 * @smithy/signature-v4 come from the workspace, never from a consumer's project. Creates `buckets`
 * (anonymously: s3rver allows it); returns `{ endpoint, close }`.
 */
export async function startS3Server(buckets) {
  const source = join(root, "scripts/test-s3/spawn.ts");
  const cache = join(root, "node_modules/.cache/z-test-s3");
  const out = join(cache, `consumer-spawn-${process.pid}.mjs`);
  await build({
    entryPoints: [source],
    outfile: out,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    logLevel: "silent",
    // It finds server.ts and the workspace relative to its own file.
    define: { "import.meta.url": JSON.stringify(pathToFileURL(source).href) },
  });
  let spawnS3Server;
  try {
    ({ spawnS3Server } = await import(pathToFileURL(out).href));
  } finally {
    await rm(out, { force: true });
  }
  const server = await spawnS3Server();
  try {
    for (const bucket of buckets) {
      const response = await fetch(`${server.endpoint}/${bucket}`, { method: "PUT" });
      if (!response.ok) throw new Error(`creating bucket ${bucket}: ${response.status} ${await response.text()}`);
    }
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}

const types = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".map": "application/json",
  ".wasm": "application/wasm",
};

/** A static file server: `serve(dir)` gives the URL its files are at. */
export async function startPageServer() {
  const roots = new Map();
  const server = createServer(async (req, res) => {
    const [, id, ...rest] = new URL(req.url ?? "/", "http://x").pathname.split("/");
    const base = roots.get(id);
    const file = base === undefined ? undefined : normalize(join(base, ...rest.map(decodeURIComponent)));
    if (file === undefined || !file.startsWith(base + sep)) return void res.writeHead(404).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    serve(dir) {
      const id = String(roots.size + 1);
      roots.set(id, dir);
      return `${url}/${id}/`;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
