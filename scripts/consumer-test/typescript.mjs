// The consumer's TypeScript: copied into the project's src/, type-checked with the workspace's tsc
// (5.9) under each configuration a user might have, strict, and with the packages' .d.ts checked
// too (skipLibCheck false, tsc's default; TypeScript's own lib files are left unchecked); and
// transpiled to out/ to run (esbuild, so a type error does not stop the run-time checks).
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import { here, root, run } from "./lib.mjs";

const common = { target: "ES2022", strict: true, skipLibCheck: false, skipDefaultLibCheck: true, noEmit: true };

/** The tsconfigs, by name. */
export const tsconfigs = {
  // Node's own resolution: exports conditions "types" + "import"/"node", .js extensions.
  nodenext: { ...common, module: "NodeNext", moduleResolution: "NodeNext" },
  // What Vite, esbuild and webpack projects use.
  bundler: { ...common, module: "ESNext", moduleResolution: "Bundler" },
  // A browser project: no Node types at all, only the DOM's.
  "bundler-dom": { ...common, module: "ESNext", moduleResolution: "Bundler", types: [], lib: ["ES2022", "DOM"] },
};

/** Copies the subset's consumer sources into `dir`/src and transpiles them into `dir`/out. */
export async function writeSources(dir, sources) {
  const ts = [];
  for (const source of sources) {
    const target = join(dir, "src", source);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(here, "consumers", source), target);
    if (source.endsWith(".ts")) ts.push(target);
    else {
      mkdirSync(dirname(join(dir, "out", source)), { recursive: true });
      copyFileSync(target, join(dir, "out", source));
    }
  }
  for (const [name, compilerOptions] of Object.entries(tsconfigs))
    writeFileSync(
      join(dir, `tsconfig.${name}.json`),
      `${JSON.stringify({ compilerOptions, include: ["src"] }, null, 2)}\n`,
    );
  if (ts.length > 0)
    await build({
      entryPoints: ts,
      outdir: join(dir, "out"),
      outbase: join(dir, "src"),
      format: "esm",
      platform: "node",
      target: "node20",
      logLevel: "silent",
    });
}

/** Runs tsc on the project with one of the tsconfigs. */
export function typecheck(dir, config) {
  return run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", `tsconfig.${config}.json`], {
    cwd: dir,
  });
}
