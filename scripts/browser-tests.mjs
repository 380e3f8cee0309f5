#!/usr/bin/env node
// Which test files of the browser-safe packages (scripts/layers.json's "$browser-safe") can run in a
// browser: those that, through their relative imports, use no Node built-in (`node:fs`, `fs`, …),
// no Node global (`Buffer`, `process`, `require`, `__dirname`) and no package that is not
// browser-safe (`@z/store-fs`). The rest keep running in Node only (`pnpm test` runs every file).
// vitest.browser.config.ts builds its projects from this; `node scripts/browser-tests.mjs` prints
// the plan with the reason each excluded file stays in Node.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const layers = JSON.parse(readFileSync(join(root, "scripts/layers.json"), "utf8"));

/** The packages whose sources must run in a browser, from scripts/layers.json. */
export const browserSafePackages = layers["$browser-safe"];

const nodeBuiltins = new Set(builtinModules);
const importPattern = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+|\bexport\s+\*\s+from\s+)["']([^"']+)["']/g;
const nodeGlobals = [
  [/\bBuffer\b/, "uses the Node global Buffer"],
  [/\bprocess\s*\./, "uses the Node global process"],
  [/\brequire\s*\(/, "calls require()"],
  [/\b__(?:dirname|filename)\b/, "uses __dirname/__filename"],
];

function* testFiles(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (entry === "node_modules" || entry === "fixtures") continue;
    if (statSync(path).isDirectory()) yield* testFiles(path);
    else if (/\.test\.[cm]?[jt]s$/.test(entry)) yield path;
  }
}

/** The file a relative import names: `./x.js` is written for `./x.ts`. */
function resolveRelative(from, spec) {
  const base = resolve(dirname(from), spec);
  const candidates = [base, base.replace(/\.([cm]?)js$/, ".$1ts"), `${base}.ts`, join(base, "index.ts")];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** Why `file` (or a file it imports relatively) needs Node, or undefined when it runs in a browser. */
function nodeReason(file, seen = new Set()) {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const where = relative(root, file);
  // Type-only imports vanish when compiled, so they need nothing at run time.
  const text = readFileSync(file, "utf8").replace(/^\s*(?:import|export)\s+type\b[^;]*;/gm, "");
  for (const [, spec] of text.matchAll(importPattern)) {
    if (spec.startsWith("node:") || nodeBuiltins.has(spec) || nodeBuiltins.has(spec.split("/")[0])) {
      return `${where} imports "${spec}"`;
    }
    const workspace = /^@z\/([a-z0-9-]+)/.exec(spec);
    if (workspace && !browserSafePackages.includes(workspace[1])) {
      return `${where} imports ${spec}, which is not browser-safe`;
    }
    if (spec.startsWith(".")) {
      const target = resolveRelative(file, spec);
      const reason = target && /\.[cm]?[jt]s$/.test(target) ? nodeReason(target, seen) : undefined;
      if (reason) return reason;
    }
  }
  for (const [pattern, what] of nodeGlobals) if (pattern.test(text)) return `${where} ${what}`;
  return undefined;
}

/**
 * For each browser-safe package with tests: the test files (relative to the package) that run in
 * the browser, and those that stay in Node with the reason.
 */
export function browserTestPlan() {
  const plan = [];
  for (const name of browserSafePackages) {
    const dir = join(root, "packages", name);
    const browser = [];
    const nodeOnly = [];
    for (const file of testFiles(join(dir, "test"))) {
      const reason = nodeReason(file);
      if (reason) nodeOnly.push({ file: relative(dir, file), reason });
      else browser.push(relative(dir, file));
    }
    if (browser.length + nodeOnly.length > 0) plan.push({ name, dir, browser, nodeOnly });
  }
  return plan;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const { name, browser, nodeOnly } of browserTestPlan()) {
    console.log(`@z/${name}: ${browser.length} test file(s) in Chromium, ${nodeOnly.length} in Node only`);
    for (const file of browser) console.log(`  browser  ${file}`);
    for (const { file, reason } of nodeOnly) console.log(`  node     ${file}  (${reason})`);
  }
}
