// Bundles the chunk pool's thread entry (src/node/chunk-worker.ts) with what it imports into
// dist/node/worker/, after `tsc -b`: a thread then loads a few files instead of a hundred modules,
// which is most of its start-up time. Codecs that load lazily stay in their own files.
import { readFile, rm, writeFile } from "node:fs/promises";
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
  // Loads its native addon from its own folder.
  external: ["@z/huge-pages"],
  sourcemap: true,
  logLevel: "warning",
});

// esbuild keeps a bare `import "./chunk-….js"` in the entry for every shared chunk holding a module
// the entry reaches only through an unused re-export (every codec of @z/codecs and
// @z/codecs-wasm, through their index files), although those packages declare no side effects.
// Loading them all costs a thread ~40 ms of its start. What the thread uses is imported with
// bindings, from the entry or from the chunks it loads; so the bare imports go (as empty lines,
// which keeps the source map's lines).
const entry = `${outdir}/chunk-worker.js`;
const text = await readFile(entry, "utf8");
await writeFile(entry, text.replace(/^import "\.\/chunk-[A-Z0-9]+\.js";$/gm, ""));
