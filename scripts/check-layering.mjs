#!/usr/bin/env node
// Fails when a package imports a workspace package that is not below it in scripts/layers.json,
// when package imports form a cycle, when a browser-safe package's sources import Node built-ins
// or Node-only packages outside its Node entries, or when a package imports one of its
// "$node-only-imports" (its optional peers, e.g. @z/core's stores) outside its Node entries (even
// `import type`) or lists one as anything but an optional peer dependency.
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const layers = JSON.parse(readFileSync(join(root, "scripts/layers.json"), "utf8"));
const browserSafe = new Set(layers["$browser-safe"]);
const problems = [];

/** Everything `name` may import: its direct allowances and, transitively, theirs. */
function allowed(name, seen = new Set()) {
  for (const dep of layers[name] ?? []) {
    if (!seen.has(dep)) {
      seen.add(dep);
      allowed(dep, seen);
    }
  }
  return seen;
}

/** True for files under a package's src/node/: Node-only code of a browser-safe package. */
function nodeFolder(name, file) {
  return relative(join(root, "packages", name, "src"), file).split(/[\\/]/)[0] === "node";
}

function* sourceFiles(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === "node_modules" || entry === "dist") continue;
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|mts|js|mjs)$/.test(entry) && !entry.endsWith(".d.ts")) yield path;
  }
}

const importPattern = /(?:from\s+|import\s*\(\s*|import\s+|export\s+\*\s+from\s+)["']([^"']+)["']/g;
const graph = new Map();

for (const name of readdirSync(join(root, "packages"))) {
  const dir = join(root, "packages", name);
  if (!existsSync(join(dir, "package.json"))) continue;
  if (!(name in layers)) {
    problems.push(`packages/${name} is not in scripts/layers.json: add its place in the layering`);
    continue;
  }
  const may = allowed(name);
  const nodeEntries = new Set(layers["$node-entries"]?.[name] ?? []);
  const nodeOnlyImports = new Set(layers["$node-only-imports"]?.[name] ?? []);
  const uses = new Set();
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  // What only the Node side loads, by dynamic import, is an optional peer: installing this package
  // installs none of them (nor their install scripts).
  for (const target of nodeOnlyImports) {
    const dep = `@z/${target}`;
    if (pkg.dependencies?.[dep] !== undefined || pkg.peerDependenciesMeta?.[dep]?.optional !== true)
      problems.push(
        `packages/${name}/package.json: ${dep} must be an optional peer dependency only ("$node-only-imports" in scripts/layers.json): peerDependencies and peerDependenciesMeta { optional: true }, not dependencies`,
      );
  }
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })) {
    if (dep.startsWith("@z/")) uses.add(dep.slice(3));
  }
  for (const sub of ["src", "test"]) {
    for (const file of sourceFiles(join(dir, sub))) {
      const text = readFileSync(file, "utf8");
      for (const [, spec] of text.matchAll(importPattern)) {
        const where = relative(root, file);
        // A browser-safe package keeps what only Node can run in src/node/, reached only from its
        // Node entries (layers.json's "$node-entries"), never from what a browser loads.
        const nodeOnly = nodeFolder(name, file) || nodeEntries.has(relative(dir, file));
        if (spec.startsWith("@z/")) {
          const target = spec.slice(3).split("/")[0];
          // Tests may use the package's own test kits and any lower layer.
          if (target !== name) uses.add(target);
          if (sub === "src" && !nodeOnly && nodeOnlyImports.has(target)) {
            problems.push(
              `${where}: @z/${name} imports @z/${target} outside its Node entries and src/node/ (an optional peer, loaded only there by dynamic import; not even \`import type\` where a browser loads it)`,
            );
          }
          if (sub === "src" && browserSafe.has(name) && !nodeOnly && target !== name && !browserSafe.has(target)) {
            problems.push(
              `${where}: browser-safe @z/${name} imports the Node-only @z/${target} outside its Node entries and src/node/`,
            );
          }
        }
        if (
          sub === "src" &&
          browserSafe.has(name) &&
          !nodeOnly &&
          (spec.startsWith("node:") || ["fs", "path", "os", "crypto", "zlib", "worker_threads"].includes(spec))
        ) {
          problems.push(`${where}: browser-safe @z/${name} imports the Node built-in "${spec}"`);
        }
        if (
          sub === "src" &&
          browserSafe.has(name) &&
          !nodeOnly &&
          /^\.\.?\/(.*\/)?node\//.test(spec) &&
          !nodeEntries.has(relative(dir, file))
        ) {
          problems.push(
            `${where}: imports Node-only code ("${spec}") but is not one of @z/${name}'s Node entries ("$node-entries" in scripts/layers.json)`,
          );
        }
      }
    }
  }
  for (const target of uses) {
    if (!may.has(target))
      problems.push(
        `@z/${name} imports @z/${target}, which is not below it (allowed: ${[...may].join(", ") || "nothing"})`,
      );
  }
  graph.set(name, uses);
}

// Cycles between a package's own modules (type-only imports included: they tie the files together
// as much for a reader, and for api-extractor), e.g. array.ts -> info.ts -> array.ts.
const moduleCycles = new Set();
for (const name of readdirSync(join(root, "packages"))) {
  const src = join(root, "packages", name, "src");
  const edges = new Map();
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, "utf8");
    const targets = [];
    for (const [, spec] of text.matchAll(importPattern)) {
      if (!spec.startsWith(".")) continue;
      const target = join(file, "..", spec.replace(/\.js$/, ".ts"));
      if (existsSync(target)) targets.push(target);
    }
    edges.set(file, targets);
  }
  const seen = new Map();
  const walk = (file, stack) => {
    if (seen.get(file) === "done") return;
    if (seen.get(file) === "active") {
      const cycle = [...stack.slice(stack.indexOf(file)), file].map((f) => relative(root, f));
      moduleCycles.add(cycle.join(" -> "));
      return;
    }
    seen.set(file, "active");
    for (const next of edges.get(file) ?? []) walk(next, [...stack, file]);
    seen.set(file, "done");
  };
  for (const file of edges.keys()) walk(file, []);
}
for (const cycle of moduleCycles) problems.push(`module import cycle: ${cycle}`);

// Cycles, in case layers.json itself is ever edited into one.
const state = new Map();
function visit(node, stack) {
  if (state.get(node) === "done") return;
  if (state.get(node) === "active") {
    problems.push(`import cycle: ${[...stack.slice(stack.indexOf(node)), node].map((n) => `@z/${n}`).join(" -> ")}`);
    return;
  }
  state.set(node, "active");
  for (const next of graph.get(node) ?? []) visit(next, [...stack, node]);
  state.set(node, "done");
}
for (const node of graph.keys()) visit(node, []);

if (problems.length > 0) {
  console.error(`layering check failed:\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`layering check: ${graph.size} packages, imports follow the layers, no cycles between packages or modules`);
