// The HTTP servers of the consumer test, on 127.0.0.1:
// - the repository's test server (scripts/test-server/server.ts, Range and CORS), serving the
//   fixtures zarr-python wrote (packages/core/test/fixtures/http), the datasets xarray wrote
//   (packages/xarray/test/fixtures) and a URL answered 403;
// - a static server for the consumers' pages, on another port (so the page reads the data across
//   origins, as a site reading a public bucket does).
import { readFile, writeFile } from "node:fs/promises";
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
 * opens its sessions; returns `{ dataUrl, xarrayUrl, forbiddenUrl, close }`.
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
    const response = await fetch(`${server.url}/__sessions`, { method: "POST", body: JSON.stringify(config) });
    const { id } = await response.json();
    return `${server.url}/s/${id}/`;
  };
  return {
    dataUrl: await session({ files: FIXTURES }),
    xarrayUrl: await session({ files: XARRAY_FIXTURES }),
    forbiddenUrl: `${await session({ faults: [{ action: { respond: { status: 403, body: "forbidden" } } }] })}data.zarr`,
    close: () => server.close(),
  };
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
