// Bundles src/thread-driver.ts with what it uses into dist/thread/thread-driver.js, after `tsc -b`:
// a chunk pool thread of @z/core imports it to reopen a DirectoryStore, and one file loads in a
// few milliseconds where this package's and @z/meta's modules take tens.
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/thread`;
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { "thread-driver": `${root}src/thread-driver.ts` },
  outdir,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  conditions: ["@z/source"],
  sourcemap: true,
  logLevel: "warning",
});
