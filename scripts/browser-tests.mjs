#!/usr/bin/env node
// Which test files of the browser-safe packages (scripts/layers.json's "$browser-safe") run in the
// browser too: those that, through their relative imports, need no Node built-in beyond what
// scripts/browser-shims/ provides (`readFileSync` for fixtures, `inflateSync`, the `Buffer` global),
// no other Node global (`process`, `require`, `__dirname`) and no package that is not browser-safe
// (`@z/store-fs`). The rest run in Node only; `pnpm test` runs every file in Node regardless.
// vitest.browser.config.ts builds its projects from this; `node scripts/browser-tests.mjs` prints
// the plan with the reason each file stays in Node.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const layers = JSON.parse(readFileSync(join(root, "scripts/layers.json"), "utf8"));
const shims = join(root, "scripts/browser-shims");

/** The packages whose sources must run in a browser, from scripts/layers.json. */
export const browserSafePackages = layers["$browser-safe"];
/** Each package's entries for Node only (scripts/layers.json's "$node-entries"). */
const nodeEntries = layers["$node-entries"] ?? {};

/** Node built-ins the browser run stands in for, and the names it provides. */
const shimmed = {
  "node:fs": { file: join(shims, "node-fs.ts"), names: ["readFileSync"] },
  "node:zlib": { file: join(shims, "node-zlib.ts"), names: ["inflateSync"] },
};
/** Aliases for the browser run: each shimmed built-in, with and without `node:`. */
export const shimAliases = Object.entries(shimmed).map(([spec, { file }]) => ({
  find: new RegExp(`^(node:)?${spec.slice("node:".length)}$`),
  replacement: file,
}));
/** Set-up for every browser test file: the `Buffer` global. */
export const shimSetup = join(shims, "setup.ts");

const nodeBuiltins = new Set(builtinModules);
const isNodeBuiltin = (spec) =>
  spec.startsWith("node:") || nodeBuiltins.has(spec) || nodeBuiltins.has(spec.split("/")[0]);
// `import … from "x"` and `export … from "x"` (with their clause), `import "x"`, `import("x")`.
const staticImport =
  /\b(?:import|export)\s+((?:\{[^}]*\}|[^;=(){}'"`])*?)\s*\bfrom\s*["']([^"']+)["']|\bimport\s*["']([^"']+)["']/g;
const dynamicImport = /\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*\)/g;
const nodeGlobals = [
  [/\bprocess\s*\./, "uses the Node global process"],
  [/\brequire\s*\(/, "calls require()"],
  [/\b__(?:dirname|filename)\b/, "uses __dirname/__filename"],
];

/** Why importing `clause` from the built-in `spec` needs Node, or undefined when a shim covers it. */
function builtinReason(spec, clause) {
  const shim = shimmed[spec.startsWith("node:") ? spec : `node:${spec}`];
  const named = /^\{([^}]*)\}$/.exec(clause?.trim() ?? "");
  if (!shim || !named) return `imports "${spec}"`;
  const names = named[1]
    .split(",")
    .map(
      (n) =>
        n
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0],
    )
    .filter(Boolean);
  const missing = names.filter((name) => !shim.names.includes(name));
  return missing.length > 0 ? `imports ${missing.join(", ")} from "${spec}"` : undefined;
}

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
  const imports = [
    ...[...text.matchAll(staticImport)].map(([, clause, from, bare]) => ({
      spec: from ?? bare,
      clause: from ? clause : "",
    })),
    ...[...text.matchAll(dynamicImport)].map(([, spec]) => ({ spec, clause: undefined })),
  ];
  for (const { spec, clause } of imports) {
    if (isNodeBuiltin(spec)) {
      const reason = builtinReason(spec, clause);
      if (reason) return `${where} ${reason}`;
    }
    const workspace = /^@z\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/.exec(spec);
    if (workspace && !browserSafePackages.includes(workspace[1])) {
      return `${where} imports ${spec}, which is not browser-safe`;
    }
    // `@z/http-client/node`: a browser-safe package's Node entry, named in scripts/layers.json.
    if (workspace?.[2] && (nodeEntries[workspace[1]] ?? []).includes(`src/${workspace[2]}.ts`)) {
      const reason = nodeReason(join(root, "packages", workspace[1], "src", `${workspace[2]}.ts`), seen);
      if (reason) return `${where} imports ${spec}, a Node entry: ${reason}`;
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
