#!/usr/bin/env node
// pnpm size: bundles each browser-safe package's index (scripts/layers.json's "$browser-safe") and
// the viewer entries in scripts/bundle-entries/ with esbuild for the browser (minified ESM), reports
// their min+gzip sizes and fails when
// - a bundle needs Node: a Node built-in import fails the build (platform "browser", no polyfills),
//   and no output may refer to a Node global (Buffer, process, global, __dirname, __filename, require);
// - a size exceeds its budget in scripts/bundle-budgets.json;
// - WASM codec code (@z/codecs-wasm's codecs and the dependencies only it uses) is in what a viewer
//   loads first, or registering blosc grows that by more than a loader: it must come on first use.
// Two sizes per bundle, in min+gzip bytes:
// - "initial", what a page loads first: the static import graph, tree-shaken, with every dynamic
//   import() left out (as a bundler puts those in chunks of their own);
// - the viewer app itself (apps/viewer/src/main.ts): what its page loads first, and that the code
//   only some locations need (@z/store-s3 for s3:// URLs) is not part of that but comes on use;
// - "total", every chunk of a code-splitting build, lazily loaded ones included.
// `node scripts/bundle-size.mjs --update` rewrites the budgets to the measured sizes plus 15%.
import { build } from "esbuild";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = fileURLToPath(new URL("..", import.meta.url));
const budgetsFile = join(root, "scripts/bundle-budgets.json");
const layers = JSON.parse(readFileSync(join(root, "scripts/layers.json"), "utf8"));
const browserSafe = layers["$browser-safe"];
const packageJson = (name) => JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8"));
const update = process.argv.includes("--update");
const HEADROOM = 1.15;
/** How much more a viewer with blosc registered may load first than one without: its loader. */
const LOADER_ALLOWANCE = 512;

const bundles = [
  ...browserSafe
    .filter((name) => existsSync(join(root, "packages", name, "package.json")))
    .map((name) => ({ name: `@z/${name}`, contents: `export * from "@z/${name}";` })),
  { name: "viewer", entry: "scripts/bundle-entries/viewer.ts", viewer: true },
  // Its blosc must be in some chunk (or the lazy-loading check could not fail).
  {
    name: "viewer+blosc",
    entry: "scripts/bundle-entries/viewer-blosc.ts",
    viewer: true,
    needs: /^packages\/codecs-wasm\/src\/blosc\.ts$/,
  },
  // The viewer page as built (apps/viewer/build.mjs): S3 support loads only for s3:// URLs.
  { name: "viewer-app", entry: "apps/viewer/src/main.ts", viewer: true, lazy: /^packages\/store-s3\/src\// },
];

// Code a page must not load before it needs a WASM codec: @z/codecs-wasm's sources but its index
// (the lazy loaders), and the packages only @z/codecs-wasm depends on (numcodecs).
const depsOf = (name) => Object.keys(packageJson(name).dependencies ?? {}).filter((dep) => !dep.startsWith("@z/"));
const sharedDeps = new Set(browserSafe.filter((name) => name !== "codecs-wasm").flatMap(depsOf));
const wasmOnlyDeps = depsOf("codecs-wasm").filter((dep) => !sharedDeps.has(dep));
const isWasmCodecCode = (input) =>
  /^packages\/codecs-wasm\/src\/(?!index\.ts$)/.test(input) ||
  wasmOnlyDeps.some((dep) => input.includes(`node_modules/${dep}/`));

/** `@z/x` and `@z/x/sub` resolve to the sources their package.json exports under "@z/source", so no build is needed. */
const workspaceSources = {
  name: "workspace-sources",
  setup(b) {
    b.onResolve({ filter: /^@z\// }, ({ path }) => {
      const [, name, sub] = /^@z\/([^/]+)(\/.*)?$/.exec(path);
      if (!existsSync(join(root, "packages", name, "package.json")))
        return { errors: [{ text: `no package ${path}` }] };
      const pkg = packageJson(name);
      const target = pkg.exports?.[`.${sub ?? ""}`]?.["@z/source"];
      if (!target) return { errors: [{ text: `${path} is not exported with an "@z/source" condition` }] };
      // As a bundler resolving the published package would: "sideEffects": false lets it drop
      // modules nothing uses (esbuild assumes side effects for paths a plugin resolves).
      return { path: join(root, "packages", name, target), sideEffects: pkg.sideEffects === false ? false : undefined };
    });
    b.onResolve({ filter: /^entry:/ }, ({ path }) => ({ path, namespace: "entry" }));
    b.onLoad({ filter: /.*/, namespace: "entry" }, ({ path }) => ({
      contents: bundles.find((bundle) => `entry:${bundle.name}` === path).contents,
      resolveDir: root,
      loader: "ts",
    }));
  },
};

/** Leaves every `import()` out of the bundle: what is left is what loads first. */
const dynamicImportsLeftOut = {
  name: "dynamic-imports-left-out",
  setup(b) {
    b.onResolve({ filter: /.*/ }, ({ kind, path }) =>
      kind === "dynamic-import" ? { path, external: true } : undefined,
    );
  },
};

// Free references to Node's globals become these markers, which must not appear in any output.
const nodeGlobals = ["Buffer", "process", "global", "__dirname", "__filename"];
const marker = (name) => `__node_global_${name}__`;
// A marker, or esbuild's stand-in for a require() it could not bundle.
const nodeUse = /__node_global_(\w+?)__|Dynamic require of/;

const options = (bundle, splitting) => ({
  entryPoints: [{ in: bundle.entry ? join(root, bundle.entry) : `entry:${bundle.name}`, out: "index" }],
  absWorkingDir: root,
  outdir: join(root, "out"),
  bundle: true,
  splitting,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  legalComments: "none",
  write: false,
  metafile: true,
  logLevel: "silent",
  define: Object.fromEntries(nodeGlobals.map((name) => [name, marker(name)])),
  plugins: splitting ? [workspaceSources] : [dynamicImportsLeftOut, workspaceSources],
});
const bundleFor = (bundle, splitting) => build(options(bundle, splitting));

async function measure(bundle) {
  const [initial, all] = await Promise.all([bundleFor(bundle, false), bundleFor(bundle, true)]);
  const problems = [...initial.warnings, ...all.warnings].map((w) => `esbuild: ${w.text}${where(w)}`);
  const sizes = { min: 0, initial: 0, total: 0, chunks: all.outputFiles.length };
  let usesNode = false;
  for (const [result, key] of [
    [initial, "initial"],
    [all, "total"],
  ]) {
    for (const file of result.outputFiles) {
      sizes[key] += gzipSync(file.contents, { level: 9 }).length;
      if (key === "initial") sizes.min += file.contents.length;
      if (nodeUse.test(new TextDecoder().decode(file.contents))) usesNode = true;
    }
  }
  if (usesNode) problems.push(...(await nodeUseBySource(bundle)));
  const inputsOf = (result) => Object.values(result.metafile.outputs).flatMap((output) => Object.keys(output.inputs));
  if (bundle.viewer) {
    const wasm = inputsOf(initial).filter(isWasmCodecCode);
    if (wasm.length > 0)
      problems.push(`WASM codec code loads with the page instead of on first use: ${wasm.join(", ")}`);
  }
  if (bundle.needs && !inputsOf(all).some((input) => bundle.needs.test(input)))
    problems.push(`no chunk holds ${bundle.needs}`);
  if (bundle.lazy) {
    const first = inputsOf(initial).filter((input) => bundle.lazy.test(input));
    if (first.length > 0) problems.push(`code meant to load on use loads with the page: ${first.join(", ")}`);
    if (!inputsOf(all).some((input) => bundle.lazy.test(input))) problems.push(`no chunk holds ${bundle.lazy}`);
  }
  return { ...sizes, problems: [...new Set(problems)] };
}

/** Where Node's globals are used: an unminified build marks each module's code with a `// path` line. */
async function nodeUseBySource(bundle) {
  const result = await build({ ...options(bundle, true), minify: false });
  const found = new Set();
  for (const file of result.outputFiles) {
    for (const match of file.text.matchAll(new RegExp(nodeUse, "g"))) {
      const source = [...file.text.slice(0, match.index).matchAll(/^\/\/ (\S+)$/gm)].at(-1)?.[1] ?? "?";
      found.add(match[1] ? `uses the Node global ${match[1]} (${source})` : `calls require() (${source})`);
    }
  }
  return [...found];
}

function where(message) {
  return message.location ? ` (${message.location.file}:${message.location.line})` : "";
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const budgets = existsSync(budgetsFile) ? JSON.parse(readFileSync(budgetsFile, "utf8")) : {};
const failures = [];
const measured = {};

const columns = [
  ["bundle", 14],
  ["first min", 11],
  ["min+gzip", 10],
  ["budget", 10],
  ["all min+gzip", 14],
  ["budget", 10],
  ["chunks", 8],
];
const row = (cells) =>
  cells
    .map((cell, i) => (i === 0 ? String(cell).padEnd(columns[i][1]) : String(cell).padStart(columns[i][1])))
    .join("");
console.log(row(columns.map(([title]) => title)));
for (const bundle of bundles) {
  let result;
  try {
    result = await measure(bundle);
  } catch (error) {
    const errors = error.errors?.map((e) => `${e.text}${where(e)}`) ?? [String(error)];
    failures.push(
      `${bundle.name} does not bundle for the browser (no Node built-ins, no polyfills):\n    ${errors.join("\n    ")}`,
    );
    continue;
  }
  measured[bundle.name] = result;
  const budget = budgets[bundle.name];
  console.log(
    row([
      bundle.name,
      kB(result.min),
      kB(result.initial),
      budget ? kB(budget.initial) : "-",
      kB(result.total),
      budget ? kB(budget.total) : "-",
      result.chunks,
    ]),
  );
  for (const problem of result.problems) failures.push(`${bundle.name}: ${problem}`);
  if (update) continue;
  if (!budget) {
    failures.push(
      `${bundle.name} has no budget in scripts/bundle-budgets.json (measured ${result.initial} B first, ${result.total} B in all)`,
    );
    continue;
  }
  for (const key of ["initial", "total"]) {
    if (result[key] > budget[key])
      failures.push(`${bundle.name}: ${key} min+gzip is ${result[key]} B, over its budget of ${budget[key]} B`);
  }
}

const withBlosc = measured["viewer+blosc"];
const without = measured.viewer;
if (withBlosc && without && withBlosc.initial - without.initial > LOADER_ALLOWANCE) {
  failures.push(
    `registering blosc grows what the viewer loads first by ${withBlosc.initial - without.initial} B, more than a loader's ${LOADER_ALLOWANCE} B`,
  );
}

if (update && failures.length === 0) {
  const round = (bytes) => Math.ceil((bytes * HEADROOM) / 100) * 100;
  const notes = Object.fromEntries(Object.entries(budgets).filter(([key]) => key.startsWith("$")));
  const next = {
    ...notes,
    ...Object.fromEntries(
      Object.entries(measured).map(([name, m]) => [name, { initial: round(m.initial), total: round(m.total) }]),
    ),
  };
  writeFileSync(budgetsFile, `${JSON.stringify(next, null, 2)}\n`);
  console.log(`\nwrote ${relative(root, budgetsFile)}: the measured sizes plus ${Math.round((HEADROOM - 1) * 100)}%`);
}
if (failures.length > 0) {
  console.error(`\n${failures.map((f) => `✗ ${f}`).join("\n")}`);
  console.error(
    "\nA deliberate growth: raise its budget in scripts/bundle-budgets.json (or run `node scripts/bundle-size.mjs --update`) in the same commit.",
  );
  process.exit(1);
}
console.log("\nWithin budgets; no Node built-ins or globals; WASM codecs load on first use.");
