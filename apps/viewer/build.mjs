#!/usr/bin/env node
// Builds the viewer page into dist/: index.html and an ES module bundle of src/main.ts for the
// browser, split so that the WASM codecs (blosc, zstd, lz4) come in chunks of their own, fetched when
// an array first uses one. Workspace packages are bundled from their sources (the "@z/source"
// export condition), so nothing else needs building first. Node built-ins fail the build.
//
//   node build.mjs            build once (minified)
//   node build.mjs --dev      unminified, with source maps
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const outdir = join(here, "dist");

export async function buildViewer({ dev = false } = {}) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: { main: join(here, "src/main.ts") },
    absWorkingDir: here,
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions: ["@z/source"],
    minify: !dev,
    sourcemap: dev ? "linked" : false,
    chunkNames: "chunks/[name]-[hash]",
    legalComments: "none",
    logLevel: "warning",
    metafile: true,
  });
  copyFileSync(join(here, "src/index.html"), join(outdir, "index.html"));
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await buildViewer({ dev: process.argv.includes("--dev") });
  const files = Object.entries(result.metafile.outputs).map(
    ([file, out]) => `${file} (${(out.bytes / 1000).toFixed(1)} kB)`,
  );
  console.log(`built ${outdir}:\n  ${files.join("\n  ")}\n  index.html`);
}
