// Bundles the chunk pool's thread entry (src/node/chunk-worker.ts) with what it imports into
// dist/node/worker/, after `tsc -b`: a thread then loads a few files instead of a hundred modules,
// which is most of its start-up time. Codecs that load lazily stay in their own files.
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/node/worker`;
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: { "chunk-worker": `${root}src/node/chunk-worker.ts` },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  conditions: ["@z/source"],
  sourcemap: true,
  logLevel: "warning",
});
